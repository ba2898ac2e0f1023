package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOptionsTest {

    private static BenchSpec parse(final String... args) {
        final BenchOptions o = new BenchOptions();
        new CommandLine(o).parseArgs(args);
        return o.toSpec();
    }

    @Test
    void shouldApplyDefaults() {
        final BenchSpec s = parse("pingpong");
        assertEquals("pingpong", s.op());
        assertEquals(2, s.ranks());
        assertEquals(BenchTransport.INPROC, s.transport());
        assertEquals("tutti-inproc", s.impl());
        assertEquals(SizeRange.DEFAULT, s.sizes());
        assertNull(s.csv());
        assertFalse(s.percentiles());
        assertNull(s.algorithm());
        final IterationDefaults d = new PingPong().defaults();
        assertEquals(10_000, s.iterations(8192, d));
        assertEquals(1_000, s.warmup(8192, d));
        assertEquals(1_000, s.iterations(8193, d));
        assertEquals(100, s.warmup(8193, d));
        assertEquals(20_000, s.jitWarmup(d));
    }

    @Test
    void shouldTakeBackToBackForCollectivesOnly() {
        final BenchSpec s = parse("allreduce", "--back-to-back");
        assertTrue(s.backToBack());
        assertTrue(s.toArgs().contains("--back-to-back"), s.toArgs().toString());
        s.checkFits(Benchmarks.create("allreduce"));
        final BenchSpec p = parse("pingpong", "--back-to-back");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> p.checkFits(Benchmarks.create("pingpong")));
        assertTrue(e.getMessage().startsWith("--back-to-back: pingpong is no collective"), e.getMessage());
    }

    @Test
    void shouldParseEveryOption() {
        final BenchSpec s = parse("bandwidth", "-n", "4", "--transport", "TCP", "--csv", "out.csv", "-m", "1:4096",
            "-i", "7", "-x", "3", "--jit-warmup", "0", "--percentiles", "--timeout", "30");
        assertEquals(new BenchSpec("bandwidth", 4, BenchTransport.TCP, Path.of("out.csv"), new SizeRange(1, 4096), 7,
            3, 0, true, null, 30, false), s);
        assertEquals("tutti-tcp", s.impl());
        final IterationDefaults d = new Bandwidth().defaults();
        assertEquals(7, s.iterations(1 << 20, d));
        assertEquals(3, s.warmup(1, d));
        assertEquals(200, parse("bandwidth", "-x", "3").jitWarmup(d));
        assertEquals(0, s.jitWarmup(d));
    }

    @Test
    void shouldTakeCompareShsQuickSizesAndIterationsUnlessToldOtherwise() {
        final IterationDefaults d = new PingPong().defaults();
        final BenchSpec quick = parse("pingpong", "--quick");
        assertEquals(new SizeRange(8, 1 << 20), quick.sizes());
        assertEquals(200, quick.iterations(8, d));
        assertEquals(20, quick.warmup(1 << 20, d));
        assertEquals(0, quick.jitWarmup(d));
        assertEquals(quick, parse(quick.toArgs().toArray(String[]::new)));

        final BenchSpec told = parse("pingpong", "--quick", "-m", "1:64", "-i", "9", "-x", "2", "--jit-warmup", "5");
        assertEquals(new SizeRange(1, 64), told.sizes());
        assertEquals(9, told.iterations(8, d));
        assertEquals(2, told.warmup(8, d));
        assertEquals(5, told.jitWarmup(d));
    }

    @Test
    void shouldRoundTripThroughWorkerArguments() {
        final BenchSpec s = parse("pingpong", "-n", "3", "--transport", "tcp", "--csv", "/tmp/x.csv", "-m", "4:64",
            "-i", "5", "-x", "0", "--jit-warmup", "11", "--percentiles", "--algorithm", "ring", "--timeout", "9");
        assertEquals(s, parse(s.toArgs().toArray(String[]::new)));
        final BenchSpec plain = parse("bandwidth");
        assertEquals(plain, parse(plain.toArgs().toArray(String[]::new)));
    }

    @Test
    void shouldExitWithUsageErrorForBadValues() {
        for (final List<String> args : List.<List<String>>of(List.of("pingpong", "--transport", "udp"),
            List.of("pingpong", "-m", "9:3"), List.of("pingpong", "-n", "1"), List.of("pingpong", "-i", "0"),
            List.of("pingpong", "-x", "-1"), List.of("pingpong", "-i", "-1"), List.of("pingpong", "--jit-warmup", "-1"),
            List.of("nosuchop"), List.of("pingpong", "--algorithm", "ring"), List.of("allreduce", "--algorithm",
                "nosuch"), List.of("allreduce", "-m", "1:2"), List.of("reduce_scatter_block", "-n", "4", "-m", "8"),
            List.of("barrier", "-n", "0"), List.of())) {
            final StringWriter err = new StringWriter();
            final CommandLine cl = new CommandLine(new BenchCommand());
            cl.setErr(new PrintWriter(err));
            cl.setOut(new PrintWriter(new StringWriter()));
            assertEquals(2, cl.execute(args.toArray(String[]::new)), args + ": " + err);
            assertTrue(err.toString().contains("Usage: bench"), args + ": " + err);
        }
    }

    @Test
    void shouldNameTheProblemInTheMessage() {
        assertTrue(usageError("allreduc").contains("op=allreduc is not a benchmark, expected one of pingpong, "
            + "bandwidth, barrier, bcast, gather, gatherv, scatter, scatterv, allgather, allgatherv, alltoall, "
            + "alltoallv, alltoallw, alltoall_init, alltoall_channel, reduce, allreduce, reduce_scatter, "
            + "reduce_scatter_block, scan, exscan, allreduce_init, mpi-pingpong, mpi-allreduce"));
    }

    @Test
    void shouldListTheValidAlgorithmsOfAnUnknownOne() {
        final String err = usageError("allreduce", "--algorithm", "butterfly");
        assertTrue(err.contains("--algorithm butterfly: unknown algorithm 'butterfly' for allreduce, expected one of "
            + "[linear, recursive_doubling, allgather_reduce, rabenseifner, ring, hierarchical]"), err);
        assertTrue(usageError("bcast", "--algorithm", "ring").contains("expected one of [linear, binomial, "
            + "scatter_allgather, hierarchical]"));
    }

    @Test
    void shouldAcceptKnownAlgorithmsInShortOrFullForm() {
        for (final List<String> args : List.of(List.of("allreduce", "--algorithm", "ring"),
            List.of("allreduce", "--algorithm", "ALLREDUCE_RABENSEIFNER"), List.of("barrier", "--algorithm", "auto"),
            List.of("reduce_scatter_block", "--algorithm", "recursive_halving"))) {
            final BenchSpec s = parse(args.toArray(String[]::new));
            s.checkFits(Benchmarks.create(s.op()));
            assertEquals(Map.of(s.op(), args.get(2)), s.tuttiOptions().algorithms(), args.toString());
        }
        assertEquals(Map.of(), parse("allreduce").tuttiOptions().algorithms());
    }

    @Test
    void shouldForceThePerCallCollectivesAlgorithmForPersistentAndChannelForms() {
        for (final List<String> args : List.of(List.of("allreduce_init", "allreduce", "ring"),
            List.of("alltoall_init", "alltoall", "bruck"), List.of("alltoall_channel", "alltoall", "pairwise"))) {
            final BenchSpec s = parse(args.get(0), "--algorithm", args.get(2));
            s.checkFits(Benchmarks.create(s.op()));
            assertEquals(Map.of(args.get(1), args.get(2)), s.tuttiOptions().algorithms(), args.toString());
        }
        assertTrue(usageError("allreduce_init", "--algorithm", "bruck").contains("unknown algorithm 'bruck' for "
            + "allreduce, expected one of [linear, recursive_doubling, allgather_reduce, rabenseifner, ring, "
            + "hierarchical]"));
    }

    @Test
    void shouldRegisterEveryCollectiveUnderItsMpiName() {
        final List<String> collectives = List.of("barrier", "bcast", "gather", "gatherv", "scatter", "scatterv",
            "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce", "allreduce", "reduce_scatter",
            "reduce_scatter_block", "scan", "exscan");
        for (final String op : collectives) {
            final OsuBenchmark b = Benchmarks.create(op);
            assertEquals(op, b.op());
            assertTrue(b.acceptsAlgorithm(), op);
            assertEquals(1, b.minRanks(), op);
        }
        assertEquals(ChannelAlltoall.OP, Benchmarks.create(ChannelAlltoall.OP).op());
        assertEquals("allreduce_init", Benchmarks.create("allreduce_init").op());
        assertEquals("alltoall_init", Benchmarks.create("alltoall_init").op());
        assertEquals("pingpong", Benchmarks.create(MpiPingPong.NAME).op());
        assertEquals("allreduce", Benchmarks.create(MpiAllreduce.NAME).op());
        assertEquals(2 + collectives.size() + 3 + 2, Benchmarks.names().size(), "pingpong, bandwidth, the "
            + "collectives, allreduce_init, alltoall_init, alltoall_channel, mpi-pingpong and mpi-allreduce");
    }

    private static String usageError(final String... args) {
        final StringWriter err = new StringWriter();
        final CommandLine cl = new CommandLine(new BenchCommand());
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        assertEquals(2, cl.execute(args), List.of(args) + ": " + err);
        return err.toString();
    }
}
