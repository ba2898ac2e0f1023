package dev.tutti;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.coll.CollKind;
import dev.tutti.internal.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every setting is named in one place, {@link Settings}: no main source of any module spells a {@code tutti.*}
 * property or a {@code TUTTI_*} variable as a string literal of its own (it refers to the registry's setting), so a
 * setting cannot be read, or documented, without being declared there.
 */
class SettingsRegistryTest {
    /** A string literal that is a setting name: a {@code tutti.x} property (or prefix) or {@code TUTTI_X} variable. */
    private static final Pattern NAME_LITERAL = Pattern.compile("\"(tutti\\.[A-Za-z][\\w.<>]*|TUTTI_[A-Z_<>]+)\"");
    private static final Path REGISTRY = Path.of("dev/tutti/internal/Settings.java");

    @Test
    void shouldNameSettingsOnlyInTheRegistry() throws IOException {
        final List<String> violations = new ArrayList<>();
        final List<Path> roots;
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            roots = modules.filter(m -> m.getFileName().toString().startsWith("tutti-"))
                .map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList();
        }
        assertTrue(roots.size() >= 3, "main source trees found: " + roots);
        for (final Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (final Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    if (root.relativize(f).equals(REGISTRY)) {
                        continue;
                    }
                    final List<String> lines = Files.readAllLines(f);
                    for (int i = 0; i < lines.size(); i++) {
                        final Matcher m = NAME_LITERAL.matcher(lines.get(i));
                        while (m.find()) {
                            violations.add(f.normalize() + ":" + (i + 1) + " names " + m.group(1));
                        }
                    }
                }
            }
        }
        assertTrue(violations.isEmpty(), "settings named outside dev.tutti.internal.Settings (declare them there "
            + "and refer to the declaration):\n" + String.join("\n", violations));
    }

    @Test
    void shouldKnowEveryCollectiveOperation() {
        assertEquals(Arrays.stream(CollKind.values()).map(CollKind::mpiName).toList(), Settings.COLL_OPERATIONS);
    }
}
