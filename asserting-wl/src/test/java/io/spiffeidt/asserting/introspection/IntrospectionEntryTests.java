package io.spiffeidt.asserting.introspection;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.zkp.OAuthProof;
import org.junit.jupiter.api.Test;

class IntrospectionEntryTests {

    @Test
    void charsWhenProofKeptThenItsThreeTextsAndWhenPendingThenTheToken() {
        OAuthProof proof = new OAuthProof("m".repeat(10), "z".repeat(1_000), "k".repeat(100));
        assertThat(new IntrospectionEntry(proof, null).chars()).isEqualTo(1_110);
        assertThat(new IntrospectionEntry(null, "t".repeat(900)).chars()).isEqualTo(900);
        assertThat(new IntrospectionEntry(null, null).chars()).isZero();
    }

    @Test
    void toStringWhenTokenPendingThenNeitherTokenNorProofShown() {
        OAuthProof proof = new OAuthProof("message", "zkp", "idp-key");

        assertThat(new IntrospectionEntry(proof, "secret-oauth-token").toString())
                .isEqualTo("IntrospectionEntry[proof=true, pending=true]")
                .doesNotContain("secret-oauth-token", "message");
    }
}
