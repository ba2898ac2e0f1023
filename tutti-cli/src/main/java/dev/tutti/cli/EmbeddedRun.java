package dev.tutti.cli;

import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tutti run --embedded}: runs a program's {@code main} on N threads of this JVM, each bound to one rank of
 * an in-process job, so that the program's own {@code Tutti.init()} joins it. No processes, no network.
 */
final class EmbeddedRun {
    private EmbeddedRun() {
    }

    static int run(final int ranks, final String classpath, final String mainClass, final List<String> args,
        final Duration timeout, final PrintStream err) {
        final Method main;
        try {
            main = findMain(classpath, mainClass);
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
                        if (e.getCause() instanceof Exception ex) {
                            throw ex;
                        }
                        throw e;
                    }
                });
            return 0;
        } catch (final TuttiException e) {
            err.println("tutti run: " + e.getMessage().replaceFirst("^runLocal: ", ""));
            return dev.tutti.ErrorClass.TIMEOUT == e.errorClass() ? 124 : 1;
        }
    }

    private static Method findMain(final String classpath, final String mainClass)
        throws ReflectiveOperationException, MalformedURLException {
        final List<URL> urls = new ArrayList<>();
        for (final String entry : classpath.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                urls.add(Path.of(entry).toAbsolutePath().toUri().toURL());
            }
        }
        final ClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), EmbeddedRun.class.getClassLoader());
        final Method m = Class.forName(mainClass, true, loader).getMethod("main", String[].class);
        if (!Modifier.isStatic(m.getModifiers())) {
            throw new NoSuchMethodException(mainClass + ".main(String[]) is not static");
        }
        return m;
    }
}
