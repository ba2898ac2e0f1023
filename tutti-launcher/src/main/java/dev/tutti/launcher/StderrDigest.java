package dev.tutti.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a rank's standard error says about why it failed, read line by line as the rank prints it: the exception it
 * reported, else the java launcher's {@code Error:} line, else its last line that is not a log record.
 *
 * <p>The exception is the first uncaught-exception report ({@code Exception in thread "main" X: msg}, which the JVM
 * prints when a thread dies of an exception; on {@code main} it ends the program with exit 1), else the last stack
 * trace the rank printed itself (a line {@code X: msg} followed by {@code at ...} frames, as
 * {@code printStackTrace()} or a logged exception print it, typically just before {@code System.exit(1)}). The
 * report is the trace's top exception, as the JVM's own first line names it, followed by its root cause (the last
 * {@code Caused by:} of the chain) when the top line does not already contain it:
 * {@code java.lang.IllegalStateException: step 5 failed (caused by java.lang.AssertionError: expected 4)}. Every
 * exception of the chain is kept ({@link #exceptionChain()}), so that a peer failure wrapped in an exception of the
 * program still counts as a consequence of that peer's failure ({@link Job#blamedRank}).
 *
 * <p>Log records are never reported: a line that starts with a level ({@code INFO: }, {@code WARNING: },
 * {@code [WARN] }, {@code DEBUG }, ...) is skipped, and when it is the second line of a java.util.logging or
 * {@code System.Logger} record it also retracts the line before it, the record's header (date, time, class and
 * method), recognised by its time of day; a line that starts with a time stamp and names a level (the one-line
 * formats of common logging libraries) is skipped. These are heuristics on free text; an exception report always
 * takes precedence over them.
 *
 * <p>Implementation notes. The rank's stderr pump is the only writer ({@link #onLine}); the job's thread reads. The
 * methods are {@code synchronized}: uncontended except at the moment a failing rank's report is read, and cheap next
 * to the pipe read of each line. Lines are cut to {@link #MAX_REPORTED_LINE_CHARS}.
 */
final class StderrDigest {
    /** Longest line quoted in a report. */
    static final int MAX_REPORTED_LINE_CHARS = 500;

    private static final String UNCAUGHT = "Exception in thread \"";
    private static final String CAUSED_BY = "Caused by: ";
    private static final String LEVELS = "SEVERE|WARNING|WARN|INFO|CONFIG|FINE|FINER|FINEST|ERROR|DEBUG|TRACE";
    /** The start of a log record's line: a level, alone or in brackets, then a colon or a blank. */
    private static final Pattern LEVEL_FIRST = Pattern.compile("^\\[?(?:" + LEVELS + ")\\]?(?::|\\s|$)");
    /** A one-line log record: a date or time first, a level later, e.g. {@code 12:00:01.5 [main] INFO x - msg}. */
    private static final Pattern STAMP_FIRST = Pattern.compile(
        "^\\[?\\d{1,4}[-/:.]\\d{1,2}[^\\s]*(?:\\s+\\d{1,2}:\\d{2}[^\\s]*)?\\]?\\s.*?\\b(?:" + LEVELS + ")\\b");
    /** A line that can head a stack trace: a class name, then optionally {@code : message}. */
    private static final Pattern TRACE_HEADER = Pattern.compile("^[\\p{L}_$][\\p{L}\\p{N}_$.]*(?::\\s.*)?$");
    /** A frame of a stack trace, e.g. {@code \tat java.base/java.lang.Thread.run(Thread.java:1583)}. */
    private static final Pattern FRAME = Pattern.compile("^\\s+at\\s+\\S+\\(.*\\)$");
    /** A time of day, as the header line of a two-line log record holds it. */
    private static final Pattern TIME_OF_DAY = Pattern.compile("\\b\\d{1,2}:\\d{2}\\b");

    /** A stack trace: its top exception, the causes in order, when it was seen. */
    private static final class Trace {
        final String top;
        final List<String> causes = new ArrayList<>();
        final long nanos;

        Trace(final String top, final long nanos) {
            this.top = top;
            this.nanos = nanos;
        }
    }

    private Trace uncaught;
    private Trace printed;
    /** The trace whose frames and causes are being read, or null. */
    private Trace current;
    /** The previous line if it could head a stack trace (and when it was read), else null. */
    private String candidate;
    private long candidateNanos;
    private String errorLine;
    private String lastLine;
    private String lineBeforeLast;
    /** Whether {@link #lastLine} is the line read just before the current one and may head a log record. */
    private boolean lastLineMayBeHeader;

    /**
     * Reads the next line of the rank's stderr.
     *
     * @param text the line, without its line terminator
     */
    synchronized void onLine(final String text) {
        final String line = text.stripTrailing();
        final boolean previousMayBeHeader = lastLineMayBeHeader;
        lastLineMayBeHeader = false;
        if (line.isBlank()) {
            candidate = null;
            return;
        }
        if (null != current && continuesTrace(line)) {
            if (line.startsWith(CAUSED_BY)) {
                current.causes.add(cut(line.substring(CAUSED_BY.length())));
            }
            return;
        }
        current = null;
        if (line.startsWith(UNCAUGHT)) {
            final int endOfName = line.indexOf("\" ", UNCAUGHT.length());
            final Trace t = new Trace(cut(endOfName > 0 ? line.substring(endOfName + 2) : line), System.nanoTime());
            if (null == uncaught) {
                uncaught = t;
            }
            current = t;
            candidate = null;
            return;
        }
        if (null != candidate && FRAME.matcher(line).lookingAt()) {
            final Trace t = new Trace(candidate, candidateNanos);
            printed = t;
            current = t;
            candidate = null;
            lastLine = lineBeforeLast; // the candidate, the line before, heads this trace
            return;
        }
        candidate = null;
        if (LEVEL_FIRST.matcher(line).lookingAt()) {
            if (previousMayBeHeader) {
                lastLine = lineBeforeLast; // the line before was this record's header
            }
            return;
        }
        if (STAMP_FIRST.matcher(line).lookingAt()) {
            return;
        }
        final String shortLine = cut(line);
        if (null == errorLine && line.startsWith("Error:")) {
            errorLine = shortLine;
        }
        lineBeforeLast = lastLine;
        lastLine = shortLine;
        lastLineMayBeHeader = TIME_OF_DAY.matcher(line).find();
        if (TRACE_HEADER.matcher(line).matches()) {
            candidate = shortLine;
            candidateNanos = System.nanoTime();
        }
    }

    /**
     * The exception the rank reported (see the class comment), else its {@code Error:} line, else null.
     *
     * @return e.g. {@code java.lang.IllegalStateException: boom}, or null
     */
    synchronized String failureLine() {
        final Trace t = reported();
        if (null == t) {
            return errorLine;
        }
        if (t.causes.isEmpty()) {
            return t.top;
        }
        final String root = t.causes.getLast();
        return t.top.contains(root) ? t.top : t.top + " (caused by " + root + ")";
    }

    /** @return the reported exception and its causes, top first; empty if none was reported */
    synchronized List<String> exceptionChain() {
        final Trace t = reported();
        if (null == t) {
            return List.of();
        }
        final List<String> chain = new ArrayList<>(1 + t.causes.size());
        chain.add(t.top);
        chain.addAll(t.causes);
        return chain;
    }

    /** @return when the reported exception was read ({@link System#nanoTime}), or {@code Long.MAX_VALUE} if none */
    synchronized long exceptionNanos() {
        final Trace t = reported();
        return null == t ? Long.MAX_VALUE : t.nanos;
    }

    /** @return the last non-blank line that is not part of a log record, or null */
    synchronized String lastLine() {
        return lastLine;
    }

    private Trace reported() {
        return null != uncaught ? uncaught : printed;
    }

    /** Frames, {@code ... n more}, {@code Suppressed:} blocks (all indented) and {@code Caused by:} lines. */
    private static boolean continuesTrace(final String line) {
        return line.startsWith(CAUSED_BY) || Character.isWhitespace(line.charAt(0));
    }

    private static String cut(final String line) {
        return line.length() > MAX_REPORTED_LINE_CHARS ? line.substring(0, MAX_REPORTED_LINE_CHARS) + "..." : line;
    }
}
