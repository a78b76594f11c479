package io.spiffeidt.core.lsvid;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.memo.Memos;
import org.junit.jupiter.api.Test;

/** The memo of validated base chains never changes a verdict. */
class LsvidChainCacheTests {

    private static final LsvidFixture F = new LsvidFixture();

    @Test
    void verifyWhenCachedThenSameResultAsUncached() {
        String doc = LsvidCodec.encode(F.now().standard());
        LsvidVerifier cached = new LsvidVerifier(F.settings());
        LsvidVerifier uncached = new LsvidVerifier(F.settings(), Memos.none());
        VerifiedResult first = cached.verify(doc, F.target.id(), F.mtier.presenter());
        VerifiedResult again = cached.verify(doc, F.target.id(), F.mtier.presenter());
        VerifiedResult plain = uncached.verify(doc, F.target.id(), F.mtier.presenter());
        assertThat(again).isEqualTo(first).isEqualTo(plain);
    }

    @Test
    void verifyWhenSameIdsFromAnotherCaAfterCachedThenUntrustedKey() {
        LsvidVerifier verifier = new LsvidVerifier(F.settings());
        String genuine = LsvidCodec.encode(F.now().standard());
        assertThat(verifier.verify(genuine, F.target.id(), F.mtier.presenter()).depth())
                .isEqualTo(5);

        // every workload re-issued by a rogue CA under the same SPIFFE IDs
        LsvidFixture rogue = new LsvidFixture();
        String forged = LsvidCodec.encode(rogue.now().standard());
        assertThatAssertion(() -> verifier.verify(forged, F.target.id(), rogue.mtier.presenter()))
                .hasCode(ErrorCode.UNTRUSTED_KEY);

        assertThat(verifier.verify(genuine, F.target.id(), F.mtier.presenter()).depth())
                .isEqualTo(5);
    }
}
