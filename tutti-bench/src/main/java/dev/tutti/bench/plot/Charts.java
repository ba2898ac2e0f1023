package dev.tutti.bench.plot;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.text.DecimalFormat;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@link Figure} into a JFreeChart chart: one XY plot per panel, stacked over a shared base-2 logarithmic
 * message-size axis (ticks as 1, 64, 4K, 1M), each with a logarithmic y axis, white background, light grid, and
 * one legend below.
 *
 * <p>Colours follow the series' key, the name up to its first {@code /} or space: a curve {@code tutti-shm} and
 * the ratio {@code tutti-shm/openmpi-vader} get the same colour in every panel of a figure. Keys that start with
 * {@code openmpi} are drawn dashed, so the reference is told apart without colour. Points with a y value that is
 * or size that is not positive (a log axis cannot show them) are left out.
 */
public final class Charts {
    /** Colours in order of first use of a key (colour-blind-safe, after Okabe and Ito). */
    private static final Color[] PALETTE = {new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73),
        new Color(0xCC79A7), new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0xF0E442)};
    private static final Color GRID = new Color(0xDDDDDD);
    private static final BasicStroke SOLID = new BasicStroke(2.0f);
    private static final BasicStroke DASHED = new BasicStroke(2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND,
        1.0f, new float[] {6.0f, 4.0f}, 0.0f);
    /** The size axis reaches this factor beyond the smallest and largest size, so no point sits on its edge. */
    private static final double MARGIN = 1.3;
    /** A y axis reaches this factor beyond its end ticks, so that both are drawn. */
    private static final double EDGE = 1.05;
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 16);

    private Charts() {
    }

    /**
     * Builds the chart of a figure.
     *
     * @param figure what to draw
     * @return the chart
     */
    public static JFreeChart chart(final Figure figure) {
        ChartFiles.headless();
        final LogAxis sizes = new LogAxis(figure.xLabel());
        sizes.setBase(2);
        sizes.setNumberFormatOverride(new SizeFormat());
        sizes.setMinorTickMarksVisible(false);
        sizes.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        final double[] x = extent(figure.panels().stream().flatMap(p -> p.series().stream()).toList(), true);
        if (null != x) {
            sizes.setRange(x[0] / MARGIN, x[1] * MARGIN);
        }
        final CombinedDomainXYPlot combined = new CombinedDomainXYPlot(sizes);
        combined.setGap(12.0);
        final Map<String, Color> colours = new LinkedHashMap<>();
        for (final Panel p : figure.panels()) {
            combined.add(plot(p, colours), p.weight());
        }
        final JFreeChart chart = new JFreeChart(figure.title(), TITLE_FONT, combined, true);
        chart.setBackgroundPaint(Color.WHITE);
        final LegendTitle legend = chart.getLegend();
        legend.setPosition(RectangleEdge.BOTTOM);
        legend.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static XYPlot plot(final Panel panel, final Map<String, Color> colours) {
        final XYSeriesCollection data = new XYSeriesCollection();
        final XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        int i = 0;
        for (final Series s : panel.series()) {
            final XYSeries xy = new XYSeries(s.name(), false, false);
            final double[] xs = s.xs();
            final double[] ys = s.ys();
            for (int k = 0; k < xs.length; k++) {
                if (xs[k] > 0 && ys[k] > 0 && Double.isFinite(ys[k])) {
                    xy.add(xs[k], ys[k]);
                }
            }
            data.addSeries(xy);
            final String key = key(s.name());
            renderer.setSeriesPaint(i, colours.computeIfAbsent(key, k -> PALETTE[colours.size() % PALETTE.length]));
            renderer.setSeriesStroke(i, key.startsWith("openmpi") ? DASHED : SOLID);
            i++;
        }
        final LogAxis y = new LogAxis(panel.yLabel());
        y.setBase(panel.ratio() ? 2 : 10);
        y.setNumberFormatOverride(new DecimalFormat("#,##0.###"));
        y.setMinorTickMarksVisible(!panel.ratio());
        y.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        final double[] extent = extent(panel.series(), false);
        if (null != extent) {
            // Whole powers at both ends, so that the axis has a labelled tick at each; a ratio axis spans at least
            // 1/2 to 2, so that its line at 1 is inside and a small difference does not look large.
            final double base = y.getBase();
            final double low = Math.pow(base, Math.floor(Math.log(extent[0]) / Math.log(base) + 1e-9));
            final double high = Math.pow(base, Math.ceil(Math.log(extent[1]) / Math.log(base) - 1e-9));
            // (EDGE: a little beyond them, so that rounding does not drop the end ticks)
            y.setRange((panel.ratio() ? Math.min(0.5, low) : low) / EDGE,
                (panel.ratio() ? Math.max(2.0, high) : Math.max(high, low * base)) * EDGE);
        }
        final XYPlot plot = new XYPlot(data, null, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(GRID);
        plot.setRangeGridlinePaint(GRID);
        if (panel.ratio()) {
            final ValueMarker one = new ValueMarker(1.0, Color.GRAY, new BasicStroke(1.0f));
            plot.addRangeMarker(one);
        }
        return plot;
    }

    /**
     * @param series the series
     * @param ofX    whether of the x values (else of the y values)
     * @return the least and greatest positive finite value of the points that are drawn, or null if none is
     */
    private static double[] extent(final List<Series> series, final boolean ofX) {
        double low = Double.POSITIVE_INFINITY;
        double high = 0;
        for (final Series s : series) {
            final double[] xs = s.xs();
            final double[] ys = s.ys();
            for (int k = 0; k < xs.length; k++) {
                final double v = ofX ? xs[k] : ys[k];
                if (xs[k] > 0 && ys[k] > 0 && Double.isFinite(ys[k])) {
                    low = Math.min(low, v);
                    high = Math.max(high, v);
                }
            }
        }
        return high > 0 ? new double[] {low, high} : null;
    }

    /** @return the part of a series name that picks its colour: up to the first {@code /} or space */
    static String key(final String name) {
        int end = name.length();
        for (final char c : new char[] {'/', ' '}) {
            final int at = name.indexOf(c);
            if (at > 0 && at < end) {
                end = at;
            }
        }
        return name.substring(0, end);
    }

    /**
     * Formats message sizes in bytes as OSU's tables are read: {@code 1}, {@code 512}, {@code 4K}, {@code 1M}
     * (binary multiples; a size that is no whole multiple keeps its bytes).
     */
    static final class SizeFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;
        private static final List<String> UNITS = List.of("", "K", "M", "G", "T");

        @Override
        public StringBuffer format(final double number, final StringBuffer to, final FieldPosition pos) {
            final long bytes = Math.round(number);
            if (Math.abs(number - bytes) > 1e-6 * Math.max(1, Math.abs(number))) {
                return to.append(new DecimalFormat("0.##").format(number));
            }
            return format(bytes, to, pos);
        }

        @Override
        public StringBuffer format(final long number, final StringBuffer to, final FieldPosition pos) {
            long v = number;
            int unit = 0;
            while (0 != v && 0 == v % 1024 && unit < UNITS.size() - 1) {
                v /= 1024;
                unit++;
            }
            return to.append(v).append(UNITS.get(unit));
        }

        @Override
        public Number parse(final String source, final ParsePosition pos) {
            throw new UnsupportedOperationException("SizeFormat only formats");
        }
    }
}
