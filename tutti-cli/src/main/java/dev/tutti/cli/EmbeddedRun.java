package dev.tutti.cli;

import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.net.MalformedURLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * {@code tutti run --embedded}: runs a program's {@code main} on N threads of this JVM, each bound to one rank of
 * an in-process job, so that the program's own {@code Tutti.init()} joins it. No processes, no network. A rank's
 * failure is reported as {@code tutti run: rank R failed: X: message}, X being what the rank's {@code main} threw
 * (reflection and future wrappers removed, see {@link #unwrap}).
 */
final class EmbeddedRun {
    private EmbeddedRun() {
    }

    static int run(final int ranks, final String classpath, final String mainClass, final List<String> args,
        final Duration timeout, final PrintStream err) {
        final Method main;
        try {
            main = ProgramCheck.staticMain(classpath, mainClass);
        } catch (final ReflectiveOperationException | MalformedURLException e) {
            err.println("tutti run: cannot load " + mainClass + " from -cp " + classpath + ": " + e);
            return 127;
        }
        final String[] argv = args.toArray(new String[0]);
        try {
            Tutti.runLocal(ranks, Tutti.Options.defaults().timeout(null == timeout ? Duration.ZERO : timeout),
                world -> {
                    try {
                        main.invoke(null, (Object) argv.clone());
                    } catch (final InvocationTargetException e) {
                        throw EmbeddedRun.<Exception>rethrow(unwrap(e));
                    }
                });
            return 0;
        } catch (final TuttiException e) {
            err.println("tutti run: " + e.getMessage().replaceFirst("^runLocal: ", ""));
            return dev.tutti.ErrorClass.TIMEOUT == e.errorClass() ? 124 : 1;
        }
    }

    /**
     * Returns what a wrapper holds: the cause of an {@link InvocationTargetException} (what {@code main} threw), of
     * an {@link UndeclaredThrowableException}, {@link ExecutionException} or {@link CompletionException}, repeatedly,
     * so that the job's failure names the rank's own exception (an {@code AssertionError}, say) and not the wrapper.
     *
     * @param t a throwable
     * @return the innermost wrapped throwable, or t if it is no wrapper (or wraps nothing)
     */
    static Throwable unwrap(final Throwable t) {
        Throwable inner = t;
        while ((inner instanceof InvocationTargetException || inner instanceof UndeclaredThrowableException
            || inner instanceof ExecutionException || inner instanceof CompletionException)
            && null != inner.getCause()) {
            inner = inner.getCause();
        }
        return inner;
    }

    /**
     * Throws any throwable from a rank's body unchanged, checked or not (the body may throw only exceptions; an
     * {@code Error} or another {@code Throwable} of main's must reach the job as it is).
     */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException rethrow(final Throwable t) throws T {
        throw (T) t;
    }
}
