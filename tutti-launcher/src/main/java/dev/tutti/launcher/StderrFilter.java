package dev.tutti.launcher;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Shortens the uncaught-exception reports on one rank's stderr that only repeat what the job's summary line and the
 * failing rank already say, so that a job in which one rank fails prints that rank's output and one line from each
 * of the others, not a stack trace from every rank:
 *
 * <ul>
 *   <li>a report whose exception only says that another rank failed or left ({@link FailureBlame#blamedRank}, e.g.
 *       {@code Exception in thread "main" dev.tutti.TuttiException: allreduce (comm=WORLD, rank=3): cannot
 *       complete ...: rank 2 closed (left the job) ...}) keeps its first line and loses its frames and causes;</li>
 *   <li>a report whose exception text another rank of the job already reported word for word (every rank detects
 *       the same collective mismatch under the checker) is left out whole;</li>
 *   <li>a collective mismatch found without the checker ({@code ... the ranks called different collectives or
 *       roots}), which each rank of it words from where it stands, is reported whole once and keeps its first line
 *       on every other rank.</li>
 * </ul>
 *
 * <p>Every other line is forwarded unchanged and in order. The launcher's verbose mode forwards everything (no
 * filter); the {@link StderrDigest} sees every line either way, so blame and the summary do not depend on this.
 *
 * <p>A report is the JVM's {@code Exception in thread "NAME" X: message} line, the message's further lines, then
 * frames ({@code \tat ...}), {@code ... n more}, {@code Suppressed:} blocks and {@code Caused by:} lines (whose
 * messages may span lines too). While a report is skipped, the unindented lines right after an exception's first
 * line are held: an indented line or a {@code Caused by:} after them shows that they were the message's, and they
 * are dropped; another report, more than {@link #MAX_HELD_LINES} of them or the end of the stream shows that the
 * report had ended, and they are forwarded. Any other unindented line ends the report and is forwarded.
 *
 * <p>Implementation notes. One instance per rank, owned by its stderr pump thread, so its own state needs no lock.
 * The set of reported exception texts is shared by the job's ranks and must be thread-safe.
 */
final class StderrFilter {
    /** Longest run of unindented lines held while skipping a report before they are taken as ordinary output. */
    static final int MAX_HELD_LINES = 64;

    private static final String UNCAUGHT = "Exception in thread \"";
    private static final String CAUSED_BY = "Caused by: ";
    private static final String SUPPRESSED = "Suppressed: ";
    /**
     * The end of the failure of a rank that found a collective mismatch without the checker (the core's wording):
     * each rank of the mismatch words it from where it stands, so the first is reported whole and the others in one
     * line each.
     */
    private static final String DIFFERENT_CALLS = "the ranks called different collectives or roots";

    /** Writes one forwarded line (without its newline) to the launcher's stream. */
    @FunctionalInterface
    interface Out {
        /**
         * Writes a line.
         *
         * @param line   the bytes
         * @param length how many of them
         */
        void write(byte[] line, int length);
    }

    private final int rank;
    private final Set<String> reported;
    private final Charset charset;
    /** Whether the lines of an uncaught-exception report are being skipped. */
    private boolean skipping;
    /** Whether the last line skipped heads an exception (report or cause), whose message may go on unindented. */
    private boolean inMessage;
    private final List<byte[]> held = new ArrayList<>();

    /**
     * Creates the filter of one rank.
     *
     * @param rank     the rank whose stderr this is
     * @param reported the exception texts reported so far by any rank of the job (thread-safe; updated)
     * @param charset  how the rank's bytes decode
     */
    StderrFilter(final int rank, final Set<String> reported, final Charset charset) {
        this.rank = rank;
        this.reported = reported;
        this.charset = charset;
    }

    /**
     * Takes the next line of the rank's stderr and writes what is forwarded of it, and of lines held before it.
     *
     * @param line   the bytes; valid only during the call
     * @param length how many of them
     * @param out    where forwarded lines go
     */
    void onLine(final byte[] line, final int length, final Out out) {
        final String text = new String(line, 0, length, charset).stripTrailing();
        if (skipping) {
            if (continuesTrace(text)) {
                held.clear(); // lines held since the last header were its message's: part of the report
                inMessage = text.startsWith(CAUSED_BY) || text.strip().startsWith(SUPPRESSED);
                return;
            }
            if (inMessage && !text.startsWith(UNCAUGHT)) {
                held.add(Arrays.copyOf(line, length));
                if (held.size() > MAX_HELD_LINES) {
                    release(out);
                }
                return;
            }
            release(out);
        }
        if (text.startsWith(UNCAUGHT)) {
            final int endOfName = text.indexOf("\" ", UNCAUGHT.length());
            final String exception = endOfName > 0 ? text.substring(endOfName + 2) : text;
            final int blamed = FailureBlame.blamedRank(exception);
            if (blamed >= 0 && blamed != rank || exception.contains(DIFFERENT_CALLS) && !reported.add(
                DIFFERENT_CALLS)) {
                out.write(line, length);
                skipping = true;
            } else if (!reported.add(exception)) {
                skipping = true;
            }
            inMessage = skipping;
            if (skipping) {
                return;
            }
        }
        out.write(line, length);
    }

    /**
     * The rank's stderr ended: writes the lines still held.
     *
     * @param out where they go
     */
    void onEnd(final Out out) {
        release(out);
    }

    private void release(final Out out) {
        for (final byte[] h : held) {
            out.write(h, h.length);
        }
        held.clear();
        skipping = false;
    }

    /** Frames, {@code ... n more} and {@code Suppressed:} lines (all indented) and {@code Caused by:} lines. */
    private static boolean continuesTrace(final String text) {
        return text.startsWith(CAUSED_BY) || !text.isEmpty() && Character.isWhitespace(text.charAt(0));
    }
}
