package io.spiffeidt.core.jws;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.txntoken.TxnTokenKeyResolver;
import io.spiffeidt.testkit.TestPki;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JwsKeyResolverTests {

    private final PublicKey key = TestPki.ecKeyPair().getPublic();

    @Test
    void resolveWhenKnownKidThenItsKeyAndWhenUnknownThenUntrustedKeyNamingTheFormat() {
        JwsKeyResolver keys = JwsKeyResolver.of(Map.of("k1", key), "DVID");

        assertThat(keys.resolve("k1")).isSameAs(key);
        assertThatAssertion(() -> keys.resolve("k2"))
                .hasCode(ErrorCode.UNTRUSTED_KEY)
                .hasMessageContaining("unknown DVID key id");
    }

    @Test
    void resolveWhenMapChangedAfterwardsThenTheCopyServes() {
        Map<String, PublicKey> map = new HashMap<>(Map.of("k1", key));
        JwsKeyResolver keys = JwsKeyResolver.of(map, "Txn-Token");
        map.clear();

        assertThat(keys.resolve("k1")).isSameAs(key);
    }

    @Test
    void formatResolversWhenUnknownKidThenTheirOwnMessage() {
        assertThatAssertion(() -> DvidKeyResolver.of(key).resolve("other"))
                .hasCode(ErrorCode.UNTRUSTED_KEY)
                .hasMessageContaining("unknown DVID key id");
        assertThatAssertion(() -> TxnTokenKeyResolver.of(key).resolve("other"))
                .hasCode(ErrorCode.UNTRUSTED_KEY)
                .hasMessageContaining("unknown Txn-Token key id");
    }
}
