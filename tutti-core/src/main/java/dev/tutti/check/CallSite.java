package dev.tutti.check;

import java.security.CodeSource;

/**
 * Where the user called a collective: the first frame of the calling thread's stack whose class is not Tutti's own
 * (not loaded from the code source of Tutti's classes) and not the JDK's, as {@code Solver.java:42}. Captured only when the checker
 * is on: one stack walk per collective call.
 *
 * <p>Implementation note. A class is Tutti's when its code source is the one of this class (the tutti-core jar or
 * classes directory), so that a user's class in a package named {@code dev.tutti...} (the project's own tests) still
 * counts as the user's; the answer is cached per class ({@link ClassValue}).
 */
final class CallSite {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final CodeSource OURS = CallSite.class.getProtectionDomain().getCodeSource();
    private static final ClassValue<Boolean> INTERNAL = new ClassValue<>() {
        @Override
        protected Boolean computeValue(final Class<?> type) {
            final CodeSource cs = type.getProtectionDomain().getCodeSource();
            if (null == cs) {
                return true; // the JDK's own (a stream or a reflective call between the user and Tutti)
            }
            if (null == OURS || null == OURS.getLocation()) {
                return type.getName().startsWith("dev.tutti.");
            }
            return OURS.getLocation().equals(cs.getLocation());
        }
    };

    private CallSite() {
    }

    /** @return the caller's frame as {@code File.java:line}, or {@code unknown} if the stack is Tutti's only */
    static String capture() {
        return WALKER.walk(frames -> frames.filter(f -> !INTERNAL.get(f.getDeclaringClass()))
            .findFirst().map(CallSite::format).orElse("unknown"));
    }

    /**
     * Finds the call site in a stack read from another thread (a blocked wait's, {@link Thread#getStackTrace()}),
     * by the same rule.
     *
     * @param stack the frames, innermost first
     * @return the first frame outside Tutti, as {@code File.java:line}, or {@code unknown}
     */
    static String of(final StackTraceElement[] stack) {
        for (final StackTraceElement e : stack) {
            if (!internal(e.getClassName())) {
                final String where = null != e.getFileName() ? e.getFileName() : e.getClassName();
                return e.getLineNumber() > 0 ? where + ":" + e.getLineNumber() : where;
            }
        }
        return "unknown";
    }

    private static boolean internal(final String className) {
        try {
            return INTERNAL.get(Class.forName(className, false, CallSite.class.getClassLoader()));
        } catch (final ClassNotFoundException | LinkageError e) {
            return className.startsWith("dev.tutti.") || className.startsWith("java.")
                || className.startsWith("jdk.");
        }
    }

    private static String format(final StackWalker.StackFrame f) {
        final String file = f.getFileName();
        final String where = null != file ? file : f.getClassName();
        return f.getLineNumber() > 0 ? where + ":" + f.getLineNumber() : where;
    }
}
