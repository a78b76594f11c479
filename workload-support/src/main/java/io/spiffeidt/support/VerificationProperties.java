package io.spiffeidt.support;

import io.spiffeidt.core.VerificationProfile;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Document verification of every mode ({@code spiffeidt.verification.*}; docs/formats/common.md
 * "Time", "Verification profiles"), bound by {@link SpiffeIdtAutoConfiguration} beside it. Defaults
 * are written once, in the {@link DefaultValue} annotations.
 *
 * <p>Thread safety: immutable.
 *
 * @param profile the verification profile: {@code strict} or {@code original-compatible}
 * @param skew allowed clock skew
 * @param lifetime lifetime of a minted document
 * @param originalMaxAge lifetime assumed for an original document without {@code exp}
 * @param lsvidV1IssuerKeys PEM files ({@code PUBLIC KEY}, EC P-256) of the original SPIRE LSVID signing
 *     keys that version 1 LSVID base tokens must be signed with; read only under the
 *     original-compatible profile; unset: every version 1 document is rejected
 */
@ConfigurationProperties("spiffeidt.verification")
@Validated
public record VerificationProperties(
        @DefaultValue("strict") @NotNull VerificationProfile profile,
        @DefaultValue("30s") @NotNull Duration skew,
        @DefaultValue("120s") @NotNull Duration lifetime,
        @DefaultValue("300s") @NotNull Duration originalMaxAge,
        List<Path> lsvidV1IssuerKeys) {

    /** Copies the key list. */
    public VerificationProperties {
        lsvidV1IssuerKeys = lsvidV1IssuerKeys == null ? List.of() : List.copyOf(lsvidV1IssuerKeys);
    }
}
