package io.spiffeidt.asserting.dvid;

import io.spiffeidt.asserting.introspection.ZkpTiming;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * DVID settings of the asserting workload ({@code spiffeidt.dvid.*}, the one prefix of the mode; the
 * middle tier reads {@code spiffeidt.dvid.introspect} there too).
 *
 * @param keyPath PEM private key (PKCS#8 or PKCS#1 RSA, or PKCS#8 EC P-256) of the DVID signer; share
 *     it between replicas; unset: a key generated at start-up (development)
 * @param zkp when the proof answered by {@code POST /dvid/introspect} is made: {@code at-mint} (as in
 *     the thesis timings), {@code lazy} (at the first introspection) or {@code off}
 * @param zkpRounds proof rounds (1..256)
 * @param embedZkp also embed the proof in the DVID as the {@code zkp} claim
 * @param lifetime DVID lifetime (never longer than the OAuth token)
 */
@ConfigurationProperties("spiffeidt.dvid")
@Validated
public record DvidAssertingProperties(
        Path keyPath,
        @DefaultValue("at-mint") @NotNull ZkpTiming zkp,
        @DefaultValue("80") @Min(1) @Max(256) int zkpRounds,
        @DefaultValue("false") boolean embedZkp,
        @DefaultValue("120s") @NotNull Duration lifetime) {}
