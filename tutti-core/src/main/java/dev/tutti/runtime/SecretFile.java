package dev.tutti.runtime;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.internal.Settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-user secret of jobs started by another launcher, in the manner of Erlang's cookie: a file (default
 * {@code ~/.tutti/secret}, setting {@link Settings#SECRET_FILE}) of 64 hex digits, readable by its owner only,
 * created on first use. A job's secret is {@code HMAC-SHA256(file secret, "tutti-job-secret" || 0 || job id)} in
 * hex, so every rank of a job (every host, through a shared home or a copied file) derives the same secret, each
 * job a different one, and a process of another user (or one without the file) cannot join.
 *
 * <p>Implementation note: ranks of one host start together and may all find the file missing. Each writes a
 * fresh secret to a private temporary file (mode 0600 from creation) and hard-links it to the final name, which
 * succeeds for exactly one of them; the others read the winner's file. A reader never sees a partly written file.
 */
public final class SecretFile {
    private static final String OP = "init";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    private static final int SECRET_BYTES = 32;

    private SecretFile() {
    }

    /** @return the secret file in force: {@link Settings#SECRET_FILE}, else {@code ~/.tutti/secret} */
    public static Path path() {
        final String set = Settings.SECRET_FILE.text();
        return set.isEmpty() ? Path.of(System.getProperty("user.home"), ".tutti", "secret") : Path.of(set);
    }

    /**
     * Derives a job's secret from the secret file, creating the file if it does not exist.
     *
     * @param file  the secret file
     * @param jobId the job id
     * @return the job secret, 64 hex digits
     * @throws TuttiException of class {@link ErrorClass#ARG} if the file may be read by group or others, or does
     *                        not hold a secret; {@link ErrorClass#INTERN} if it cannot be read or created
     */
    public static String jobSecret(final Path file, final String jobId) {
        final byte[] key = readOrCreate(file);
        try {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update("tutti-job-secret".getBytes(StandardCharsets.US_ASCII));
            mac.update((byte) 0);
            return HexFormat.of().formatHex(mac.doFinal(jobId.getBytes(StandardCharsets.UTF_8)));
        } catch (final GeneralSecurityException e) {
            throw Failures.missingFromJvm("HMAC-SHA256", e);
        }
    }

    /** @return the file's secret bytes, after creating the file if missing */
    static byte[] readOrCreate(final Path file) {
        if (!Files.exists(file)) {
            create(file);
        }
        try {
            final Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (!OWNER_ONLY.containsAll(perms)) {
                throw Errors.expected(ErrorClass.ARG, OP, "secret file", file + " has mode "
                    + PosixFilePermissions.toString(perms), "rw------- (chmod 600 " + file + ")");
            }
            final String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
            if (text.length() < 32) {
                throw Errors.expected(ErrorClass.ARG, OP, "secret file", file + " holds " + text.length()
                    + " characters", "at least 32 (delete it and a new one is made)");
            }
            return text.getBytes(StandardCharsets.US_ASCII);
        } catch (final IOException e) {
            throw Failures.io(OP, "secret file", "cannot read " + file, e);
        }
    }

    private static void create(final Path file) {
        final byte[] secret = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        Path tmp = null;
        try {
            final Path dir = file.toAbsolutePath().getParent();
            if (!Files.isDirectory(dir)) {
                try {
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
                } catch (final FileAlreadyExistsException e) {
                    // made by another rank meanwhile
                }
            }
            tmp = Files.createTempFile(dir, ".secret-", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            Files.writeString(tmp, HexFormat.of().formatHex(secret) + "\n", StandardCharsets.US_ASCII);
            try {
                Files.createLink(file, tmp);
            } catch (final FileAlreadyExistsException e) {
                // another rank of this host made it first: use theirs
            }
        } catch (final IOException | UnsupportedOperationException e) {
            throw Failures.io(OP, "secret file", "cannot create " + file + " (or set "
                + Settings.JOB_SECRET.envName() + ")", e instanceof IOException io ? io : new IOException(e));
        } finally {
            if (null != tmp) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (final IOException e) {
                    // a stray temporary file, harmless
                }
            }
        }
    }
}
