package io.spiffeidt.asserting.dvid;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.util.Locale;
import java.util.Objects;

/**
 * Makes the DVID signing key file of a Docker Compose deployment, once: a one-shot service ({@code
 * dvid-key} in {@code deploy/compose/compose.yaml}) runs it with the asserting-wl image on a named
 * volume before asserting-wl starts. Without a key file asserting-wl generates a key at every start,
 * and the DVIDs minted before a restart no longer verify. The Kubernetes deployment does the same with a Secret ({@link DvidKeySecret}).
 *
 * <p>When the file exists it is left alone, whatever it holds (asserting-wl refuses a bad key at
 * its start, with the path in the message). Otherwise an RSA-2048 key (the workload's default DVID
 * key type) is written as PKCS#8 PEM to a file beside it, readable by its owner only and owned by
 * the workload's user, then linked into place (a hard link, which fails where the name exists): a
 * reader never sees half a key, and of two runs racing, the first key stays and both succeed. It never prints the key.
 *
 * <p>Arguments: the key file's path, optionally the owner's numeric user and group id ({@value
 * #DEFAULT_OWNER}, the images' user). Exit status 0 when the file exists afterwards, 1 otherwise.
 */
public final class DvidKeyFile {

    static final String DEFAULT_OWNER = "65532:65532";

    /** What happened. */
    public enum Outcome {
        /** The file was there already. */
        EXISTED,
        /** This run wrote it. */
        CREATED,
        /** Another run wrote it between our look and our link. */
        CREATED_CONCURRENTLY
    }

    private final Path file;

    private final Integer uid;

    private final Integer gid;

    /**
     * @param file where the key goes
     * @param uid the owner to give the file, or null to keep the writer's (a test, or a non-root run)
     * @param gid the group to give the file, or null
     */
    public DvidKeyFile(Path file, Integer uid, Integer gid) {
        this.file = Objects.requireNonNull(file, "file");
        this.uid = uid;
        this.gid = gid;
    }

    public static void main(String[] args) {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: DvidKeyFile <key file> [uid:gid, default " + DEFAULT_OWNER + "]");
            System.exit(1);
        }
        try {
            String[] owner = (args.length == 2 ? args[1] : DEFAULT_OWNER).split(":", 2);
            if (owner.length != 2) {
                throw new IllegalArgumentException("the owner is uid:gid, not " + args[1]);
            }
            Outcome outcome =
                    new DvidKeyFile(Path.of(args[0]), Integer.valueOf(owner[0]), Integer.valueOf(owner[1])).ensure();
            System.out.println("dvid-key-file: " + outcome.name().toLowerCase(Locale.ROOT) + " " + args[0]);
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            System.err.println("dvid-key-file: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            System.exit(1);
        }
    }

    /** Writes the key file unless it exists. */
    public Outcome ensure() throws IOException, GeneralSecurityException {
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Outcome.EXISTED;
        }
        Path dir = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "no such directory for the DVID key file");
        }
        Path temp = Files.createTempFile(
                dir,
                "." + file.getFileName(),
                ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(temp, DvidKeySecret.newKeyPem(), StandardCharsets.US_ASCII);
            Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("r--------"));
            if (uid != null) {
                Files.setAttribute(temp, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
            }
            if (gid != null) {
                Files.setAttribute(temp, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
            }
            try {
                // a hard link fails when the name exists: the first run's key stays
                Files.createLink(file, temp);
                return Outcome.CREATED;
            } catch (FileAlreadyExistsException e) {
                return Outcome.CREATED_CONCURRENTLY;
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
