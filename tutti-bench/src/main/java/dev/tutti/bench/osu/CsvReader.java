package dev.tutti.bench.osu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads benchmark CSVs as {@link CsvWriter} and the Open MPI programs write them ({@code impl,op,ranks,bytes,avg_us},
 * that header first; {@code bench/merge.py}'s merged file too).
 */
final class CsvReader {
    /**
     * One row.
     *
     * @param impl  the implementation, e.g. {@code tutti-shm}, {@code openmpi-vader}
     * @param op    the operation
     * @param ranks the number of ranks
     * @param bytes the message size
     * @param avgUs the mean time per operation (per message, for bandwidth) in microseconds
     */
    record Row(String impl, String op, int ranks, long bytes, double avgUs) {
    }

    private CsvReader() {
    }

    /**
     * Reads the rows of CSV files, file by file.
     *
     * @param files the files
     * @return their rows, in order
     * @throws IllegalArgumentException naming the file and line if a header or row is not of the format
     * @throws UncheckedIOException     if a file cannot be read
     */
    static List<Row> read(final List<Path> files) {
        final List<Row> rows = new ArrayList<>();
        for (final Path f : files) {
            try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                final String header = in.readLine();
                if (null == header) {
                    continue;
                }
                if (!CsvWriter.HEADER.equals(header.strip())) {
                    throw new IllegalArgumentException("csv " + f + ":1: header '" + header + "', expected '"
                        + CsvWriter.HEADER + "'");
                }
                int line = 1;
                for (String s = in.readLine(); null != s; s = in.readLine()) {
                    line++;
                    if (!s.isBlank()) {
                        rows.add(row(f, line, s.strip()));
                    }
                }
            } catch (final IOException e) {
                throw new UncheckedIOException("csv: cannot read file=" + f + ": " + e.getMessage(), e);
            }
        }
        return rows;
    }

    private static Row row(final Path f, final int line, final String s) {
        final String[] c = s.split(",", -1);
        if (5 != c.length) {
            throw new IllegalArgumentException("csv " + f + ":" + line + ": '" + s + "' has " + c.length
                + " columns, expected 5 (" + CsvWriter.HEADER + ")");
        }
        try {
            final Row r = new Row(c[0], c[1], Integer.parseInt(c[2]), Long.parseLong(c[3]), Double.parseDouble(c[4]));
            if (r.impl().isEmpty() || r.op().isEmpty() || r.ranks() < 1 || r.bytes() < 0
                || !Double.isFinite(r.avgUs())) {
                throw new NumberFormatException("out of range");
            }
            return r;
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("csv " + f + ":" + line + ": '" + s + "', expected a non-empty impl "
                + "and op, ranks >= 1, bytes >= 0 and a finite avg_us", e);
        }
    }
}
