package dev.tutti.cli;

import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks a program before {@code tutti run} starts its ranks, so that a mistake is one line from the launcher
 * rather than the same JVM error from every rank: the class path entries that do not exist (a warning: java ignores
 * them), and whether the main class can be loaded from the class path and has a {@code main} method the java
 * launcher accepts (an error, exit status 127).
 */
final class ProgramCheck {
    private ProgramCheck() {
    }

    /**
     * The entries of a class path that name nothing on this machine.
     *
     * @param classpath the class path ({@link File#pathSeparator}-separated)
     * @return the missing entries, in order (empty entries are skipped)
     */
    static List<String> missingEntries(final String classpath) {
        final List<String> missing = new ArrayList<>();
        for (final String entry : classpath.split(File.pathSeparator)) {
            if (!entry.isBlank() && !entry.endsWith("*") && !Files.exists(Path.of(entry))) {
                missing.add(entry);
            }
        }
        return missing;
    }

    /**
     * A class loader over a class path.
     *
     * @param classpath the class path
     * @param parent    the parent loader
     * @return the loader (the caller closes it when it no longer needs its classes)
     * @throws MalformedURLException if an entry is no valid path
     */
    static URLClassLoader loader(final String classpath, final ClassLoader parent) throws MalformedURLException {
        final List<URL> urls = new ArrayList<>();
        for (final String entry : classpath.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                urls.add(Path.of(entry).toAbsolutePath().toUri().toURL());
            }
        }
        return new URLClassLoader(urls.toArray(new URL[0]), parent);
    }

    /**
     * Why the java launcher could not start a main class from a class path, as a rank's JVM would see it (the JDK's
     * classes, then the class path): the class is missing or cannot be linked, or it has no {@code main} method that
     * is {@code main(String[])} or {@code main()}, static or not, and not private.
     *
     * @param classpath the ranks' whole class path
     * @param mainClass the main class
     * @return the problem, in words, or empty if the class looks startable
     */
    static Optional<String> mainClassProblem(final String classpath, final String mainClass) {
        try (URLClassLoader loader = loader(classpath, ClassLoader.getPlatformClassLoader())) {
            final Class<?> c = Class.forName(mainClass, false, loader);
            return hasMain(c) ? Optional.empty() : Optional.of(mainClass + " has no main(String[]) or main() method");
        } catch (final ClassNotFoundException e) {
            return Optional.of("class " + mainClass + " not found");
        } catch (final LinkageError | MalformedURLException e) {
            return Optional.of(e.toString());
        } catch (final java.io.IOException e) {
            return Optional.empty(); // closing the loader failed: no verdict on the program
        }
    }

    private static boolean hasMain(final Class<?> c) {
        for (Class<?> k = c; null != k; k = k.getSuperclass()) {
            for (final Method m : k.getDeclaredMethods()) {
                if ("main".equals(m.getName()) && !Modifier.isPrivate(m.getModifiers())
                    && (0 == m.getParameterCount()
                        || 1 == m.getParameterCount() && String[].class == m.getParameterTypes()[0])) {
                    return true;
                }
            }
        }
        for (final Class<?> i : c.getInterfaces()) {
            if (hasMain(i)) {
                return true;
            }
        }
        return false;
    }
}
