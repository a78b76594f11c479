package io.spiffeidt.asserting.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the asserting workload ({@code spiffeidt.asserting.*}).
 *
 * @param dvid the DVID signer and proof settings
 * @param introspection the introspection store settings
 */
@ConfigurationProperties("spiffeidt.asserting")
@Validated
public record AssertingProperties(@DefaultValue Dvid dvid, @DefaultValue Introspection introspection) {

    /** When the zero-knowledge proof is made. */
    public enum ZkpTiming {
        /** At mint (the default, as in the thesis timings). */
        AT_MINT,
        /** At the first introspection. */
        LAZY,
        /** Never: introspection answers without a proof. */
        OFF
    }

    /**
     * @param keyPath PEM private key (PKCS#8 or PKCS#1 RSA, or PKCS#8 EC P-256) of the DVID signer;
     *     generated at start-up when absent (development)
     * @param zkp when the proof is made
     * @param zkpRounds proof rounds (80..256)
     * @param embedZkp also embed the proof in the DVID as the {@code zkp} claim
     * @param lifetime DVID lifetime (never longer than the OAuth token)
     */
    public record Dvid(
            Path keyPath,
            @DefaultValue("at-mint") ZkpTiming zkp,
            @DefaultValue("80") @Min(1) @Max(256) int zkpRounds,
            @DefaultValue("false") boolean embedZkp,
            @DefaultValue("120s") Duration lifetime) {}

    /**
     * @param maxEntries bound of the in-memory store (oldest evicted first)
     */
    public record Introspection(@DefaultValue("100000") @Min(1) int maxEntries) {}
}
