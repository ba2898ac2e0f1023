/**
 * OSU-style benchmarks ({@code tutti bench}): the tables of the OSU Micro-Benchmarks, CSV rows
 * {@code impl,op,ranks,bytes,avg_us} for the comparison with Open MPI ({@code bench/compare.sh}), and HdrHistogram
 * percentiles.
 *
 * <p>Layout. {@link dev.tutti.bench.osu.BenchCommand} parses the command line ({@link
 * dev.tutti.bench.osu.BenchOptions}) into a {@link dev.tutti.bench.osu.BenchSpec} and runs the ranks either as
 * threads of this JVM ({@code --transport inproc}) or as processes ({@code --transport tcp}: {@link
 * dev.tutti.bench.osu.BenchWorker} started by a {@link dev.tutti.bench.osu.WorkerLauncher}). Each rank runs {@link
 * dev.tutti.bench.osu.BenchRunner}, which drives one {@link dev.tutti.bench.osu.OsuBenchmark} over the sizes.
 * Adding an operation is one subclass ({@link dev.tutti.bench.osu.CollectiveBenchmark} for collectives) and one
 * line in {@link dev.tutti.bench.osu.Benchmarks}. {@link dev.tutti.bench.osu.PlotCommand} ({@code tutti bench plot})
 * and {@code --plot} draw the CSV rows ({@link dev.tutti.bench.osu.BenchPlots}) with {@code dev.tutti.bench.plot}.
 *
 * <p>Layer: a tool on top of the public API ({@code dev.tutti}); it may also use picocli, HdrHistogram and
 * {@code dev.tutti.bench.plot} (JFreeChart). It
 * prints (that is its job) but only the command classes decide exit codes.
 */
package dev.tutti.bench.osu;
