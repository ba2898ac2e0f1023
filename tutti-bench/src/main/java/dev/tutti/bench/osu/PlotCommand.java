package dev.tutti.bench.osu;

import dev.tutti.bench.plot.ChartFiles;
import dev.tutti.bench.plot.Charts;
import dev.tutti.bench.plot.Figure;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code tutti bench plot}: draws the curves of benchmark CSVs ({@code tutti bench --csv}, {@code bench/compare.sh}'s
 * runs or its {@code merged.csv}) as OSU-style log-log charts, one per (operation, ranks) with one curve per
 * implementation, and the ratio Tutti / Open MPI below where both are present ({@link BenchPlots}).
 *
 * <pre>
 * tutti bench plot -o allreduce.png /tmp/allreduce.csv         # one chart, or a grid of them, in one file
 * tutti bench plot -o plots --format svg bench/results/X/merged.csv  # plots/allreduce-2.svg, ... one per operation
 * </pre>
 *
 * <p>Prints the path of each file written. Exit codes: 0 success, 1 a file could not be read or written, 2 bad
 * arguments (a CSV that is not of the format among them).
 */
@Command(name = "plot", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Draw benchmark CSVs (impl,op,ranks,bytes,avg_us) as log-log charts: one per operation and number "
        + "of ranks, one curve per implementation, and the time ratio Tutti / Open MPI below where both ran.")
public final class PlotCommand implements Callable<Integer> {
    @Spec
    private CommandSpec commandSpec;

    @Option(names = {"-o", "--out"}, required = true, paramLabel = "FILE.png|FILE.svg|DIR",
        description = "A .png or .svg file: every chart in it (a grid if several); else a directory that gets one "
            + "file per operation and number of ranks, OP-RANKS.png (or .svg with --format svg).")
    Path out;

    @Option(names = "--format", paramLabel = "png|svg", defaultValue = "png",
        description = "The format of the files written into a directory (default: ${DEFAULT-VALUE}).")
    String format;

    @Parameters(arity = "1..*", paramLabel = "CSV", description = "The CSV files (rows of one size in several "
        + "files or runs are drawn as their median).")
    List<Path> csvs;

    @Override
    public Integer call() {
        final ChartFiles.Format dirFormat;
        try {
            dirFormat = ChartFiles.Format.valueOf(format.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(commandSpec.commandLine(), "--format " + format + ", expected png or svg", e);
        }
        final Map<BenchPlots.Group, Figure> figures;
        try {
            figures = BenchPlots.figures(CsvReader.read(csvs));
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(commandSpec.commandLine(), e.getMessage(), e);
        } catch (final UncheckedIOException e) {
            return failed(e);
        }
        final PrintWriter stdout = commandSpec.commandLine().getOut();
        try {
            if (isFile(out)) {
                ChartFiles.write(out, figures.values().stream().map(Charts::chart).toList());
                stdout.println(out);
            } else {
                for (final Map.Entry<BenchPlots.Group, Figure> e : figures.entrySet()) {
                    final Path file = out.resolve(e.getKey().fileName() + dirFormat.extension());
                    ChartFiles.write(file, List.of(Charts.chart(e.getValue())));
                    stdout.println(file);
                }
            }
        } catch (final UncheckedIOException e) {
            return failed(e);
        }
        stdout.flush();
        return 0;
    }

    /** @return whether {@code path} names a chart file (by its extension) rather than a directory */
    static boolean isFile(final Path path) {
        final String name = String.valueOf(path.getFileName()).toLowerCase(Locale.ROOT);
        return name.endsWith(ChartFiles.Format.PNG.extension()) || name.endsWith(ChartFiles.Format.SVG.extension());
    }

    private int failed(final UncheckedIOException e) {
        final PrintWriter err = commandSpec.commandLine().getErr();
        err.println("tutti bench plot failed: " + e.getMessage());
        err.flush();
        return 1;
    }
}
