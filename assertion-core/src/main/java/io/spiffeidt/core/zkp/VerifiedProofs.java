package io.spiffeidt.core.zkp;

import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.Memos;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;
import java.util.HexFormat;

/**
 * A bounded memo of OAuth proofs that verified, so that a verifier checks the proof of a document
 * once and not on every use of the document (the proof is made once per document but was
 * verified on every request).
 *
 * <p>Sound because {@link OAuthProof#verify} is a pure function of its inputs: the proof's {@code
 * msg} and {@code zkp} texts, the delegation ({@code dpa}, {@code dpr}), the IdP key the verifier
 * itself resolved from the issuer's JWKS, and the profile. The memo key is the SHA-256 of exactly
 * these (length-prefixed), so nothing a holder or an introspection answer can rewrite maps to an
 * entry it did not earn: another text, another delegation or a rotated IdP key is another key and is
 * verified in full. The key resolution and the size limits run on every call, before the memo is
 * asked, so a key that the issuer no longer publishes still fails ({@code UNTRUSTED_KEY}). Only
 * successes are kept, each for at most the memo's TTL; the least recently used entry goes when the
 * memo is full (the {@link Memo} {@value #MEMO}).
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

    /** The name of this memo in settings and metrics. */
    public static final String MEMO = "oauth-proof";

    private static final VerifiedProofs NONE = new VerifiedProofs(Memos.none());

    /** What the memo holds: a verification's key, or the proof last verified for a document. */
    private sealed interface Entry permits Verified, Held {}

    /** A verification with exactly the inputs of its key succeeded. */
    private record Verified() implements Entry {}

    /**
     * The proof last verified for one document.
     *
     * @param proofDigest the proof's {@link OAuthProof#digest()}
     * @param msg the proof's {@code msg} (the OAuth token's {@code header.payload})
     * @param zkpSha256 the SHA-256 of the proof's {@code zkp} text
     */
    record Held(String proofDigest, String msg, byte[] zkpSha256) implements Entry {}

    private static final Verified VERIFIED = new Verified();

    /** Verifications are kept under {@code v} + their key, held proofs under {@code h} + the document's. */
    private final Memo<String, Entry> memo;

    /**
     * The memo {@value #MEMO} of {@code memos}: its size counts verifications and held proofs
     * together, and its TTL is how long an entry is used after its verification.
     */
    public VerifiedProofs(Memos memos) {
        this.memo = memos.memo(MEMO, Expiry.ttl());
    }

    /** A memo that remembers nothing: every proof is verified in full (the original's behaviour). */
    public static VerifiedProofs none() {
        return NONE;
    }

    /** Whether a proof with exactly these inputs verified within the memo's time. */
    boolean verified(String key) {
        return memo.get("v" + key) != null;
    }

    /** Remembers a successful verification. */
    void remember(String key) {
        memo.put("v" + key, VERIFIED);
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
        if (!memo.remembers()) {
            return null;
        }
        return memo.get("h" + documentKey(document)) instanceof Held h ? h : null;
    }

    /** Holds the proof that just verified for {@code document}. */
    void hold(String document, String proofDigest, String msg, byte[] zkpSha256) {
        if (!memo.remembers()) {
            return;
        }
        memo.put("h" + documentKey(document), new Held(proofDigest, msg, zkpSha256.clone()));
    }

    /** Whether this memo remembers anything. */
    public boolean remembers() {
        return memo.remembers();
    }

    /** Entries kept now (expired ones included until they are asked for or pushed out). */
    public int size() {
        return memo.size();
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
