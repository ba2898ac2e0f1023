package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The user documentation that the Readme* tests check: {@code README.md} and the guide's pages, every
 * {@code docs/*.md}. A test that reads it reports a finding by page and line ({@code docs/api-tour.md:12}).
 */
final class UserDocs {
    /** The repository root (the tests run in {@code tutti-cli}). */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /**
     * One page of the documentation.
     *
     * @param name its path from the repository root, e.g. {@code docs/channels.md}
     * @param text its text
     */
    record Page(String name, String text) {
    }

    private UserDocs() {
    }

    /**
     * Every page: {@code README.md} first, then {@code docs/*.md} by name.
     *
     * @return the pages
     * @throws IOException if one cannot be read
     */
    static List<Page> pages() throws IOException {
        final List<Page> pages = new ArrayList<>();
        pages.add(page("README.md"));
        final Path docs = ROOT.resolve("docs");
        assertTrue(Files.isDirectory(docs), "no user guide at " + docs);
        try (Stream<Path> files = Files.list(docs)) {
            for (final Path f : files.filter(f -> f.getFileName().toString().endsWith(".md")).sorted().toList()) {
                pages.add(page(ROOT.relativize(f).toString()));
            }
        }
        return pages;
    }

    /**
     * One page by name.
     *
     * @param name its path from the repository root
     * @return the page
     * @throws IOException if it cannot be read
     */
    static Page page(final String name) throws IOException {
        return new Page(name, Files.readString(ROOT.resolve(name)));
    }
}
