package io.spiffeidt.support.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.wimse.WimseSettings;
import io.spiffeidt.core.wimse.Wit;
import io.spiffeidt.core.wimse.WptSigner;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This workload's WIT and the key it proves (docs/formats/wimse.md "Who issues WITs"): a P-256 key
 * pair made here, whose private half never leaves the process, and the WIT the issuer answered for
 * its public half. It is obtained at the first use and again once half the WIT's lifetime has
 * passed, each time with a new key pair (draft-ietf-wimse-wpt-02 §3.2: a key per WIT).
 *
 * <p>Every WIT answered is verified before use (the issuer's signature and lifetime by {@code
 * verify}), and must name this workload and confirm the key just sent: a WIT for another workload or
 * key is refused ({@link ErrorCode#UPSTREAM_UNAVAILABLE}), never used. When a renewal fails while the
 * WIT held is still valid for longer than a WPT lives, the held one serves until the next use;
 * otherwise the failure is the caller's.
 *
 * <p>Thread safety: thread safe; one renewal at a time.
 */
public final class WorkloadCredential {

    private static final Logger log = LoggerFactory.getLogger(WorkloadCredential.class);

    /** A WIT with the signer of its key. */
    public record Held(Wit wit, WptSigner signer, Instant renewAt) {

        public Held {
            Objects.requireNonNull(wit, "wit");
            Objects.requireNonNull(signer, "signer");
            Objects.requireNonNull(renewAt, "renewAt");
        }
    }

    private final SpiffeId self;
    private final WimseSettings settings;
    private final Provider provider;
    private final SecureRandom random;
    private final Function<PublicKey, String> issue;
    private final Function<String, Wit> verify;
    private volatile Held held;

    /**
     * @param self this workload: the {@code sub} its WIT must name
     * @param settings the WPT lifetime, limits and clock
     * @param provider the JCA provider that signs WPTs
     * @param random the source of key pairs and {@code jti}s
     * @param issue asks the issuer for a WIT confirming the public key; answers the compact JWS
     * @param verify verifies a WIT as every tier does (the issuer's key, lifetime, {@code cnf})
     */
    public WorkloadCredential(
            SpiffeId self,
            WimseSettings settings,
            Provider provider,
            SecureRandom random,
            Function<PublicKey, String> issue,
            Function<String, Wit> verify) {
        this.self = Objects.requireNonNull(self, "self");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.random = Objects.requireNonNull(random, "random");
        this.issue = Objects.requireNonNull(issue, "issue");
        this.verify = Objects.requireNonNull(verify, "verify");
    }

    /**
     * The WIT to present now, obtained or renewed first when none is held or half its lifetime has
     * passed.
     *
     * @throws AssertionException when no usable WIT can be had
     */
    public Held current() {
        Held h = held;
        Instant now = settings.timeRules().now();
        if (h != null && now.isBefore(h.renewAt())) {
            return h;
        }
        synchronized (this) {
            h = held;
            if (h != null && now.isBefore(h.renewAt())) {
                return h;
            }
            try {
                h = obtain(now);
            } catch (AssertionException e) {
                Held old = held;
                if (old != null
                        && now.plus(settings.wptLifetime()).isBefore(old.wit().expiresAt())) {
                    log.warn("WIT renewal for {} failed ({}); the held WIT serves until the next use", self, e.code());
                    return old;
                }
                throw e;
            }
            held = h;
            return h;
        }
    }

    private Held obtain(Instant now) {
        KeyPair pair = newKeyPair();
        Wit wit = verify.apply(issue.apply(pair.getPublic()));
        if (!wit.subject().equals(self)) {
            throw new AssertionException(
                    ErrorCode.UPSTREAM_UNAVAILABLE,
                    "the WIT issuer answered a WIT for " + wit.subject() + ", not " + self);
        }
        if (!Arrays.equals(wit.confirmationKey().getEncoded(), pair.getPublic().getEncoded())) {
            throw new AssertionException(
                    ErrorCode.UPSTREAM_UNAVAILABLE, "the WIT issuer answered a WIT for another key");
        }
        Instant issued = wit.issuedAt() == null ? now : wit.issuedAt();
        Duration lifetime = Duration.between(issued, wit.expiresAt());
        WptSigner signer = new WptSigner(pair.getPrivate(), pair.getPublic(), provider, settings, random);
        log.debug("WIT for {} until {}", self, wit.expiresAt());
        return new Held(wit, signer, issued.plus(lifetime.dividedBy(2)));
    }

    private KeyPair newKeyPair() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"), random);
            return gen.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make an EC P-256 key pair", e);
        }
    }
}
