package dev.tutti.bench.plot;

import java.util.List;

/**
 * One panel of a figure: curves on a logarithmic y axis that share the figure's logarithmic x axis (message size).
 * A ratio panel has a line at 1 and a base-2 axis (0.5, 1, 2, ...), so that a ratio and its inverse lie at the same
 * distance from it.
 *
 * @param yLabel the y axis's label
 * @param series the curves, drawn in this order (the first gets the first colour)
 * @param ratio  whether the values are ratios
 * @param weight the panel's share of the figure's height, relative to the other panels'
 */
public record Panel(String yLabel, List<Series> series, boolean ratio, int weight) {
    /**
     * Checks the panel.
     *
     * @throws IllegalArgumentException if it has no series or a weight below 1
     */
    public Panel {
        series = List.copyOf(series);
        if (series.isEmpty()) {
            throw new IllegalArgumentException("plot panel " + yLabel + ": no series, expected at least one");
        }
        if (weight < 1) {
            throw new IllegalArgumentException("plot panel " + yLabel + ": weight=" + weight + ", expected >= 1");
        }
    }
}
