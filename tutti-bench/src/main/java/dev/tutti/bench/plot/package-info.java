/**
 * Plots of benchmark curves: OSU-style log-log charts of time (or bandwidth) against message size, one series per
 * run or implementation, with an optional panel of ratios below, drawn by JFreeChart and written as PNG or as SVG
 * (Apache Batik's SVG generator).
 *
 * <p>Layout. A {@link dev.tutti.bench.plot.Figure} (title, stacked {@link dev.tutti.bench.plot.Panel}s of
 * {@link dev.tutti.bench.plot.Series}) says what to draw; {@link dev.tutti.bench.plot.Charts} turns it into a
 * chart, and {@link dev.tutti.bench.plot.ChartFiles} writes one or more charts to a file, in a grid. This package
 * knows nothing of benchmarks or of their CSV: {@code dev.tutti.bench.osu} builds the figures.
 *
 * <p>Layer: a tool; it uses JFreeChart and Batik's SVG generator, and AWT in headless mode (no display is needed or used).
 */
package dev.tutti.bench.plot;
