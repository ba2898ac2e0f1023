package dev.tutti.cli;

import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.UndeclaredThrowableException;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * {@code tutti run --embedded} (and {@code tutti mpjrun -dev multicore}): runs a program's {@code main} on N threads
 * of this JVM, each bound to one rank of an in-process job, so that the program's own {@code Tutti.init()} joins it.
 * No processes, no network. A rank's failure is reported as {@code PREFIX: rank R failed: X: message}, X being what
 * the rank's {@code main} threw (reflection and future wrappers removed, see {@link #unwrap}).
 *
 * <p>Implementation note: each rank loads the program from the class path through a class loader of its own, as
 * if it were a process: the program's static fields (an MPJ program's {@code static int rank}, the {@code MPI} class
 * of tutti-mpj or tutti-mpi on the class path) exist once per rank. The loaders' common parent, {@link SharedTutti},
 * shows the JDK and Tutti's own classes ({@code dev.tutti.*}, from the loader of this class), so that every rank
 * uses the one in-process job; nothing else of this JVM's class path (picocli, the benchmarks' relocated mpi
 * layers) is visible to the program. Each rank thread's context class loader is its rank's loader, so that
 * deserialisation finds the program's classes.
 */
final class EmbeddedRun {
    private EmbeddedRun() {
    }

    /**
     * Runs the job.
     *
     * @param prefix    what starts each line this prints ({@code tutti run}, {@code tutti mpjrun})
     * @param ranks     the number of ranks
     * @param classpath the program's class path
     * @param mainClass its main class, with a static {@code main(String[])}
     * @param args      its arguments
     * @param timeout   the job's time limit, or null for none
     * @param err       where the failure line goes
     * @return the exit status: 0, 1 if a rank failed, 124 on timeout, 127 if the main class cannot be loaded
     */
    static int run(final String prefix, final int ranks, final String classpath, final String mainClass,
        final List<String> args, final Duration timeout, final PrintStream err) {
        final ClassLoader shared = new SharedTutti(EmbeddedRun.class.getClassLoader());
        try (URLClassLoader probe = ProgramCheck.loader(classpath, shared)) {
            staticMain(probe, mainClass);
        } catch (final ReflectiveOperationException | LinkageError | IOException e) {
            err.println(prefix + ": cannot load " + mainClass + " from -cp " + classpath + ": " + e);
            return 127;
        }
        final String[] argv = args.toArray(new String[0]);
        try {
            Tutti.runLocal(ranks, Tutti.Options.defaults().timeout(null == timeout ? Duration.ZERO : timeout),
                world -> runRank(ProgramCheck.loader(classpath, shared), mainClass, argv.clone()));
            return 0;
        } catch (final TuttiException e) {
            err.println(prefix + ": " + e.getMessage().replaceFirst("^runLocal: ", ""));
            return dev.tutti.ErrorClass.TIMEOUT == e.errorClass() ? 124 : 1;
        }
    }

    /** Runs one rank's {@code main} from its own loader, the rank thread's context loader meanwhile. */
    private static void runRank(final URLClassLoader loader, final String mainClass, final String[] argv)
        throws Exception {
        final Thread self = Thread.currentThread();
        final ClassLoader context = self.getContextClassLoader();
        self.setContextClassLoader(loader);
        try (loader) {
            staticMain(loader, mainClass).invoke(null, (Object) argv);
        } catch (final InvocationTargetException e) {
            throw EmbeddedRun.<Exception>rethrow(unwrap(e));
        } finally {
            self.setContextClassLoader(context);
        }
    }

    /**
     * The static {@code main(String[])} of a class.
     *
     * @throws ReflectiveOperationException if the class or a static {@code main(String[])} is missing
     */
    private static Method staticMain(final ClassLoader loader, final String mainClass)
        throws ReflectiveOperationException {
        final Method m = Class.forName(mainClass, false, loader).getMethod("main", String[].class);
        if (!Modifier.isStatic(m.getModifiers())) {
            throw new NoSuchMethodException(mainClass + ".main(String[]) is not static");
        }
        return m;
    }

    /**
     * The parent of the ranks' loaders: the JDK's classes (the platform loader) and Tutti's, {@code dev.tutti.*}
     * from Tutti's loader; a {@code dev.tutti} class Tutti's loader does not have (a program of package
     * {@code dev.tutti.examples}, say) is left to the rank's loader. Resources come from the JDK only, so that the
     * program's class path alone answers for its own (tutti-mpj's marker of its {@code mpi} API, say).
     */
    static final class SharedTutti extends ClassLoader {
        private final ClassLoader tutti;

        SharedTutti(final ClassLoader tutti) {
            super("tutti-shared", ClassLoader.getPlatformClassLoader());
            this.tutti = tutti;
        }

        @Override
        protected Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("dev.tutti.")) {
                return tutti.loadClass(name);
            }
            return super.loadClass(name, resolve);
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
