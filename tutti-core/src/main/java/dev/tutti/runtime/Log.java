package dev.tutti.runtime;

import dev.tutti.internal.Settings;

import java.lang.System.Logger.Level;
import java.text.MessageFormat;

/**
 * Tutti's own log records, in one place: each is one line that names the rank it comes from, and is passed on to
 * {@link System.Logger} (so the application's logging configuration decides where it goes) only if it is at least
 * as severe as the setting {@code tutti.log.level} (default {@code warning}: informational records are not shown;
 * {@code tutti run -v} sets {@code debug} on every rank).
 *
 * <p>Loggers. Every logger of Tutti is made here ({@link #of}), named by the class that logs, so the loggers form
 * the package tree and a logging configuration can select a layer by its package: {@code dev.tutti} (all of Tutti),
 * {@code dev.tutti.job} (joining and leaving a job), {@code dev.tutti.transport.shm}, {@code dev.tutti.transport.tcp},
 * {@code dev.tutti.runtime} (rendezvous, CPU binding), {@code dev.tutti.p2p}, {@code dev.tutti.comm},
 * {@code dev.tutti.check}, {@code dev.tutti.launcher} (the launcher of {@code tutti run}). The user guide's
 * configuration page lists them.
 *
 * <p>Backend. {@link System.Logger}'s default backend, {@code java.util.logging}, passes records of level
 * {@code INFO} and above only. When a rank joins a job with {@code tutti.log.level} at {@code debug} or
 * {@code trace}, and the program configured no logging of its own, the logger {@code dev.tutti} of that backend is
 * given its own handler (standard error, the one-line format) that passes every level, so that the records asked
 * for are shown; the program's other loggers are left as they are.
 *
 * <p>Implementation note. The rank is per thread ({@link #rank(int)}, inherited by the threads a rank starts), since
 * one JVM may run several ranks (embedded jobs); records from a thread of no rank say {@code tutti}. The level is
 * read at each record: records are rare (failures, shutdown, stale files), never per message.
 */
public final class Log {
    private static final InheritableThreadLocal<String> RANK = new InheritableThreadLocal<>();

    private final System.Logger logger;

    private Log(final Class<?> origin) {
        this.logger = System.getLogger(origin.getName());
    }

    /**
     * @param origin the class that logs
     * @return its log
     */
    public static Log of(final Class<?> origin) {
        return new Log(origin);
    }

    /** The JDK's property for the format of {@code java.util.logging}'s default formatter. */
    static final String JUL_FORMAT_PROPERTY = "java.util.logging.SimpleFormatter.format";
    /** One line per record: level, message (which names the rank), the exception if any. */
    static final String ONE_LINE = "%4$s: %5$s%6$s%n";

    /**
     * In a process that is a rank of a job, gives {@code java.util.logging}'s default formatter (the default backend
     * of {@link System.Logger}) a one-line format, unless the program set a format or a logging configuration
     * itself; its default spends a second line on the date and the class. Has effect only before the first record
     * of the process, which is when a rank joins its job.
     */
    public static void oneLinePerRecord() {
        if (null == System.getProperty(JUL_FORMAT_PROPERTY) && programLeftLoggingAlone()) {
            System.setProperty(JUL_FORMAT_PROPERTY, ONE_LINE);
        }
        if (passes(Level.DEBUG) && programLeftLoggingAlone()
            && ModuleLayer.boot().findModule("java.logging").isPresent()) {
            JulBackend.passEveryLevel(ROOT);
        }
    }

    /** The root of Tutti's loggers: every logger of {@link #of} is below it. */
    public static final String ROOT = "dev.tutti";

    /** @return whether the program set no {@code java.util.logging} configuration of its own */
    private static boolean programLeftLoggingAlone() {
        return null == System.getProperty("java.util.logging.config.file")
            && null == System.getProperty("java.util.logging.config.class");
    }

    /**
     * Names the calling thread, and the threads it starts from now on, as a rank's.
     *
     * @param rank the world rank
     */
    public static void rank(final int rank) {
        RANK.set("tutti rank " + rank);
    }

    /**
     * Logs a record if the level passes the setting.
     *
     * @param level  the severity
     * @param format the message, in {@link MessageFormat}'s syntax
     * @param args   its arguments
     */
    public void log(final Level level, final String format, final Object... args) {
        if (!passes(level)) {
            return;
        }
        logger.log(level, line(RANK.get(), format, args));
    }

    /** @return the record's one line: who, then the formatted message with its line breaks made spaces */
    static String line(final String who, final String format, final Object... args) {
        final String text = 0 == args.length ? format : MessageFormat.format(format, args);
        return (null == who ? "tutti" : who) + ": " + text.replace('\n', ' ');
    }

    /** @return the calling thread's rank name, or null */
    static String who() {
        return RANK.get();
    }

    /**
     * Logs a record whose text is built only if the level passes the setting.
     *
     * @param level the severity
     * @param text  the message
     */
    public void log(final Level level, final java.util.function.Supplier<String> text) {
        if (passes(level)) {
            log(level, "{0}", text.get());
        }
    }

    /** @return whether records of {@code level} are passed on now */
    public static boolean passes(final Level level) {
        final String threshold = Settings.LOG_LEVEL.choice();
        return !"off".equals(threshold) && level.getSeverity() >= severity(threshold);
    }

    /**
     * The {@code java.util.logging} side, in a class of its own so that it is loaded only where that module is
     * present. Holds the logger it configured: that backend keeps its loggers only weakly, and a logger collected
     * would lose its handler and level.
     */
    private static final class JulBackend {
        private static java.util.logging.Logger configured;

        /** Gives the logger {@code name} a handler to standard error that passes every level; once per JVM. */
        static synchronized void passEveryLevel(final String name) {
            if (null != configured) {
                return;
            }
            final java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
            final java.util.logging.ConsoleHandler handler = new java.util.logging.ConsoleHandler();
            handler.setLevel(java.util.logging.Level.ALL);
            logger.setLevel(java.util.logging.Level.ALL);
            logger.addHandler(handler);
            logger.setUseParentHandlers(false);
            configured = logger;
        }
    }

    private static int severity(final String name) {
        return switch (name) {
            case "error" -> Level.ERROR.getSeverity();
            case "info" -> Level.INFO.getSeverity();
            case "debug" -> Level.DEBUG.getSeverity();
            case "trace" -> Level.TRACE.getSeverity();
            default -> Level.WARNING.getSeverity();
        };
    }
}
