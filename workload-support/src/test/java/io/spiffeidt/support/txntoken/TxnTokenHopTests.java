package io.spiffeidt.support.txntoken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.core.txntoken.TxnTokenMinter;
import io.spiffeidt.core.txntoken.TxnTokenRequest;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.wire.DocumentRequest;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/**
 * {@link TxnTokenHop} on the wire (docs/formats/txn-token.md "Wire"): the token travels only in the
 * {@code Txn-Token} request header of draft §12.1, exactly one, never in the body.
 */
class TxnTokenHopTests {

    private static final SignatureProvider PROVIDER = new SignatureProvider(CryptoProviderChoice.BC);

    /** The middle tier forwarding the token unchanged ({@code spiffeidt.txn-token.replace=false}). */
    private final TxnTokenHop mTier = hop(Role.M_TIER, false);

    private static TxnTokenHop hop(Role role, boolean replace) {
        return new TxnTokenHop(
                TestHops.parts(role, TestIdentities.source(role)),
                new TxnTokenProperties("account", Duration.ofSeconds(120), replace));
    }

    private static HttpHeaders header(String... values) {
        HttpHeaders headers = new HttpHeaders();
        for (String value : values) {
            headers.add(TxnTokenHop.HEADER, value);
        }
        return headers;
    }

    private static void assertCode(ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(AssertionException.class, e -> assertThat(e.code())
                .isEqualTo(code));
    }

    @Test
    void receiveWhenOneHeaderThenItsValueAndNothingFromTheBody() {
        Received received = mTier.receive(new DocumentRequest(null, 5L, null), header("a.b.c"));

        assertThat(received.token()).isEqualTo("a.b.c");
        assertThat(received.artifacts()).isNull();
    }

    @Test
    void receiveWhenHeaderMissingRepeatedOrEmptyThenMalformed() {
        for (ThrowingCallable call : new ThrowingCallable[] {
            () -> mTier.receive(DocumentRequest.of(null), new HttpHeaders()),
            () -> mTier.receive(DocumentRequest.of(null), header("a.b.c", "a.b.c")),
            () -> mTier.receive(DocumentRequest.of(null), header("a.b.c", "d.e.f")),
            () -> mTier.receive(DocumentRequest.of(null), header("")),
            () -> mTier.receive(DocumentRequest.of(null), header("   "))
        }) {
            assertCode(call, ErrorCode.MALFORMED);
        }
    }

    @Test
    void receiveWhenTokenInTheBodyThenMalformedEvenWithTheHeader() {
        assertCode(() -> mTier.receive(DocumentRequest.of("a.b.c"), new HttpHeaders()), ErrorCode.MALFORMED);
        assertCode(() -> mTier.receive(DocumentRequest.of("a.b.c"), header("a.b.c")), ErrorCode.MALFORMED);
        assertCode(() -> mTier.receive(DocumentRequest.of(""), header("a.b.c")), ErrorCode.MALFORMED);
        assertCode(() -> mTier.receive(new DocumentRequest(null, null, "{}"), header("a.b.c")), ErrorCode.MALFORMED);
    }

    @Test
    void receiveWhenValueOverTheTokenLimitThenLimitExceeded() {
        String oversized = "a".repeat(mTier.settings().maxTokenLength() + 1);

        assertCode(() -> mTier.receive(DocumentRequest.of(null), header(oversized)), ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void receiveWhenRefusedThenTheMessageNeverCarriesTheValue() {
        String secret = "eyJzZWNyZXQi.eyJzZWNyZXQi.c2lnbmF0dXJl";

        assertThatThrownBy(() -> mTier.receive(DocumentRequest.of(secret), header(secret)))
                .hasMessageNotContaining(secret);
        assertThatThrownBy(() -> mTier.receive(DocumentRequest.of(null), header(secret, secret)))
                .hasMessageNotContaining(secret);
    }

    @Test
    void forwardWhenNotReplacingThenTheSameTokenInTheHeaderAndOnlyTheAmountInTheBody() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair service = gen.generateKeyPair();
        TxnTokenMinter minter = new TxnTokenMinter(
                service.getPrivate(), service.getPublic(), PROVIDER.provider(), mTier.settings(), new SecureRandom());
        String token = minter.mint(new TxnTokenRequest(
                        "https://idp.example",
                        "user0001",
                        "account",
                        TestHops.identity(Role.SUBJECT_WL, TestIdentities.source(Role.SUBJECT_WL))
                                .self(),
                        Instant.now().plusSeconds(300)))
                .token();
        Received received = mTier.receive(new DocumentRequest(null, 5L, null), header(token));
        TxnToken verified = mTier.verifier(kid -> service.getPublic()).verify(received.token());

        Outgoing onward = mTier.forward(
                new Verified<>(verified, verified.result(TestIdentities.id(Role.ASSERTING_WL)), received),
                Role.TARGET_WL);

        assertThat(onward.headers()).containsExactly(Map.entry(TxnTokenHop.HEADER, token));
        // the Txn-Token is the document of the hop, though a header carries it
        assertThat(onward.headerDocumentCharacters()).isEqualTo(token.length());
        assertThat(onward.request(5L).token()).isNull();
        assertThat(onward.request(5L).artifacts()).isNull();
        assertThat(onward.request(5L).amount()).isEqualTo(5L);
        assertThat(onward.toString()).doesNotContain(token);
    }
}
