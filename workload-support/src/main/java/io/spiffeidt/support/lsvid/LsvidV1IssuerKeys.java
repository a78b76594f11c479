package io.spiffeidt.support.lsvid;

import io.spiffeidt.support.identity.SvidKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The original SPIRE LSVID signing keys that version 1 LSVID base tokens must be signed with
 * (docs/formats/lsvid.md "Version 1"), from {@code spiffeidt.verification.lsvid-v1-issuer-keys}.
 *
 * <p>Loading fails closed: a file that is missing, holds anything but exactly one PEM {@code PUBLIC
 * KEY}, or a key that is not EC P-256 stops the start-up with a message naming the file (never its
 * content).
 *
 * <p>Thread safety: immutable.
 *
 * @param keys the keys, in configuration order
 */
public record LsvidV1IssuerKeys(List<PublicKey> keys) {

    private static final String PROPERTY = "spiffeidt.verification.lsvid-v1-issuer-keys";
    private static final Pattern PEM =
            Pattern.compile("-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\\s]+)-----END PUBLIC KEY-----");
    /** The order of the P-256 group: the curve check that does not depend on parameter names. */

    /** Copies the list. */
    public LsvidV1IssuerKeys {
        keys = List.copyOf(keys);
    }

    /** No trusted version 1 keys: every version 1 document is rejected. */
    public static LsvidV1IssuerKeys none() {
        return new LsvidV1IssuerKeys(List.of());
    }

    /**
     * Reads one EC P-256 public key from each PEM file.
     *
     * @throws IllegalStateException naming the property index and path when a file cannot be used
     */
    public static LsvidV1IssuerKeys load(List<Path> pemFiles) {
        List<PublicKey> keys = new ArrayList<>();
        for (int i = 0; i < pemFiles.size(); i++) {
            Path file = pemFiles.get(i);
            String where = PROPERTY + "[" + i + "] (" + file + ")";
            String text;
            try {
                text = Files.readString(file, StandardCharsets.US_ASCII);
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException(where + ": cannot be read", e);
            }
            keys.add(parse(text, where));
        }
        return new LsvidV1IssuerKeys(keys);
    }

    private static PublicKey parse(String text, String where) {
        Matcher m = PEM.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException(where + ": no PEM PUBLIC KEY block");
        }
        String body = m.group(1).replaceAll("\\s", "");
        if (m.find()) {
            throw new IllegalStateException(where + ": more than one PEM PUBLIC KEY block");
        }
        PublicKey key;
        try {
            key = KeyFactory.getInstance("EC")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException(where + ": not an EC public key", e);
        }
        if (!SvidKeys.isP256(key)) {
            throw new IllegalStateException(where + ": not a P-256 key");
        }
        return key;
    }
}
