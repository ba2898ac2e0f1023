package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.ErrorClass;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every fenced {@code java} block of the README and the user guide ({@link UserDocs}) compiles against Tutti as
 * written and runs on 4 ranks of an embedded job (ranks as threads of this JVM) within a time limit, so that a reader
 * who pastes one gets a working program.
 *
 * <p>Implementation note: a block is wrapped by what it is. A block that calls {@code Tutti.init()} is a rank's
 * whole program: it runs as each rank's body of {@code Tutti.runLocal(4, ...)}, where {@code init} joins the
 * in-process job (as {@code tutti run --embedded} runs a main). A block that calls {@code Tutti.runLocal} starts its
 * own job and runs as it is. Any other block is a fragment of a rank's program that uses {@code world}, the world
 * communicator, and nothing else it does not declare: it runs as the body of {@code Tutti.runLocal(4, world -> ...)}.
 * All blocks are compiled in one javac call; errors are reported at their page and line. A block whose info string
 * also names a file ({@code ```java templates/maven/src/main/java/Main.java}) is that whole file, not a fragment:
 * {@link MavenTemplateTest} checks it against the file and builds it.
 */
@Timeout(120)
class ReadmeSnippetsTest {
    private static final int RANKS = 4;
    private static final Duration LIMIT = Duration.ofSeconds(30);
    /** Lines of a wrapper before the block's first line (see {@link #wrap}). */
    private static final int HEADER_LINES = 2;

    /** One fenced java block: its page, the line of its first code line there, and its code. */
    record Snippet(String page, int line, String code) {
        /** @return the class name its wrapper gets, unique among the pages' blocks */
        String className() {
            return "Doc_" + page.replaceAll("[^A-Za-z0-9]", "_") + "_line" + line;
        }

        /** @return where the block is, e.g. {@code docs/api-tour.md line 12} */
        String where() {
            return page + " line " + line;
        }

        /** @return how it is wrapped */
        Kind kind() {
            if (code.contains("Tutti.init(")) {
                return Kind.RANK_PROGRAM;
            }
            return code.contains("Tutti.runLocal(") ? Kind.JOB : Kind.FRAGMENT;
        }
    }

    /** How a block is wrapped (see the class note). */
    enum Kind {
        RANK_PROGRAM, JOB, FRAGMENT
    }

    @TempDir
    static Path classes;

    /** @return the fenced java blocks of every page of the documentation, page by page */
    static List<Snippet> snippets() throws IOException {
        final List<Snippet> all = new ArrayList<>();
        for (final UserDocs.Page p : UserDocs.pages()) {
            all.addAll(snippets(p.name(), p.text()));
        }
        return all;
    }

    /**
     * The fenced java blocks of a markdown text.
     *
     * @param page     the page's name
     * @param markdown the text
     * @return the blocks, in order
     */
    static List<Snippet> snippets(final String page, final String markdown) {
        final List<Snippet> found = new ArrayList<>();
        final String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (!"```java".equals(lines[i].strip())) {
                continue;
            }
            final StringBuilder code = new StringBuilder();
            int j = i + 1;
            while (j < lines.length && !"```".equals(lines[j].strip())) {
                code.append(lines[j]).append('\n');
                j++;
            }
            found.add(new Snippet(page, i + 2, code.toString()));
            i = j;
        }
        return found;
    }

    /**
     * The compilable class around a block: its imports first, then {@code public static void run()} as
     * {@link Kind} says. The block's own lines keep their text; {@code HEADER_LINES} lines come before them.
     *
     * @param s     the block
     * @param limit the embedded job's time limit (a block that calls {@code runLocal} itself has none)
     * @return the source of {@code s.className()}
     */
    static String wrap(final Snippet s, final Duration limit) {
        final StringBuilder imports = new StringBuilder();
        final StringBuilder body = new StringBuilder();
        for (final String line : s.code().split("\n", -1)) {
            if (line.startsWith("import ")) {
                imports.append(line);
                body.append('\n'); // keeps the block's line numbers
            } else {
                body.append(line).append('\n');
            }
        }
        final String options = "Tutti.Options.defaults().timeout(java.time.Duration.ofMillis(" + limit.toMillis()
            + "))";
        final String open = switch (s.kind()) {
            case RANK_PROGRAM -> "Tutti.runLocal(" + RANKS + ", " + options + ", jobWorld -> {";
            case FRAGMENT -> "Tutti.runLocal(" + RANKS + ", " + options + ", world -> {";
            case JOB -> "{";
        };
        final String close = s.kind() == Kind.JOB ? "}" : "});";
        // Exactly HEADER_LINES lines before the block's first line.
        return "import dev.tutti.*; " + imports + "\n"
            + "public final class " + s.className() + " { public static void run() throws Exception { " + open + "\n"
            + body + close + " } }\n";
    }

    @Test
    void shouldFindTheJavaBlocksOfEveryPageAndWrapEachByWhatItIs() throws IOException {
        final List<Snippet> all = snippets();
        assertTrue(all.size() >= 5, "java blocks found: " + all.size());
        assertTrue(all.stream().map(Snippet::page).collect(Collectors.toSet()).containsAll(List.of(
            "docs/api-tour.md", "docs/channels.md", "docs/checker.md")), "pages with java blocks: "
            + all.stream().map(Snippet::page).distinct().toList());
        assertTrue(all.stream().anyMatch(s -> Kind.RANK_PROGRAM == s.kind()), "no block calls Tutti.init()");
        assertTrue(all.stream().anyMatch(s -> Kind.JOB == s.kind()), "no block calls Tutti.runLocal");
        final List<Snippet> two = snippets("p.md", "text\n```java\nint a;\n```\n```sh\nls\n```\n  ```java\nint b;\n"
            + "  ```\n");
        assertEquals(List.of(new Snippet("p.md", 3, "int a;\n"), new Snippet("p.md", 9, "int b;\n")), two);
        assertEquals("Doc_docs_api_tour_md_line3", new Snippet("docs/api-tour.md", 3, "").className());
    }

    @Test
    @Timeout(20)
    void shouldCatchABlockThatHangs() throws Exception {
        // The tour's old line: a receive from anyone, never completed, that swallows a later object message.
        final Snippet hang = new Snippet("hang.md", 1, "world.irecv(Buf.of(new double[1]), Communicator.ANY_SOURCE, "
            + "Communicator.ANY_TAG);\nworld.sendObject(\"x\", (world.rank() + 1) % world.size(), 0);\n"
            + "String got = world.recvObject(Communicator.ANY_SOURCE, 0);\n");
        final Path dir = Files.createTempDirectory(classes, "hang");
        compile(List.of(hang), Duration.ofSeconds(2), dir);
        final Throwable failure = runCatching(hang, dir);
        assertTrue(failure instanceof TuttiException t && ErrorClass.TIMEOUT == t.errorClass(),
            "expected the job's TIMEOUT, got " + failure);
    }

    @TestFactory
    Stream<DynamicTest> everyJavaBlockCompilesAndRunsOnFourRanks() throws IOException {
        final List<Snippet> all = snippets();
        compile(all, LIMIT, classes);
        return all.stream().map(s -> DynamicTest.dynamicTest(s.where(), () -> {
            final Throwable failure = assertTimeoutPreemptively(LIMIT.plusSeconds(10), () -> runCatching(s, classes),
                s.where() + " did not end");
            if (null != failure) {
                throw new AssertionError(s.where() + " failed on " + RANKS + " ranks: " + failure, failure);
            }
        }));
    }

    /** Compiles the wrapped blocks into {@code dir}; fails naming the page and line of each error. */
    private static void compile(final List<Snippet> blocks, final Duration limit, final Path dir)
        throws IOException {
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "no system Java compiler (the tests need a JDK)");
        final List<JavaFileObject> sources = new ArrayList<>();
        for (final Snippet s : blocks) {
            final Path src = dir.resolve(s.className() + ".java");
            Files.writeString(src, wrap(s, limit));
        }
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            final List<Path> paths = blocks.stream().map(s -> dir.resolve(s.className() + ".java")).toList();
            files.getJavaFileObjectsFromPaths(paths).forEach(sources::add);
            final StringWriter out = new StringWriter();
            final boolean ok = javac.getTask(out, files, diagnostics,
                List.of("-d", dir.toString(), "-cp", tuttiClasses(), "-proc:none", "-Xlint:none"), null, sources)
                .call();
            final StringBuilder errors = new StringBuilder();
            for (final Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (Diagnostic.Kind.ERROR == d.getKind()) {
                    final Snippet s = blocks.stream().filter(b -> d.getSource().getName().endsWith(b.className()
                        + ".java")).findFirst().orElseThrow();
                    errors.append(s.page()).append(':').append(s.line() + d.getLineNumber() - 1 - HEADER_LINES)
                        .append(": ")
                        .append(d.getMessage(Locale.ROOT)).append('\n');
                }
            }
            assertTrue(ok && errors.isEmpty(), "java blocks of the documentation do not compile:\n" + errors + out);
        }
    }

    /** Runs a compiled block; returns what it threw (unwrapped), or null. */
    private static Throwable runCatching(final Snippet s, final Path dir) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
            ReadmeSnippetsTest.class.getClassLoader())) {
            loader.loadClass(s.className()).getMethod("run").invoke(null);
            return null;
        } catch (final InvocationTargetException e) {
            return EmbeddedRun.unwrap(e);
        }
    }

    /** The class path entry that holds Tutti's classes (a jar or a classes directory). */
    private static String tuttiClasses() {
        try {
            return Path.of(Tutti.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
