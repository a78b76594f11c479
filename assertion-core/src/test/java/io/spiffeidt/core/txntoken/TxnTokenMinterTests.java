package io.spiffeidt.core.txntoken;

import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.BC;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.DPA;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.DPR;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.M_TIER;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.NOW;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.OTHER_KEYS;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.SERVICE_KEYS;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.SUBJECT_WL;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.minter;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.request;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.settings;
import static io.spiffeidt.core.txntoken.TxnTokenVerifierTests.verifier;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.decode.DecodedDocument;
import io.spiffeidt.core.decode.DocumentDecoder;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

/** {@link TxnTokenMinter}: the token exchange's claims and the replacement rules of the draft's §13.15. */
class TxnTokenMinterTests {

    @Test
    void mintWhenSubjectTokenExpiresSoonerThenExpNeverPassesIt() {
        TxnTokenRequest shortLived = new TxnTokenRequest(DPA, DPR, "account", SUBJECT_WL, NOW.plusSeconds(30));
        assertThat(minter(NOW, SERVICE_KEYS).mint(shortLived).expiresAt()).isEqualTo(NOW.plusSeconds(30));
    }

    @Test
    void mintWhenSubjectTokenExpiredThenExpired() {
        TxnTokenRequest expired = new TxnTokenRequest(DPA, DPR, "account", SUBJECT_WL, NOW);
        assertThatAssertion(() -> minter(NOW, SERVICE_KEYS).mint(expired)).hasCode(ErrorCode.EXPIRED);
    }

    @Test
    void mintWhenTwiceThenTwoTransactions() {
        TxnTokenMinter minter = minter(NOW, SERVICE_KEYS);
        assertThat(minter.mint(request()).txn())
                .isNotEqualTo(minter.mint(request()).txn());
    }

    @Test
    void mintWhenKeysAreNotAPairThenRefused() {
        assertThatThrownBy(() -> new TxnTokenMinter(
                        SERVICE_KEYS.getPrivate(), OTHER_KEYS.getPublic(), BC, settings(NOW), new SecureRandom()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void replaceWhenVerifiedThenTxnSubAudScopeKeptAndRequesterAppended() {
        TxnToken original = minter(NOW, SERVICE_KEYS).mint(request());
        TxnToken verified = verifier(settings(NOW.plusSeconds(10))).verify(original.token());

        TxnToken replacement = minter(NOW.plusSeconds(10), SERVICE_KEYS).replace(verified, M_TIER);

        TxnToken checked = verifier(settings(NOW.plusSeconds(10))).verify(replacement.token());
        assertThat(checked.txn()).isEqualTo(original.txn());
        assertThat(checked.subject()).isEqualTo(original.subject());
        assertThat(checked.audience()).isEqualTo(original.audience());
        assertThat(checked.scope()).isEqualTo(original.scope());
        assertThat(checked.userIssuer()).isEqualTo(original.userIssuer());
        assertThat(checked.requestingWorkload()).isEqualTo(M_TIER.toString());
        assertThat(checked.requestChain()).containsExactly(SUBJECT_WL.toString(), M_TIER.toString());
        assertThat(checked.issuedAt()).isEqualTo(NOW.plusSeconds(10));
        // never past the replaced token: no lifetime extension
        assertThat(checked.expiresAt()).isEqualTo(original.expiresAt());
    }

    @Test
    void replaceWhenReplacedTokenExpiredThenExpired() {
        TxnToken original = minter(NOW, SERVICE_KEYS).mint(request());
        assertThatAssertion(() -> minter(NOW.plusSeconds(120), SERVICE_KEYS).replace(original, M_TIER))
                .hasCode(ErrorCode.EXPIRED);
    }

    @Test
    void replaceWhenChainWouldPassTheDepthLimitThenLimitExceeded() {
        TxnTokenMinter minter = minter(NOW, SERVICE_KEYS);
        TxnToken token = minter.mint(request());
        for (int i = 1; i < settings(NOW).limits().maxDepth(); i++) {
            token = minter.replace(token, M_TIER);
        }
        TxnToken full = token;
        assertThatAssertion(() -> minter.replace(full, M_TIER)).hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void decodeWhenMintedThenTheUserShownAsTheDelegation() {
        TxnToken minted = minter(NOW, SERVICE_KEYS).mint(request());

        DecodedDocument decoded = DocumentDecoder.decode(Mode.TXN_TOKEN, minted.token(), Limits.defaults());

        assertThat(decoded.mode()).isEqualTo(Mode.TXN_TOKEN);
        assertThat(decoded.layers()).hasSize(1);
        assertThat(decoded.layers().get(0).dpr()).isEqualTo(DPR);
        assertThat(decoded.layers().get(0).dpa()).isEqualTo(DPA);
        assertThat(decoded.header()).containsEntry("typ", "txntoken+jwt");
    }
}
