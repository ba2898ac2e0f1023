package dev.tutti.bench.mpj;

import dev.tutti.Tutti;
import mpi.MPI;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark in a tiny configuration, as threads of this JVM: it runs, checks its data, and prints its table. */
class MpjOverheadTest {
    private static final Pattern ROW = Pattern.compile(
        "\\| (pingpong|allreduce) \\| (\\d+) \\| (\\d+\\.\\d{3}) \\| (\\d+\\.\\d{3}) \\| (\\d+\\.\\d{3}) \\|");

    @Test
    void shouldPrintOneRowPerOpAndSizeWithTimesAndTheirRatio() {
        final int[] sizes = {8, 16384};
        final MpjPortableBench.Config config = new MpjPortableBench.Config(2, 20, 5, true, sizes);
        final StringWriter text = new StringWriter();
        Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(60)), world -> {
            MPI.Init(new String[0]);
            new MpjOverhead(world, config).run(0 == world.rank() ? new PrintWriter(text, true) : null);
            MPI.Finalize();
        });
        final List<String> lines = text.toString().lines().toList();
        assertEquals(3 + 2 * sizes.length, lines.size(), text.toString());
        assertTrue(lines.get(0).startsWith("# tutti-mpj over Tutti's API, 2 ranks"), lines.get(0));
        assertEquals(MpjOverhead.HEADER, lines.get(1));
        assertEquals(MpjOverhead.SEPARATOR, lines.get(2));
        int row = 3;
        for (final String op : new String[] {"pingpong", "allreduce"}) {
            for (final int bytes : sizes) {
                final Matcher m = ROW.matcher(lines.get(row++));
                assertTrue(m.matches(), lines.get(row - 1));
                assertEquals(op, m.group(1));
                assertEquals(bytes, Integer.parseInt(m.group(2)));
                final double tutti = Double.parseDouble(m.group(3));
                final double mpj = Double.parseDouble(m.group(4));
                final double ratio = Double.parseDouble(m.group(5));
                assertTrue(tutti > 0 && mpj > 0 && ratio > 0, lines.get(row - 1));
            }
        }
    }

    @Test
    void shouldParseTheQuickFormAndSizeRanges() {
        final MpjPortableBench.Config quick = MpjOverhead.config(new String[] {"--quick", "-m", "8:64"});
        assertEquals(3, quick.blocks);
        assertEquals(100, quick.calls);
        assertFalse(quick.discard);
        assertArrayEquals(new int[] {8, 16, 32, 64}, quick.sizes);
        final MpjPortableBench.Config full = MpjOverhead.config(new String[0]);
        assertEquals(18, full.sizes.length); // 8 B .. 1 MiB
        assertEquals(full.calls, full.callsAt(8192));
        assertEquals(full.calls / 2, full.callsAt(16384));
        assertEquals(full.calls * 8192 / (1 << 20), full.callsAt(1 << 20));
        assertEquals(MpjPortableBench.MIN_CALLS, full.callsAt(1 << 30));
        assertArrayEquals(new int[] {4, 8}, MpjPortableBench.Config.powersOfTwo(3, 8));
        assertThrows(IllegalArgumentException.class, () -> MpjOverhead.config(new String[] {"--blocks"}));
        assertThrows(IllegalArgumentException.class, () -> MpjOverhead.config(new String[] {"--nope"}));
    }
}
