package dev.tutti.check;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The checker's findings as JSON for tools and CI (setting {@code tutti.check.report}, {@code tutti run
 * --check-report FILE}): every rank appends one object per finding, one per line, to the same file:
 * {@code {"kind":"deadlock","rank":0,"message":"..."}}. Kinds: {@code collective-mismatch}, {@code type-signature},
 * {@code deadlock} (written once, by the rank that found it), {@code leak}.
 *
 * <p>Implementation note. Each line is one write under an exclusive file lock, so the lines of ranks in other
 * processes do not interleave; ranks of one JVM serialize on this class as well (a JVM may hold a file's lock once).
 * A file that cannot be written loses the finding, never the job: the exception carries it anyway.
 */
final class JsonReport {
    private static final dev.tutti.runtime.Log LOG = dev.tutti.runtime.Log.of(JsonReport.class);

    private final Path file;
    private final int rank;

    JsonReport(final Path file, final int rank) {
        this.file = file;
        this.rank = rank;
    }

    /**
     * Appends a finding.
     *
     * @param kind    its kind
     * @param message its report
     */
    void add(final String kind, final String message) {
        final String line = "{\"kind\":\"" + kind + "\",\"rank\":" + rank + ",\"message\":\"" + escape(message)
            + "\"}\n";
        synchronized (JsonReport.class) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
                final FileLock lock = ch.lock();
                try {
                    final ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                } finally {
                    lock.release();
                }
            } catch (final IOException e) {
                LOG.log(System.Logger.Level.WARNING, "check: cannot write the report {0}: {1}", file, e);
            }
        }
    }

    /** @return {@code s} as the inside of a JSON string */
    static String escape(final String s) {
        final StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
