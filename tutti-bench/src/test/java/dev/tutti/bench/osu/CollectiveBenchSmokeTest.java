package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every collective benchmark run in-process with tiny iteration counts: the table and CSV have the right shape
 * and every rank's check of the result passed (a failed check exits 1). No timing is asserted.
 */
@Timeout(60)
class CollectiveBenchSmokeTest {
    private static final List<String> COLLECTIVES = List.of("barrier", "bcast", "gather", "gatherv", "scatter",
        "scatterv", "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw", "alltoall_init", "alltoall_channel",
        "reduce", "allreduce", "allreduce_init", "reduce_scatter", "reduce_scatter_block", "scan", "exscan");
    private static final String[] TINY = {"-i", "2", "-x", "1", "--jit-warmup", "0", "--timeout", "30"};

    private record Run(int exitCode, String out, String err) {
    }

    private static Run bench(final String op, final int ranks, final String sizes, final String... more) {
        final List<String> args = new ArrayList<>(List.of(op, "-n", Integer.toString(ranks), "-m", sizes));
        args.addAll(Arrays.asList(TINY));
        args.addAll(Arrays.asList(more));
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cl = new CommandLine(new BenchCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        final int rc = cl.execute(args.toArray(String[]::new));
        return new Run(rc, out.toString(), err.toString());
    }

    private static List<String[]> dataRows(final String table) {
        final List<String[]> rows = new ArrayList<>();
        for (final String line : table.split("\\R")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                rows.add(line.trim().split("\\s+"));
            }
        }
        return rows;
    }

    /** The sizes a run of {@code op} on {@code ranks} ranks reports for {@code -m sizes}. */
    private static int[] expectedSizes(final String op, final int ranks, final String sizes) {
        return Benchmarks.create(op).sizes(SizeRange.parse(sizes).sizes(), ranks);
    }

    static Stream<Arguments> everyCollectiveOnTwoToFourRanks() {
        return COLLECTIVES.stream().flatMap(op -> Stream.of(2, 3, 4).map(n -> Arguments.of(op, n)));
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("everyCollectiveOnTwoToFourRanks")
    void shouldRunEveryCollectiveAndCheckItsResult(final String op, final int ranks) {
        final String sizes = "1:1024";
        final Run r = bench(op, ranks, sizes);
        assertEquals(0, r.exitCode(), r.err());
        final String[] lines = r.out().split("\\R");
        assertTrue(lines[0].startsWith("# Tutti " + op + " (") && lines[0].endsWith("impl=tutti-inproc ranks="
            + ranks), lines[0]);
        assertTrue(lines[1].startsWith("# Size") && lines[1].strip().endsWith("Latency (us)"), lines[1]);
        final List<String[]> rows = dataRows(r.out());
        final int[] expected = expectedSizes(op, ranks, sizes);
        assertEquals(expected.length, rows.size(), r.out());
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(2, rows.get(i).length, r.out());
            assertEquals(expected[i], Integer.parseInt(rows.get(i)[0]), r.out());
            assertTrue(Double.parseDouble(rows.get(i)[1]) > 0, r.out());
        }
    }

    @Test
    void shouldReportTheSizesEachCollectiveUses() {
        assertArrayEquals(new int[] {0}, expectedSizes("barrier", 2, "1:1024"));
        assertArrayEquals(new int[] {1, 2, 4, 8}, expectedSizes("bcast", 3, "1:8"));
        assertArrayEquals(new int[] {4, 8}, expectedSizes("allreduce", 3, "1:8"));
        assertArrayEquals(new int[] {16, 32}, expectedSizes("reduce_scatter_block", 3, "1:32"));
        assertArrayEquals(new int[] {4, 8, 16, 32}, expectedSizes("reduce_scatter", 3, "1:32"));
    }

    @ParameterizedTest(name = "{0} on 3 ranks, rendezvous sizes")
    @CsvSource({"bcast", "gatherv", "scatter", "allgather", "alltoallw", "allreduce", "reduce_scatter", "exscan"})
    void shouldCheckResultsAboveTheEagerLimit(final String op) {
        final Run r = bench(op, 3, "65536:262144");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(3, dataRows(r.out()).size(), r.out());
    }

    @ParameterizedTest(name = "{0} on 1 rank")
    @CsvSource({"barrier", "bcast", "gather", "scatterv", "allgatherv", "alltoall", "reduce", "scan"})
    void shouldRunOnAGroupOfOne(final String op) {
        final Run r = bench(op, 1, "1:64");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(expectedSizes(op, 1, "1:64").length, dataRows(r.out()).size(), r.out());
    }

