package io.spiffeidt.support.testing;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.SpiffeTls;
import java.net.http.HttpClient;
import java.time.Duration;
import javax.net.ssl.SSLContext;

/** The shared test PKI: one CA for example.org, one rogue CA for the same trust domain. */
public final class TestIdentities {

    /** The trust domain of the tests. */
    public static final String TRUST_DOMAIN = "example.org";

    /** The CA every test workload trusts. */
    public static final TestPki PKI = new TestPki(TRUST_DOMAIN);

    /** A CA nobody trusts, issuing the same names. */
    public static final TestPki ROGUE = new TestPki(TRUST_DOMAIN);

    private TestIdentities() {}

    /** The default SPIFFE ID of a role. */
    public static String id(Role role) {
        return "spiffe://" + TRUST_DOMAIN + "/" + role.workloadName();
    }

    /** A source with an SVID of {@code role} from the trusted CA. */
    public static StaticX509Source source(Role role) {
        return PKI.source(id(role));
    }

    /** A JDK HTTP client presenting {@code clientSource}'s SVID and accepting only {@code serverId}. */
    public static HttpClient httpClient(StaticX509Source clientSource, String serverId) {
        return httpClient(SpiffeTls.clientContext(clientSource, SpiffeId.parse(serverId)));
    }

    /** A JDK HTTP client on a given SSL context. */
    public static HttpClient httpClient(SSLContext context) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(context)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }
}
