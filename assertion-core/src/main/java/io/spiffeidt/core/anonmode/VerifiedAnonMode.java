package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerifiedResult;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A verified Anon-Mode token (docs/formats/anon-mode.md "Verification"): the common result, the root
 * identifier to introspect, who the hops named themselves, and the token as parsed once by the
 * verifier, so that no later step of the request (the introspection, the path, an extension by
 * {@link AnonModeExtender#extendLayer(VerifiedAnonMode, SpiffeId)}) parses the text again.
 *
 * <p>Thread safety: immutable.
 */
public final class VerifiedAnonMode {

    private final String token;
    private final VerifiedResult result;
    private final String rootIdentifier;
    private final List<Optional<SpiffeId>> hopIdentities;
    private final AnonModeToken parsed;

    VerifiedAnonMode(
            String token,
            VerifiedResult result,
            String rootIdentifier,
            List<Optional<SpiffeId>> hopIdentities,
            AnonModeToken parsed) {
        this.token = Objects.requireNonNull(token, "token");
        this.result = Objects.requireNonNull(result, "result");
        this.rootIdentifier = Objects.requireNonNull(rootIdentifier, "rootIdentifier");
        this.hopIdentities = List.copyOf(hopIdentities);
        this.parsed = Objects.requireNonNull(parsed, "parsed");
    }

    /** The token as received. */
    public String token() {
        return token;
    }

    /** As {@link AnonModeVerifier#verify(String, SpiffeId)} returns it. */
    public VerifiedResult result() {
        return result;
    }

    /** As {@link AnonModeVerifier#rootIdentifier(String)} returns it: what the asserting workload introspects. */
    public String rootIdentifier() {
        return rootIdentifier;
    }

    /** As {@link AnonModeVerifier#hopIdentities(String)} returns it: each extension layer's {@code iid}, innermost first. */
    public List<Optional<SpiffeId>> hopIdentities() {
        return hopIdentities;
    }

    /** The number of layers. */
    public int depth() {
        return result.depth();
    }

    /** The verifier's parse of {@link #token()}. */
    AnonModeToken parsed() {
        return parsed;
    }
}