    @ParameterizedTest(name = "{0} --algorithm {1} on {2} ranks")
    @CsvSource({"allreduce, ring, 3", "allreduce, rabenseifner, 4", "allreduce, linear, 2",
        "bcast, scatter_allgather, 3", "alltoall, bruck, 4", "allgather, ring, 3",
        "reduce_scatter_block, recursive_halving, 3", "barrier, linear, 3", "scan, linear, 4",
        "allreduce_init, ring, 3", "alltoall_init, bruck, 4", "alltoall_channel, bruck, 3"})
    void shouldRunAForcedAlgorithmAndNameItInTheTitle(final String op, final String algorithm, final int ranks,
        @TempDir final Path dir) throws Exception {
        final Path csv = dir.resolve("out.csv");
        final Run r = bench(op, ranks, "1:4096", "--algorithm", algorithm, "--csv", csv.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().split("\\R")[0].endsWith("ranks=" + ranks + " algorithm=" + algorithm), r.out());
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(CsvWriter.HEADER, lines.get(0));
        final int[] expected = expectedSizes(op, ranks, "1:4096");
        assertEquals(expected.length + 1, lines.size(), lines.toString());
        for (int i = 0; i < expected.length; i++) {
            final String[] f = lines.get(i + 1).split(",");
            assertEquals(List.of("tutti-inproc", op, Integer.toString(ranks), Integer.toString(expected[i])),
                Arrays.asList(f).subList(0, 4));
        }
    }

    @Test
    void shouldRunACollectiveOverTcpProcessesWithAForcedAlgorithm(@TempDir final Path dir) throws Exception {
        final Path csv = dir.resolve("tcp.csv");
        final Run r = bench("allreduce", 2, "4:256", "--transport", "tcp", "--algorithm", "ring", "--csv",
            csv.toString());
        assertEquals(0, r.exitCode(), r.err());
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(CsvWriter.HEADER, lines.get(0));
        assertEquals(8, lines.size(), lines.toString());
        for (int i = 1; i < lines.size(); i++) {
            final String[] f = lines.get(i).split(",");
            assertEquals(List.of("tutti-tcp", "allreduce", "2", Integer.toString(2 << i)),
                Arrays.asList(f).subList(0, 4));
            assertTrue(Double.parseDouble(f[4]) > 0, lines.get(i));
        }
    }

    @Test
    void shouldFailLoudlyWhenACollectiveResultIsWrong() {
        final BenchSpec spec = new BenchSpec("allreduce", 2, BenchTransport.INPROC, null, new SizeRange(16, 16), 1,
            0, 0, false, null, 0, false);
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2,
            Tutti.Options.defaults().timeout(Duration.ofSeconds(30)),
            world -> BenchRunner.run(world, spec, new SkippingAllreduce(), null)));
        Throwable c = e;
        while (null != c && !(c instanceof BenchmarkException)) {
            c = c.getCause();
        }
        assertTrue(null != c, BenchCommand.describe(e));
        assertTrue(c.getMessage().startsWith("allreduce verify failed (rank="), c.getMessage());
        assertTrue(c.getMessage().contains("element 0 (element 0 of the vector) is -1.0, expected 3.0"),
            c.getMessage());
    }

    @Test
    void shouldSeparateTimedCallsByABarrierUnlessBackToBack() {
        final int[] separations = new int[2];
        Tutti.runLocal(1, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), world -> {
            for (int k = 0; k < 2; k++) {
                final int which = k;
                final CollectiveBenchmark b = new Reduction(Reduction.Kind.ALLREDUCE) {
                    @Override
                    protected void separate(final Communicator w) {
                        separations[which]++;
                    }
                };
                if (1 == k) {
                    b.backToBack();
                }
                b.allocate(world, 8);
                b.prepare(world, 8);
                b.measure(world, 8, 5, 2, null);
            }
        });
        assertEquals(7, separations[0], "a barrier after each of the warm-up and timed calls");
        assertEquals(0, separations[1], "back to back: none");
    }

    /** An allreduce benchmark whose call does nothing: its check must find the untouched result buffer. */
    private static final class SkippingAllreduce extends CollectiveBenchmark {
        private final Reduction real = new Reduction(Reduction.Kind.ALLREDUCE);

        @Override
        public String op() {
            return real.op();
        }

        @Override
        public void allocate(final Communicator world, final int maxBytes) {
            real.allocate(world, maxBytes);
        }

        @Override
        public void prepare(final Communicator world, final int bytes) {
            real.prepare(world, bytes);
        }

        @Override
        protected void invoke(final Communicator world, final int bytes) {
            // Deliberately no allreduce.
        }

        @Override
        public void verify(final Communicator world, final int bytes) {
            real.verify(world, bytes);
        }
    }
}
