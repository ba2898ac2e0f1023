package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the benchmarks in-process with tiny iteration counts; checks output shape and data checks, not timing. */
@Timeout(60)
class BenchSmokeTest {
    private static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(30));
    /**
     * The tests that run {@link BenchRunner} directly check the order of its phases, not their effect on the
     * figures: shorter phases than a run's do.
     */
    private static final Pacing SHORT = new Pacing(100_000_000L, 2_000_000_000L, 500_000_000L, 200, 200, 1_000, 30);

    private static BenchRun bench(final String... args) {
        return BenchRun.of(args);
    }

    private static List<String> dataRows(final String table) {
        final List<String> rows = new ArrayList<>();
        for (final String line : table.split("\\R")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                rows.add(line);
            }
        }
        return rows;
    }

    @ParameterizedTest
    @CsvSource({"pingpong, 2, Latency (us)", "bandwidth, 2, Bandwidth (MB/s)", "pingpong, 3, Latency (us)",
        "bandwidth, 4, Bandwidth (MB/s)"})
    void shouldPrintOsuTableAndCsv(final String op, final int ranks, final String header, @TempDir final Path dir)
        throws Exception {
        final Path csv = dir.resolve("out.csv");
        final BenchRun r = bench(op, "-n", Integer.toString(ranks), "-m", "1:16384", "-i", "3", "-x", "1", "--jit-warmup",
            "0", "--csv", csv.toString());
        assertEquals(0, r.exitCode(), r.err());
        final String[] lines = r.out().split("\\R");
        assertEquals("# Tutti " + op, lines[0].substring(0, ("# Tutti " + op).length()));
        assertTrue(lines[1].startsWith("# Size") && lines[1].strip().endsWith(header), lines[1]);
        final List<String> rows = dataRows(r.out());
        assertEquals(15, rows.size(), r.out());
        for (int i = 0; i < rows.size(); i++) {
            final String[] f = rows.get(i).trim().split("\\s+");
            assertEquals(2, f.length, rows.get(i));
            assertEquals(1 << i, Integer.parseInt(f[0]));
            // A 1-byte bandwidth under a loaded machine may round to 0.00 MB/s (two decimals, as OSU prints);
            // that the timing itself is positive is checked on the CSV's avg_us below.
            final double value = Double.parseDouble(f[1]);
            assertTrue("bandwidth".equals(op) ? value >= 0 : value > 0, rows.get(i));
        }
        final List<String> csvLines = Files.readAllLines(csv);
        assertEquals(CsvWriter.HEADER, csvLines.get(0));
        assertEquals(16, csvLines.size());
        for (int i = 1; i < csvLines.size(); i++) {
            final String[] f = csvLines.get(i).split(",");
            assertEquals(List.of("tutti-inproc", op, Integer.toString(ranks), Integer.toString(1 << (i - 1))),
                Arrays.asList(f).subList(0, 4));
            assertTrue(Double.parseDouble(f[4]) > 0, csvLines.get(i));
        }
    }

    @Test
    void shouldPrintPercentileColumns() {
        final BenchRun r = bench("pingpong", "-m", "0:8", "-i", "20", "-x", "2", "--jit-warmup", "0", "--percentiles");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("P50 (us)") && r.out().contains("P99.9 (us)") && r.out().contains("Max (us)"),
            r.out());
        final List<String> rows = dataRows(r.out());
        assertEquals(5, rows.size(), r.out());
        assertEquals("0", rows.get(0).trim().split("\\s+")[0]);
        for (final String row : rows) {
            assertEquals(7, row.trim().split("\\s+").length, row);
        }
    }

    @Test
    void shouldRunWithDefaultIterationsIncludingJitWarmup() {
        final BenchRun r = bench("pingpong", "-m", "8192:16384");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(2, dataRows(r.out()).size(), r.out());
    }

    @Test
    void shouldFailLoudlyWhenReceivedDataIsWrong() {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2, OPTS, world ->
            run(world, spec("corrupt", 2), new CorruptingPingPong(), null)));
        Throwable c = e;
        while (null != c && !(c instanceof BenchmarkException)) {
            c = c.getCause();
        }
        assertTrue(null != c, BenchCommand.describe(e));
        assertTrue(c.getMessage().startsWith("corrupt verify failed (rank=0, bytes=1): 1 of 1 bytes from rank 1 "
            + "are wrong, first at index=0"), c.getMessage());
    }

    @Test
    void shouldTimeOneCallPerIterationInCollectiveBase() {
        final StringWriter out = new StringWriter();
        final BenchSpec spec = spec(LinearBcast.OP, 3);
        final OsuBenchmark probe = new LinearBcast();
        try (Report report = new Report(new PrintWriter(out), null, spec, probe, Progress.none())) {
            Tutti.runLocal(3, OPTS, world -> run(world, spec, new LinearBcast(), 0 == world.rank()
                ? report : null));
        }
        assertEquals(4, dataRows(out.toString()).size(), out.toString());
        assertTrue(out.toString().startsWith("# Tutti linear-bcast (test bcast): impl=tutti-inproc ranks=3"));
    }

    @Test
    void shouldShowOneProgressLineOnTheTerminalAndEraseItBeforeEachRow() {
        final StringWriter out = new StringWriter();
        final StringWriter terminal = new StringWriter();
        final BenchSpec spec = new BenchSpec(LinearBcast.OP, 2, BenchTransport.INPROC, null, new SizeRange(1, 8), 4,
            1, 0, false, null, 0, false);
        try (Report report = new Report(new PrintWriter(out), null, spec, new LinearBcast(),
            Progress.to(new PrintWriter(terminal)))) {
            Tutti.runLocal(2, OPTS, world -> run(world, spec, new LinearBcast(), 0 == world.rank()
                ? report : null));
        }
        final String erase = "\r\u001b[K";
        assertEquals(erase + "bench linear-bcast: 1 B (1 of 4 sizes)" + erase + erase
            + "bench linear-bcast: 2 B (2 of 4 sizes)" + erase + erase + "bench linear-bcast: 4 B (3 of 4 sizes)"
            + erase + erase + "bench linear-bcast: 8 B (4 of 4 sizes)" + erase, terminal.toString());
        assertTrue(!out.toString().contains("\u001b") && !out.toString().contains("\r"), out.toString());
        assertEquals("", bench("pingpong", "-m", "1:2", "-i", "2", "-x", "0", "--jit-warmup", "0").err(),
            "no progress line when the output is no terminal");
    }

    @Test
    void shouldRunTheTaggedOverlapBenchmarkAsABenchOperation() {
        final BenchRun r = bench("tagged-overlap", "-n", "2", "-i", "1");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("# Tutti tagged overlap: k allreduces (SUM of doubles), ranks=2, inproc"),
            r.out());
        assertEquals(12, dataRows(r.out()).size(), r.out());
        assertEquals(2, bench("tagged-overlap", "--transport", "tcp").exitCode());
    }

    @Test
    void shouldCompileMeasureBeforeTimingAndEndEveryRehearsalWithACallOfOneIteration() {
        final List<int[]> c = recordedCalls();
        c.removeIf(call -> RecordingBcast.PREPARED == call[0]);
        int first = 0; // the first size's warm-up calls (1 iteration, 1 warm-up), then the one-iteration calls
        while (first < c.size() && !isOneIteration(c.get(first))) {
            first++;
        }
        assertTrue(first + BenchRunner.MEASURE_CALLS <= c.size(), "calls of one iteration after the warm-up");
        for (int i = first; i < first + BenchRunner.MEASURE_CALLS; i++) {
            assertTrue(isOneIteration(c.get(i)), "call " + i + " after the warm-up: " + Arrays.toString(c.get(i)));
        }
        int timed = 0; // a call of the spec's 4 iterations is a rehearsal if a call of one iteration follows it
        for (int i = first + BenchRunner.MEASURE_CALLS; i < c.size(); i++) {
            if (4 == c.get(i)[0] && !(i + 1 < c.size() && isOneIteration(c.get(i + 1)))) {
                timed++;
                assertTrue(isOneIteration(c.get(i - 1)), "the call before timed call " + i + " has one iteration");
            }
        }
        assertEquals(3, timed, "one timed call per size (1, 2, 4 bytes)");
    }

    /**
     * Every size is warmed up after its own {@code prepare}, the first one too: its timed loop runs on what that
     * prepare made (a new persistent request, a new channel), whose first calls take paths the warm-up before it
     * never took (building the request, agreeing on its slots). Without a warm-up in between, C2 compiled
     * {@code ChannelCore.start} during the first timed loop (4 ranks' 8-byte channel exchange: 10-20 µs per call in
     * that run, 2.5-2.9 in others).
     */
    @Test
    void shouldWarmUpEverySizeAfterItsOwnPrepareTheFirstOneToo() {
        final List<int[]> c = recordedCalls();
        final List<Integer> warmed = new ArrayList<>(); // sizes whose prepare is followed by a warm-up call
        int prepares = 0;
        for (int i = 0; i < c.size(); i++) {
            if (RecordingBcast.PREPARED == c.get(i)[0]) {
                prepares++;
                if (i + 1 < c.size() && 1 == c.get(i + 1)[0] && 1 == c.get(i + 1)[1]) {
                    warmed.add(c.get(i)[1]);
                }
            }
        }
        assertEquals(4, prepares, "the first size is prepared for its warm-up and again for its timed loop");
        assertEquals(List.of(1, 1, 2, 4), warmed, "a warm-up call (1 iteration, 1 warm-up) after every prepare");
    }

    /**
     * A timed loop during which the JIT compilers ran is warm-up the harness missed: it runs again, and the table says
     * so above the size's row. Here the compilers ran 2 ms during the first loop of size 2, and no other.
     */
    @Test
    void shouldRunATimedLoopAgainWhenTheCompilersRanDuringIt() {
        final Recorded r = record(calls -> new FakeCompilers(2, calls));
        assertEquals(List.of(1, 2, 2, 4), timedSizes(r.calls()), "size 2's loop twice, the others once");
        final List<String> notes = Arrays.stream(r.table().split("\\R")).filter(l -> l.startsWith("# 2:")).toList();
        assertEquals(List.of("# 2: 1 timed loop(s) run again: JIT compiler threads ran 2.00 ms during them at one rank"),
            notes, r.table());
        assertEquals(3, dataRows(r.table()).size(), r.table());
    }

    /** Compilers that never stop: each size's loop runs 1 + {@link BenchRunner#MAX_RERUNS} times, the last is kept. */
    @Test
    void shouldKeepTheLastLoopAfterAtMostMaxRerunsAgain() {
        final Recorded r = record(calls -> new FakeCompilers(-1, calls));
        final List<Integer> expected = new ArrayList<>();
        for (final int size : new int[] {1, 2, 4}) {
            expected.addAll(Collections.nCopies(1 + BenchRunner.MAX_RERUNS, size));
        }
        assertEquals(expected, timedSizes(r.calls()), r.table());
        final String each = String.join(", ", Collections.nCopies(BenchRunner.MAX_RERUNS, "2.00 ms"));
        assertTrue(r.table().contains("# 4: " + BenchRunner.MAX_RERUNS + " timed loop(s) run again: JIT compiler "
            + "threads ran " + each + " during them at one rank; JIT compiler threads ran 2.00 ms during the loop "
            + "kept, at one rank"), r.table());
    }

    /** Without the JIT warm-up ({@code --jit-warmup 0}, {@code --quick}) the loops include compilation, as asked. */
    @Test
    void shouldRunEveryTimedLoopOnceWithoutTheJitWarmup() {
        final Recorded r = record(calls -> new FakeCompilers(-1, calls), 0);
        final List<Integer> sizes = new ArrayList<>();
        for (final int[] c : r.calls()) {
            if (RecordingBcast.PREPARED != c[0]) {
                sizes.add(c[0]);
            }
        }
        assertEquals(List.of(4, 4, 4), sizes, "one call of the spec's 4 iterations per size, nothing else");
        assertTrue(!r.table().contains("JIT compiler"), r.table());
    }

    /** @return the sizes of the timed calls in order: calls of the spec's 4 iterations that no one-iteration call follows */
    private static List<Integer> timedSizes(final List<int[]> calls) {
        final List<Integer> sizes = new ArrayList<>();
        int size = 0;
        for (int i = 0; i < calls.size(); i++) {
            final int[] c = calls.get(i);
            if (RecordingBcast.PREPARED == c[0]) {
                size = c[1];
            } else if (4 == c[0] && !(i + 1 < calls.size() && isOneIteration(calls.get(i + 1)))) {
                sizes.add(size);
            }
        }
        return sizes;
    }

    /**
     * Runs a {@link RecordingBcast} over sizes 1-4 (4 iterations, 1 warm-up, a JIT warm-up of 2) on 2 ranks, whose
     * JIT compilers never run during a timed loop (so the loops run once).
     *
     * @return rank 0's record of its prepare and measure calls
     */
    private static List<int[]> recordedCalls() {
        return record(calls -> new FakeCompilers(0, calls)).calls();
    }

    /** Rank 0's prepare and measure calls, and its table. */
    private record Recorded(List<int[]> calls, String table) {
    }

    private static Recorded record(final Function<List<int[]>, JvmActivity> jvm) {
        return record(jvm, 2);
    }

    private static Recorded record(final Function<List<int[]>, JvmActivity> jvm, final int jitWarmup) {
        final BenchSpec spec = new BenchSpec(LinearBcast.OP, 2, BenchTransport.INPROC, null, new SizeRange(1, 4), 4, 1,
            jitWarmup, false, null, 0, false);
        final List<List<int[]>> calls = new ArrayList<>();
        final StringWriter table = new StringWriter();
        Tutti.runLocal(2, OPTS, world -> {
            final RecordingBcast bench = new RecordingBcast();
            if (0 == world.rank()) {
                final PrintWriter out = new PrintWriter(table);
                try (Report report = Report.open(out, spec, bench, Progress.onTerminal(out))) {
                    BenchRunner.run(world, spec, bench, report, jvm.apply(bench.calls), SHORT);
                }
                calls.add(bench.calls);
            } else {
                BenchRunner.run(world, spec, bench, null, jvm.apply(bench.calls), SHORT);
            }
        });
        return new Recorded(new ArrayList<>(calls.get(0)), table.toString());
    }

    /**
     * A JVM whose compiler threads ran 2 ms during the {@code busy}-th timed loop of this rank (from 1), during every
     * one if {@code busy} is negative, during none if it is 0; never during a rehearsal. A timed loop is told by the
     * bench's last call: one of the spec's 4 iterations (a rehearsal ends with a call of one iteration).
     */
    private static final class FakeCompilers extends JvmActivity {
        private final int busy;
        private final List<int[]> calls;
        private int loops;

        FakeCompilers(final int busy, final List<int[]> calls) {
            this.busy = busy;
            this.calls = calls;
        }

        @Override
        void markCompilers() {
        }

        @Override
        long compilerNsSinceMark() {
            if (4 != calls.get(calls.size() - 1)[0]) {
                return 0;
            }
            loops++;
            return busy < 0 || loops == busy ? 2_000_000 : 0;
        }
    }

    private static void run(final Communicator world, final BenchSpec spec, final OsuBenchmark bench,
        final Report report) {
        BenchRunner.run(world, spec, bench, report, new JvmActivity(), SHORT);
    }

    private static boolean isOneIteration(final int[] call) {
        return 1 == call[0] && 0 == call[1];
    }

    private static BenchSpec spec(final String op, final int ranks) {
        return new BenchSpec(op, ranks, BenchTransport.INPROC, null, new SizeRange(1, 8), 4, 1, 2, false, null, 0,
            false);
    }

    /** A ping-pong whose rank 1 sends one wrong byte: rank 0's check must fail. */
    private static final class CorruptingPingPong extends PairedBenchmark {
        @Override
        public String op() {
            return "corrupt";
        }

        @Override
        public String title() {
            return "test";
        }

        @Override
        public IterationDefaults defaults() {
            return new IterationDefaults(1, 0, 1, 0, 0);
        }

        @Override
        boolean receives() {
            return true;
        }

        @Override
        public void prepare(final Communicator world, final int bytes) {
            super.prepare(world, bytes);
            if (1 == world.rank()) {
                sendBytes[0] ^= 0x40;
            }
        }

        @Override
        public double measure(final Communicator world, final int bytes, final int iterations, final int warmup,
            final org.HdrHistogram.Histogram histogram) {
            if (initiator) {
                world.send(Buf.of(sendBytes, 0, bytes), peer, DATA_TAG);
                world.recv(Buf.of(recvBytes, 0, bytes), peer, DATA_TAG);
            } else {
                world.recv(Buf.of(recvBytes, 0, bytes), peer, DATA_TAG);
                world.send(Buf.of(sendBytes, 0, bytes), peer, DATA_TAG);
            }
            return 1.0;
        }
    }

    /**
     * A {@link LinearBcast} that records each {@code measure} call's iterations and warm-up iterations, and each
     * {@code prepare} as {@code {PREPARED, bytes}}.
     */
    private static final class RecordingBcast extends LinearBcast {
        static final int PREPARED = -1;
        final List<int[]> calls = new ArrayList<>();

        @Override
        public void prepare(final Communicator world, final int bytes) {
            calls.add(new int[] {PREPARED, bytes});
            super.prepare(world, bytes);
        }

        @Override
        public double measure(final Communicator world, final int bytes, final int iterations, final int warmup,
            final org.HdrHistogram.Histogram histogram) {
            calls.add(new int[] {iterations, warmup});
            return super.measure(world, bytes, iterations, warmup, histogram);
        }
    }

    /** A collective written as the next milestone's will be: one class over {@link CollectiveBenchmark}. */
    private static class LinearBcast extends CollectiveBenchmark {
        static final String OP = "linear-bcast";
        private byte[] data;

        @Override
        public String op() {
            return OP;
        }

        @Override
        public String title() {
            return "test bcast";
        }

        @Override
        public void allocate(final Communicator world, final int maxBytes) {
            data = new byte[maxBytes];
        }

        @Override
        public void prepare(final Communicator world, final int bytes) {
            if (0 == world.rank()) {
                Patterns.fill(data, bytes, 0);
            } else {
                Patterns.poison(data, bytes, 0);
            }
        }

        @Override
        protected void invoke(final Communicator world, final int bytes) {
            final Buf b = Buf.of(data, 0, bytes);
            if (0 == world.rank()) {
                for (int r = 1; r < world.size(); r++) {
                    world.send(b, r, 5);
                }
            } else {
                world.recv(b, 0, 5);
            }
        }

        @Override
        public void verify(final Communicator world, final int bytes) {
            Patterns.check(OP, world.rank(), data, bytes, 0);
        }
    }
}
