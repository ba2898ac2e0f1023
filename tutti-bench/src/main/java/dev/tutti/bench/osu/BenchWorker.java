package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.mpi.JoinedRank;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * One rank of a multi-process benchmark ({@code --transport tcp}): joins the job with {@link Tutti#init()}, runs
 * the same {@link BenchRunner} as the in-process mode, and at rank 0 prints the table and writes the CSV. Started
 * by {@link BenchCommand} through a {@link WorkerLauncher}, or by hand under {@code tutti run}:
 * {@code tutti run -n 2 -- java -cp ... dev.tutti.bench.osu.BenchWorker pingpong -n 2 --transport tcp}.
 *
 * <p>Takes the same arguments as {@code tutti bench}; {@code -n} must equal the job size.
 */
public final class BenchWorker {
    @Mixin
    private final BenchOptions options = new BenchOptions();

    private BenchWorker() {
    }

    /**
     * Runs this rank and exits: 0 on success, 1 if the benchmark failed, 2 for bad arguments.
     *
     * @param args the arguments of {@code tutti bench}
     */
    public static void main(final String[] args) {
        final BenchWorker worker = new BenchWorker();
        final BenchSpec spec;
        try {
            new CommandLine(worker).parseArgs(args);
            spec = worker.options.toSpec();
        } catch (final ParameterException | IllegalArgumentException e) {
            System.err.println("BenchWorker: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(spec, System.out, System.err));
    }

    /**
     * Runs this rank of the job.
     *
     * @param spec the run
     * @param out  where rank 0 prints the table
     * @param err  where a failure is reported
     * @return 0 on success, 1 on failure
     */
    static int run(final BenchSpec spec, final PrintStream out, final PrintStream err) {
        final Tutti tutti;
        final OsuBenchmark bench;
        try {
            bench = Benchmarks.create(spec.op());
            spec.checkFits(bench);
            // The transport under test: tcp even between ranks of one host, or shm (auto would pick shm locally).
            System.setProperty(dev.tutti.internal.Settings.TRANSPORT.name(), spec.transport().label());
            tutti = Tutti.init(spec.tuttiOptions());
        } catch (final RuntimeException e) {
            err.println("BenchWorker " + spec.op() + ": " + BenchCommand.describe(e));
            return 1;
        }
        final Communicator world = tutti.world();
        JoinedRank.use(tutti); // the mpi-* benchmarks' MPI.Init uses this rank's handle instead of joining again
        try {
            if (world.size() != spec.ranks()) {
                throw new BenchmarkException("BenchWorker " + spec.op() + " (rank=" + world.rank() + "): job size="
                    + world.size() + " but -n " + spec.ranks() + ", expected equal (start it with tutti bench "
                    + "--transport tcp or tutti run -n " + spec.ranks() + ")");
            }
            final PrintWriter table = new PrintWriter(out, true, StandardCharsets.UTF_8);
            try (Report report = 0 == world.rank() ? Report.open(table, spec, bench, Progress.none()) : null) {
                BenchRunner.run(world, spec, bench, report);
            }
        } catch (final RuntimeException e) {
            // Not closing: close() waits for every rank, and a failed rank's peers may never get there.
            err.println("BenchWorker " + spec.op() + " (rank=" + world.rank() + ") failed: "
                + BenchCommand.describe(e));
            return 1;
        }
        tutti.close();
        return 0;
    }
}
