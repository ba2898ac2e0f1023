package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
    void shouldParseEveryOption() {
        final BenchSpec s = parse("bandwidth", "-n", "4", "--transport", "TCP", "--csv", "out.csv", "-m", "1:4096",
            "-i", "7", "-x", "3", "--jit-warmup", "0", "--percentiles", "--timeout", "30");
        assertEquals(new BenchSpec("bandwidth", 4, BenchTransport.TCP, Path.of("out.csv"), new SizeRange(1, 4096), 7,
            3, 0, true, null, 30), s);
        assertEquals("tutti-tcp", s.impl());
        final IterationDefaults d = new Bandwidth().defaults();
        assertEquals(7, s.iterations(1 << 20, d));
        assertEquals(3, s.warmup(1, d));
        assertEquals(200, parse("bandwidth", "-x", "3").jitWarmup(d));
        assertEquals(0, s.jitWarmup(d));
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
            List.of("allreduce"), List.of("nosuchop"),
            List.of("pingpong", "--algorithm", "ring"), List.of())) {
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
        final StringWriter err = new StringWriter();
        final CommandLine cl = new CommandLine(new BenchCommand());
        cl.setErr(new PrintWriter(err));
        cl.execute("allreduce");
        assertTrue(err.toString().contains("op=allreduce is not a benchmark (allreduce comes with the collectives)"
            + ", expected one of pingpong, bandwidth"), err.toString());
    }
}
