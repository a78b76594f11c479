package io.spiffeidt.core.zkp;

import io.spiffeidt.core.VerificationProfile;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A bounded memo of OAuth proofs that verified, so that a verifier checks the proof of a document
 * once and not on every use of the document (issue 13: the proof is made once per document but was
 * verified on every request).
 *
 * <p>Sound because {@link OAuthProof#verify} is a pure function of its inputs: the proof's {@code
 * msg} and {@code zkp} texts, the delegation ({@code dpa}, {@code dpr}), the IdP key the verifier
 * itself resolved from the issuer's JWKS, and the profile. The memo key is the SHA-256 of exactly
 * these (length-prefixed), so nothing a holder or an introspection answer can rewrite maps to an
 * entry it did not earn: another text, another delegation or a rotated IdP key is another key and is
 * verified in full. The key resolution and the size limits run on every call, before the memo is
 * asked, so a key that the issuer no longer publishes still fails ({@code UNTRUSTED_KEY}). Only
 * successes are kept, each for at most {@code ttl}; the least recently used entry goes when the memo
 * is full.
 *
 * <p>The memo also holds, per document (by the SHA-256 of the text the verifier introspected), the
 * {@linkplain OAuthProof#digest() digest} of the last proof that verified for it, with its small
 * {@code msg} and the SHA-256 of its {@code zkp}: a verifier offers that digest to the asserting
 * workload, which answers "unchanged" instead of shipping the proof again, and {@link
 * OAuthProof#verifyHeld} then re-runs the delegation check, the key resolution and the memo lookup
 * on what is held. The proof itself (about 85 KB) is never kept.
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class VerifiedProofs {

    private final int capacity;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, Instant> entries;
    private final Map<String, Held> held;

    /**
     * The proof last verified for one document.
     *
     * @param proofDigest the proof's {@link OAuthProof#digest()}
     * @param msg the proof's {@code msg} (the OAuth token's {@code header.payload})
     * @param zkpSha256 the SHA-256 of the proof's {@code zkp} text
     * @param until when this is forgotten
     */
    record Held(String proofDigest, String msg, byte[] zkpSha256, Instant until) {}

    /**
     * @param capacity entries kept at most (0 = remember nothing)
     * @param ttl how long an entry is used after its verification
     */
    public VerifiedProofs(int capacity, Duration ttl, Clock clock) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
                return size() > VerifiedProofs.this.capacity;
            }
        };
        this.held = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Held> eldest) {
                return size() > VerifiedProofs.this.capacity;
            }
        };
    }

    /** A memo that remembers nothing: every proof is verified in full (the original's behaviour). */
    public static VerifiedProofs none() {
        return new VerifiedProofs(0, Duration.ZERO, Clock.systemUTC());
    }

    /** Whether a proof with exactly these inputs verified within the last {@code ttl}. */
    boolean verified(String key) {
        if (capacity == 0) {
            return false;
        }
        Instant now = clock.instant();
        synchronized (entries) {
            Instant until = entries.get(key);
            if (until == null) {
                return false;
            }
            if (!now.isBefore(until)) {
                entries.remove(key);
                return false;
            }
            return true;
        }
    }

    /** Remembers a successful verification. */
    void remember(String key) {
        if (capacity == 0) {
            return;
        }
        Instant until = clock.instant().plus(ttl);
        synchronized (entries) {
            entries.put(key, until);
        }
    }

    /**
     * The digest of the proof that last verified for {@code document} within the memo's time, to
     * offer to the asserting workload's introspection; {@code null} when none (always, when the memo
     * remembers nothing: every introspection then ships the proof, as the original did).
     *
     * @param document the text the verifier introspects (a root, or a whole DVID)
     */
    public String heldDigest(String document) {
        Held h = held(document);
        return h == null ? null : h.proofDigest();
    }

    /** The proof held for {@code document}, or {@code null} (none, expired, or nothing remembered). */
    Held held(String document) {
        if (capacity == 0) {
            return null;
        }
        String key = documentKey(document);
        Instant now = clock.instant();
        synchronized (held) {
            Held h = held.get(key);
            if (h == null) {
                return null;
            }
            if (!now.isBefore(h.until())) {
                held.remove(key);
                return null;
            }
            return h;
        }
    }

    /** Holds the proof that just verified for {@code document}. */
    void hold(String document, String proofDigest, String msg, byte[] zkpSha256) {
        if (capacity == 0) {
            return;
        }
        Held h = new Held(proofDigest, msg, zkpSha256.clone(), clock.instant().plus(ttl));
        synchronized (held) {
            held.put(documentKey(document), h);
        }
    }

    /** The most entries kept (0: the memo remembers nothing). */
    public int capacity() {
        return capacity;
    }

    /** Entries kept now (expired ones included until they are asked for or pushed out). */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    /**
     * The memo key of one verification's inputs; the proof text enters as its SHA-256, so that a
     * held proof's key can be computed without the proof.
     */
    static String key(
            String msg, byte[] zkpSha256, String dpa, String dpr, RSAPublicKey idpKey, VerificationProfile profile) {
        MessageDigest sha = sha256();
        for (byte[] part : new byte[][] {
            utf8(msg),
            zkpSha256,
            utf8(dpa),
            utf8(dpr),
            idpKey.getModulus().toByteArray(),
            idpKey.getPublicExponent().toByteArray(),
            utf8(profile.name())
        }) {
            update(sha, part);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** SHA-256 of the length-prefixed parts. */
    static byte[] digest(byte[]... parts) {
        MessageDigest sha = sha256();
        for (byte[] part : parts) {
            update(sha, part);
        }
        return sha.digest();
    }

    private static String documentKey(String document) {
        return HexFormat.of().formatHex(digest(utf8(document)));
    }

    private static void update(MessageDigest sha, byte[] part) {
        sha.update(new byte[] {
            (byte) (part.length >>> 24), (byte) (part.length >>> 16), (byte) (part.length >>> 8), (byte) part.length
        });
        sha.update(part);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
