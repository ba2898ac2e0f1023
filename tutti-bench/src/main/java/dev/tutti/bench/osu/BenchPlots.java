package dev.tutti.bench.osu;

import dev.tutti.bench.plot.Charts;
import dev.tutti.bench.plot.Figure;
import dev.tutti.bench.plot.Panel;
import dev.tutti.bench.plot.Series;
import org.jfree.chart.JFreeChart;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The figures of benchmark rows: one per (operation, ranks), with OSU's metric on a log-log chart, one curve per
 * implementation (the median of its runs at each size), and, where the rows hold a Tutti implementation and the Open
 * MPI one it is compared with ({@link #PAIRS}, as {@code bench/merge.py} pairs them), a panel below of the time ratio
 * Tutti / Open MPI per size (above 1: Tutti takes longer).
 */
final class BenchPlots {
    /** (Tutti implementation, Open MPI implementation) compared in the ratio panel, as in {@code merge.py}. */
    static final List<List<String>> PAIRS = List.of(List.of("tutti-shm", "openmpi-vader"),
        List.of("tutti-inproc", "openmpi-vader"), List.of("tutti-tcp", "openmpi-tcp"),
        List.of("tutti-mpi-shm", "openmpi-vader"), List.of("tutti-mpi-inproc", "openmpi-vader"),
        List.of("tutti-mpi-tcp", "openmpi-tcp"));
    /** Curves in this order (as {@code merge.py}'s columns); others follow by name. */
    static final List<String> IMPL_ORDER = List.of("openmpi-vader", "tutti-shm", "tutti-mpi-shm", "tutti-inproc",
        "tutti-mpi-inproc", "openmpi-tcp", "tutti-tcp", "tutti-mpi-tcp");
    static final String SIZE_LABEL = "Message size (bytes)";
    static final String RATIO_LABEL = "Time Tutti / Open MPI";

    private BenchPlots() {
    }

    /** An (operation, ranks) group of rows: one figure. */
    record Group(String op, int ranks) {
        /** @return a file name for the group's figure, without extension: {@code allreduce-4} */
        String fileName() {
            return op + "-" + ranks;
        }
    }

    /**
     * The figures of rows, one per (operation, ranks), in the order of {@link Benchmarks#names()} (others by name),
     * then of ranks.
     *
     * <p>Rows of size 0 (a barrier's) are left out: a log axis cannot show them.
     *
     * @param rows the rows
     * @return each group's figure
     * @throws IllegalArgumentException if no row has a size above 0
     */
    static Map<Group, Figure> figures(final List<CsvReader.Row> rows) {
        final List<String> opOrder = List.copyOf(Benchmarks.names());
        final Map<Group, List<CsvReader.Row>> groups = rows.stream().filter(r -> r.bytes() > 0)
            .collect(Collectors.groupingBy(r -> new Group(r.op(), r.ranks()), () -> new TreeMap<>(Comparator
                .comparingInt((Group g) -> opOrder.contains(g.op()) ? opOrder.indexOf(g.op()) : opOrder.size())
                .thenComparing(Group::op).thenComparingInt(Group::ranks)), Collectors.toList()));
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("plot: " + rows.size() + " rows and none of a size above 0 bytes, "
                + "expected rows of an operation that moves data (a barrier's have no size to plot)");
        }
        final Map<Group, Figure> figures = new LinkedHashMap<>();
        groups.forEach((g, rs) -> figures.put(g, figure(g, rs)));
        return figures;
    }

    /**
     * The charts of rows ({@link #figures}).
     *
     * @param rows the rows
     * @return one chart per (operation, ranks)
     */
    static List<JFreeChart> charts(final List<CsvReader.Row> rows) {
        return figures(rows).values().stream().map(Charts::chart).toList();
    }

    private static Figure figure(final Group g, final List<CsvReader.Row> rows) {
        final Metric metric = metric(g.op());
        // impl -> bytes -> median avg_us
        final Map<String, TreeMap<Long, Double>> medians = new TreeMap<>(Comparator
            .comparingInt((String impl) -> IMPL_ORDER.contains(impl) ? IMPL_ORDER.indexOf(impl) : IMPL_ORDER.size())
            .thenComparing(impl -> impl));
        rows.stream().collect(Collectors.groupingBy(CsvReader.Row::impl, Collectors.groupingBy(CsvReader.Row::bytes,
            TreeMap::new, Collectors.mapping(CsvReader.Row::avgUs, Collectors.toList()))))
            .forEach((impl, bySize) -> {
                final TreeMap<Long, Double> m = new TreeMap<>();
                bySize.forEach((bytes, values) -> m.put(bytes, median(values)));
                medians.put(impl, m);
            });
        final List<Series> curves = new ArrayList<>();
        medians.forEach((impl, m) -> curves.add(series(impl, m, (bytes, us) -> metric.value((int) (long) bytes, us))));
        final List<Series> ratios = new ArrayList<>();
        for (final List<String> pair : PAIRS) {
            final TreeMap<Long, Double> tutti = medians.get(pair.get(0));
            final TreeMap<Long, Double> openmpi = medians.get(pair.get(1));
            if (null == tutti || null == openmpi) {
                continue;
            }
            final TreeMap<Long, Double> ratio = new TreeMap<>();
            tutti.forEach((bytes, us) -> {
                final Double reference = openmpi.get(bytes);
                if (null != reference && reference > 0) {
                    ratio.put(bytes, us / reference);
                }
            });
            if (!ratio.isEmpty()) {
                ratios.add(series(pair.get(0) + "/" + pair.get(1), ratio, (bytes, r) -> r));
            }
        }
        final List<Panel> panels = new ArrayList<>(List.of(new Panel(metric.header(), curves, false, 3)));
        if (!ratios.isEmpty()) {
            panels.add(new Panel(RATIO_LABEL, ratios, true, 1));
        }
        return new Figure(g.op() + ", " + g.ranks() + (1 == g.ranks() ? " rank" : " ranks"), SIZE_LABEL, panels);
    }

    /** @return the metric OSU shows for an operation: bandwidth for {@code bandwidth}, else latency */
    static Metric metric(final String op) {
        return Benchmarks.names().contains(op) ? Benchmarks.create(op).metric() : Metric.LATENCY;
    }

    private static Series series(final String name, final TreeMap<Long, Double> points,
        final java.util.function.BiFunction<Long, Double, Double> value) {
        final double[] xs = new double[points.size()];
        final double[] ys = new double[points.size()];
        int i = 0;
        for (final Map.Entry<Long, Double> e : points.entrySet()) {
            xs[i] = e.getKey();
            ys[i] = value.apply(e.getKey(), e.getValue());
            i++;
        }
        return new Series(name, xs, ys);
    }

    private static double median(final List<Double> values) {
        final double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        final int n = v.length;
        return 1 == n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
