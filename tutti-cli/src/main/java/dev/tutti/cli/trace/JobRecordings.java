package dev.tutti.cli.trace;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What {@code tutti run --jfr}, {@code --profile} and {@code --trace} ask of a job: the directory its ranks record
 * into (the setting {@code tutti.jfr}), and what is made of the recordings when the job has ended.
 *
 * @param dir       the ranks' directory, absolute
 * @param temporary whether the directory is this command's own, deleted after the report
 * @param profile   null for no profile, {@link #TO_OUTPUT} for the table on the output, else a {@code .csv} or
 *                  {@code .json} file
 * @param trace     the trace file, or null
 */
public record JobRecordings(Path dir, boolean temporary, String profile, Path trace) {
    /** The directory of {@code --jfr} without one, in the working directory. */
    public static final String DEFAULT_DIR = "tutti-jfr";
    /** The value of {@code --profile} without a file: the table goes to the output. */
    public static final String TO_OUTPUT = "-";

    /**
     * @param jfr     {@code --jfr}'s directory, or null
     * @param profile {@code --profile}'s value, or null
     * @param trace   {@code --trace}'s file, or null
     * @return what to record, or null if nothing is asked
     * @throws IllegalArgumentException for a profile file that is neither CSV nor JSON, or a directory that
     *                                  cannot be made
     */
    public static JobRecordings of(final String jfr, final String profile, final Path trace) {
        if (null == jfr && null == profile && null == trace) {
            return null;
        }
        if (null != profile && !TO_OUTPUT.equals(profile)) {
            final String p = profile.toLowerCase(Locale.ROOT);
            if (!p.endsWith(".csv") && !p.endsWith(".json")) {
                throw new IllegalArgumentException("--profile=" + profile + ", expected a file ending in .csv or "
                    + ".json, or --profile alone for a table");
            }
        }
        try {
            if (null != jfr) {
                final Path d = Path.of(jfr).toAbsolutePath();
                Files.createDirectories(d);
                for (final Path old : oldRecordings(d)) {
                    Files.delete(old); // a recording of an earlier job must not pass for this one's
                }
                return new JobRecordings(d, false, profile, trace);
            }
            return new JobRecordings(Files.createTempDirectory("tutti-jfr"), true, profile, trace);
        } catch (final IOException e) {
            throw new IllegalArgumentException("--jfr=" + jfr + ": cannot make the directory (" + e.getMessage()
                + ")", e);
        }
    }

    private static List<Path> oldRecordings(final Path d) throws IOException {
        try (Stream<Path> files = Files.list(d)) {
            return files.filter(f -> f.getFileName().toString().matches("rank-\\d+\\.jfr")).toList();
        }
    }

    /**
     * After the job: reads the ranks' recordings, writes the trace and the profile asked for, and deletes a
     * temporary directory. Problems are reported on {@code err}; the job's status stands.
     *
     * @param size the number of ranks
     * @param out  where the profile's table goes
     * @param err  where problems and the files written are reported
     */
    public void report(final int size, final PrintStream out, final PrintStream err) {
        try {
            if (null == profile && null == trace) {
                err.println("tutti run: Flight Recorder recordings in " + dir + " (rank-0.jfr ... rank-"
                    + (size - 1) + ".jfr)");
                return;
            }
            final Recordings rec = Recordings.read(dir, size);
            if (!rec.missing().isEmpty()) {
                err.println("tutti run: no recording of rank(s) " + rec.missing() + " in " + dir
                    + " (a rank that ended before it joined the job, or a directory other hosts do not share)");
            }
            if (null != trace) {
                ChromeTrace.write(rec, trace);
                err.println("tutti run: trace of " + size + " ranks written to " + trace);
            }
            if (null != profile) {
                final Profile p = Profile.of(rec);
                if (TO_OUTPUT.equals(profile)) {
                    out.print(p.table());
                    out.flush();
                } else {
                    final Path f = Path.of(profile);
                    final String text = profile.toLowerCase(Locale.ROOT).endsWith(".csv") ? p.csv() : p.json();
                    Files.writeString(f, text, StandardCharsets.UTF_8);
                    err.println("tutti run: profile written to " + f);
                }
            }
        } catch (final IOException | RuntimeException e) {
            err.println("tutti run: cannot read the recordings in " + dir + ": " + e);
        } finally {
            if (temporary) {
                deleteTemporary();
            }
            err.flush();
        }
    }

    private void deleteTemporary() {
        try (Stream<Path> files = Files.list(dir)) {
            for (final Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (final IOException e) {
            // a temporary directory left behind is harmless; the report has been made
        }
    }
}
