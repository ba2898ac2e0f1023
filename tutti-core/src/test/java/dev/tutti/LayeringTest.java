package dev.tutti;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dependency rule of STYLE.md §3.1 (api → coll → p2p → transport → runtime → internal; type is a leaf), checked
 * on the imports of the main sources: a layer never imports one above it. The value types of {@code dev.tutti}
 * (buffers, datatypes, ops, statuses, requests, exceptions) are leaves every layer may use.
 */
class LayeringTest {
    private static final List<String> VALUE_TYPES = List.of("Buf", "Datatype", "Op", "Status", "Request", "CollectiveHandle",
        "TuttiException", "ErrorClass");

    /** Layer name to the layers (package prefixes) it may import besides itself and the value types. */
    private static final Map<String, List<String>> ALLOWED = Map.of(
        "dev.tutti.internal", List.of(),
        "dev.tutti.type", List.of(),
        "dev.tutti.runtime", List.of("dev.tutti.internal"),
        "dev.tutti.transport", List.of("dev.tutti.runtime", "dev.tutti.internal"),
        "dev.tutti.p2p", List.of("dev.tutti.transport", "dev.tutti.runtime", "dev.tutti.internal", "dev.tutti.type"),
        "dev.tutti.coll", List.of("dev.tutti.p2p", "dev.tutti.transport", "dev.tutti.runtime", "dev.tutti.internal",
            "dev.tutti.type"));

    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(dev\\.tutti[\\w.]*)\\.(\\w+|\\*);",
        Pattern.MULTILINE);

    @Test
    void shouldNeverImportALayerAbove() throws IOException {
        final Path root = Path.of("src/main/java/dev/tutti");
        final List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (final Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                final String pkg = "dev.tutti" + root.relativize(f.getParent()).toString().replace('/', '.')
                    .replaceAll("^(?=.)", ".");
                final String layer = ALLOWED.keySet().stream().filter(l -> pkg.equals(l) || pkg.startsWith(l + "."))
                    .findFirst().orElse(null);
                if (null == layer) {
                    continue; // the api layer may import anything
                }
                final Matcher m = IMPORT.matcher(Files.readString(f));
                while (m.find()) {
                    final String target = m.group(1);
                    final String cls = m.group(2);
                    final boolean ok = target.equals(layer) || target.startsWith(layer + ".")
                        || ("dev.tutti".equals(target) && VALUE_TYPES.contains(cls))
                        || ALLOWED.get(layer).stream().anyMatch(a -> target.equals(a) || target.startsWith(a + "."));
                    if (!ok) {
                        violations.add(root.relativize(f) + " imports " + target + "." + cls);
                    }
                }
            }
        }
        assertTrue(violations.isEmpty(), "layering violations:\n" + String.join("\n", violations));
    }
}
