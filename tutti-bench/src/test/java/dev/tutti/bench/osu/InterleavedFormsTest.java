package dev.tutti.bench.osu;

import dev.tutti.Tutti;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The interleaved forms benchmark in-process with tiny counts: its table's shape and its data checks, not timing. */
@Timeout(60)
class InterleavedFormsTest {
    @Test
    void shouldPrintARowPerSizeWithEveryFormAndItsRatio() {
        final StringWriter text = new StringWriter();
        final PrintWriter out = new PrintWriter(text);
        Tutti.runLocal(3, Tutti.Options.defaults().timeout(Duration.ofSeconds(40)),
            world -> new InterleavedForms(2, 5, 3, 0).run(world, new int[] {1, 8, 100, 4096}, 0 == world.rank() ? out
                : null));
        final List<String> lines = Arrays.asList(text.toString().split("\n"));
        assertTrue(lines.get(0).startsWith("# interleaved forms, 3 ranks, 2 blocks x 5 calls"), lines.get(0));
        assertTrue(lines.get(0).contains("median over blocks of the slowest rank's mean"), lines.get(0));
        final List<String> rows = lines.stream().filter(l -> l.matches("\\| [0-9]+ \\|.*")).toList();
        assertEquals(4, rows.size(), String.join("\n", lines));
        for (final String row : rows) {
            final String ratio = "\\([0-9.]+x, [0-9.]+-[0-9.]+\\)";
            assertTrue(row.matches("\\| [0-9]+ \\| [0-9.]+ \\| [0-9.]+ " + ratio + " \\| [0-9.]+ " + ratio
                + " \\| [0-9.]+ \\| [0-9.]+ " + ratio + " \\|"), row);
        }
    }

    /**
     * A size whose timed blocks ran while a rank's JIT compilers were busy runs them again, and a line above its row
     * says so; here the compilers are busy during the first two timed parts of every size, at every rank.
     */
    @Test
    void shouldRunASizeAgainWhileTheCompilersWereBusy() {
        final StringWriter text = new StringWriter();
        final PrintWriter out = new PrintWriter(text);
        Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(40)),
            world -> new InterleavedForms(2, 3, 2, 1).run(world, new int[] {8, 64}, 0 == world.rank() ? out : null,
                new BusyTwice()));
        final List<String> lines = Arrays.asList(text.toString().split("\n"));
        for (final int bytes : new int[] {8, 64}) {
            final int row = lines.indexOf(lines.stream().filter(l -> l.startsWith("| " + bytes + " |")).findFirst()
                .orElseThrow(() -> new AssertionError(String.join("\n", lines))));
            assertEquals("# " + bytes + " B: 2 timed loop(s) run again: JIT compiler threads ran 3.00 ms, 3.00 ms "
                + "during them at one rank", lines.get(row - 1), String.join("\n", lines));
        }
    }

    /** A JVM whose compilers ran 3 ms during the first two of every three timed parts, and never make a rank wait. */
    private static final class BusyTwice extends JvmActivity {
        private int parts;

        @Override
        void markCompilers() {
        }

        @Override
        long compilerNsSinceMark() {
            return 0 != parts++ % 3 - 2 ? 3_000_000 : 0;
        }

        @Override
        void awaitQuiet(final long stepMs, final long maxMs) {
        }
    }

    @Test
    void shouldRefuseAnOptionWithoutItsValueOrNoSizesBeforeRunning() {
        final StringWriter err = new StringWriter();
        final CommandLine cl = new CommandLine(new InterleavedForms.Cli()).setErr(new PrintWriter(err));
        assertEquals(2, cl.execute("--calls"));
        assertTrue(err.toString().contains("--calls"), err.toString());
        assertEquals(2, cl.execute("--blocks", "3"));
        assertTrue(err.toString().contains("BYTES"), err.toString());
    }

    @Test
    void shouldRefuseCountsThatMeasureNothing() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new InterleavedForms(0, 5, 0, 0));
        assertTrue(e.getMessage().contains("blocks=0"), e.getMessage());
        final IllegalArgumentException t = assertThrows(IllegalArgumentException.class,
            () -> new InterleavedForms(1, 5, 0, -1));
        assertTrue(t.getMessage().contains("warmupMs=-1"), t.getMessage());
    }
}
