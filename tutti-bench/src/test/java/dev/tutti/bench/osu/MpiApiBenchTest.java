package dev.tutti.bench.osu;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mpi layer's benchmarks ({@code mpi-pingpong}, {@code mpi-allreduce}): tiny runs through {@code tutti bench}
 * whose CSV rows carry the Tutti op and the impl {@code tutti-mpi-<transport>} (what bench/merge.py pairs with
 * {@code tutti-<transport>}), with the data checked as in the Tutti benchmarks, with ranks as threads and as
 * processes (whose {@code MPI.Init} uses the handle the bench worker joined with, see
 * {@code dev.tutti.mpi.JoinedRank}).
 */
// Runs alone (@Isolated): its MPI programs call MPI.Init outside the mpi layer's test harness, so they use its
// process-wide state; beside another class's job, one such program hung and another read a foreign job's data.
@Isolated
@Timeout(120)
class MpiApiBenchTest {

    private static int bench(final StringWriter err, final String... args) {
        final CommandLine cl = new CommandLine(new BenchCommand());
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @ParameterizedTest
    @CsvSource({"mpi-pingpong, pingpong, 2, inproc", "mpi-allreduce, allreduce, 3, inproc",
        "mpi-pingpong, pingpong, 2, shm", "mpi-allreduce, allreduce, 2, tcp"})
    void shouldWriteRowsOfTheTuttiOpForTheMpiImpl(final String name, final String op, final int ranks,
        final String transport, @TempDir final Path dir) throws Exception {
        final Path csv = dir.resolve("out.csv");
        final StringWriter err = new StringWriter();
        assertEquals(0, bench(err, name, "-n", Integer.toString(ranks), "-m", "4:64", "-i", "3", "-x", "1",
            "--jit-warmup", "0", "--transport", transport, "--csv", csv.toString()), err.toString());
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(CsvWriter.HEADER, lines.get(0));
        assertEquals(6, lines.size(), lines.toString()); // 4 .. 64 bytes
        for (int i = 1; i < lines.size(); i++) {
            final String[] f = lines.get(i).split(",");
            assertEquals("tutti-mpi-" + transport, f[0]);
            assertEquals(op, f[1]);
            assertEquals(ranks, Integer.parseInt(f[2]));
            assertEquals(4 << (i - 1), Integer.parseInt(f[3]));
            assertTrue(Double.parseDouble(f[4]) > 0, lines.get(i));
        }
    }
}
