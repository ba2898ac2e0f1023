package dev.tutti.bench.osu;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes benchmark rows as CSV with exactly the columns {@code impl,op,ranks,bytes,avg_us} (the format
 * {@code bench/compare.sh} and the Open MPI programs share). {@code avg_us} is the mean time per operation in
 * microseconds with three decimals, whatever the platform locale.
 */
public final class CsvWriter implements AutoCloseable {
    /** The header line. */
    public static final String HEADER = "impl,op,ranks,bytes,avg_us";

    private final Writer out;
    private final String name;

    /**
     * Writes the header to {@code out}.
     *
     * @param out  where the CSV goes; closed by {@link #close()}
     * @param name the destination's name, for error messages
     * @throws BenchmarkException if writing fails
     */
    public CsvWriter(final Writer out, final String name) {
        this.out = out;
        this.name = name;
        write(HEADER + "\n");
    }

    /**
     * Creates (or truncates) a file, creating its directory if needed, and writes the header.
     *
     * @param file the file
     * @return the writer
     * @throws BenchmarkException if the file cannot be written
     */
    public static CsvWriter create(final Path file) {
        try {
            final Path dir = file.toAbsolutePath().getParent();
            if (null != dir) {
                Files.createDirectories(dir);
            }
            return new CsvWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), file.toString());
        } catch (final IOException e) {
            throw new BenchmarkException("csv: cannot write file=" + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes one row.
     *
     * @param impl  the implementation, e.g. {@code tutti-inproc}
     * @param op    the operation, e.g. {@code pingpong}
     * @param ranks the number of ranks
     * @param bytes the message size
     * @param avgUs the mean time per operation in microseconds
     * @throws IllegalArgumentException if {@code impl} or {@code op} hold a comma, quote or line break, or
     *                                  {@code avgUs} is not finite
     * @throws BenchmarkException       if writing fails
     */
    public void row(final String impl, final String op, final int ranks, final long bytes, final double avgUs) {
        checkField("impl", impl);
        checkField("op", op);
        if (!Double.isFinite(avgUs)) {
            throw new IllegalArgumentException("csv row: avg_us=" + avgUs + ", expected a finite number");
        }
        write(String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f%n", impl, op, ranks, bytes, avgUs).replace("\r", ""));
    }

    private static void checkField(final String column, final String value) {
        if (null == value || value.isEmpty() || value.chars().anyMatch(c -> ',' == c || '"' == c || '\n' == c
            || '\r' == c)) {
            throw new IllegalArgumentException("csv row: " + column + "='" + value
                + "', expected a non-empty value without comma, quote or line break");
        }
    }

    private void write(final String s) {
        try {
            out.write(s);
        } catch (final IOException e) {
            throw new BenchmarkException("csv: cannot write " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Flushes what was written so far.
     *
     * @throws BenchmarkException if flushing fails
     */
    public void flush() {
        try {
            out.flush();
        } catch (final IOException e) {
            throw new BenchmarkException("csv: cannot flush " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Flushes and closes the destination.
     *
     * @throws BenchmarkException if closing fails
     */
    @Override
    public void close() {
        try {
            out.close();
        } catch (final IOException e) {
            throw new BenchmarkException("csv: cannot close " + name + ": " + e.getMessage(), e);
        }
    }
}
