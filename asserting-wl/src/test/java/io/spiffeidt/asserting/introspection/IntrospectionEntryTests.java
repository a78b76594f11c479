package io.spiffeidt.asserting.introspection;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.asserting.anonmode.AnonModeIntrospectionEntry;
import io.spiffeidt.asserting.dvid.DvidIntrospectionEntry;
import io.spiffeidt.core.zkp.OAuthProof;
import org.junit.jupiter.api.Test;

class IntrospectionEntryTests {

    @Test
    void charsWhenProofKeptThenItsThreeTextsAndWhenPendingThenTheToken() {
        OAuthProof proof = new OAuthProof("m".repeat(10), "z".repeat(1_000), "k".repeat(100));
        assertThat(new DvidIntrospectionEntry(proof, null).chars()).isEqualTo(1_110);
        assertThat(new AnonModeIntrospectionEntry(null, "t".repeat(900)).chars())
                .isEqualTo(900);
        assertThat(new DvidIntrospectionEntry(null, null).chars()).isZero();
    }
}
