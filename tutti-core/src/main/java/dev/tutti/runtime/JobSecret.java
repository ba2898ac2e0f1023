package dev.tutti.runtime;

import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-job secret and the challenge-response built on it: a party proves it knows the secret by answering a
 * fresh random nonce with {@code HMAC-SHA256(secret, label || 0 || nonce || a || b || extra)}. The secret itself
 * never travels.
 *
 * <p>The label separates the uses (rendezvous client, rendezvous server, tcp connector, tcp acceptor), so that an
 * answer obtained in one role can never be replayed in another; {@code a} and {@code b} are ranks (or a rank and
 * the job size), little-endian; {@code extra} binds data that must not be altered (a published endpoint, the
 * endpoint table). This authenticates peers; it does not encrypt or integrity-protect the traffic that follows.
 *
 * <p>Immutable and thread-safe; {@link #toString()} never shows the secret.
 */
public final class JobSecret {
    /** Length of a challenge nonce in bytes. */
    public static final int NONCE_BYTES = 32;
    /** Length of a challenge answer (HMAC-SHA256) in bytes. */
    public static final int MAC_BYTES = 32;

    private static final String ALGORITHM = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    private JobSecret(final byte[] keyBytes) {
        this.key = new SecretKeySpec(keyBytes, ALGORITHM);
    }

    /**
     * Creates the key from the launcher's secret: hex digits are decoded, anything else is used as UTF-8 bytes.
     *
     * @param secret the secret, usually hex
     * @return the key
     * @throws IllegalArgumentException if the secret is null or empty
     */
    public static JobSecret of(final String secret) {
        if (null == secret || secret.isEmpty()) {
            throw Errors.refused("job secret is " + (null == secret ? "null" : "empty"), "a non-empty (hex) string");
        }
        final byte[] hex = decodeHex(secret);
        return new JobSecret(null != hex ? hex : secret.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Returns a fresh random challenge.
     *
     * @return {@link #NONCE_BYTES} random bytes
     */
    public static byte[] newNonce() {
        final byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * Computes the answer to a challenge.
     *
     * @param label what the answer is for (a fixed protocol constant)
     * @param nonce the challenge
     * @param a     first bound integer (a rank)
     * @param b     second bound integer (a rank or the job size)
     * @param extra further bound bytes, may be empty
     * @return the {@link #MAC_BYTES}-byte answer
     */
    public byte[] mac(final String label, final byte[] nonce, final int a, final int b, final byte[] extra) {
        final Mac mac;
        try {
            mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
        } catch (final GeneralSecurityException e) {
            throw Failures.missingFromJvm("HMAC-SHA256", e);
        }
        mac.update(label.getBytes(StandardCharsets.US_ASCII));
        mac.update((byte) 0);
        mac.update(nonce);
        mac.update(le(a));
        mac.update(le(b));
        mac.update(extra);
        return mac.doFinal();
    }

    /**
     * Checks an answer in constant time.
     *
     * @param expected the answer computed locally
     * @param actual   the answer received
     * @return true if they are equal
     */
    public static boolean matches(final byte[] expected, final byte[] actual) {
        return MessageDigest.isEqual(expected, actual);
    }

    private static byte[] le(final int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
    }

    private static byte[] decodeHex(final String s) {
        if (0 != (s.length() & 1)) {
            return null;
        }
        final byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            final int hi = Character.digit(s.charAt(2 * i), 16);
            final int lo = Character.digit(s.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                return null;
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    @Override
    public String toString() {
        return "JobSecret[redacted]";
    }
}
