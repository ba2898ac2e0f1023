package dev.tutti.bench.plot;

import java.util.List;

/**
 * What one chart shows: a title and panels stacked over one message-size axis.
 *
 * @param title  the chart's title
 * @param xLabel the x axis's label
 * @param panels the panels, top to bottom
 */
public record Figure(String title, String xLabel, List<Panel> panels) {
    /**
     * Checks the figure.
     *
     * @throws IllegalArgumentException if it has no panel
     */
    public Figure {
        panels = List.copyOf(panels);
        if (panels.isEmpty()) {
            throw new IllegalArgumentException("plot " + title + ": no panel, expected at least one");
        }
    }

    /** @return the names of every series, panel by panel */
    public List<String> seriesNames() {
        return panels.stream().flatMap(p -> p.series().stream()).map(Series::name).toList();
    }
}
