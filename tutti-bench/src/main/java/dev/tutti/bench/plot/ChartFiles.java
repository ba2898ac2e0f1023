package dev.tutti.bench.plot;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.text.TextUtils;
import org.apache.batik.svggen.SVGGraphics2D;
import org.w3c.dom.Document;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes charts to a PNG or SVG file, chosen by the file's extension; several charts go into one file as a grid of
 * at most {@value #COLUMNS} columns, each cell {@value #CELL_WIDTH} by {@value #CELL_HEIGHT} pixels (SVG: user
 * units).
 *
 * <p>SVG is written by Apache Batik's SVG generator. The title, the axes' labels and the legend are text elements;
 * the tick labels of the logarithmic axes may be drawn as outlines (JFreeChart lays them out as attributed text).
 *
 * <p>AWT runs headless: the property {@code java.awt.headless} is set to {@code true} before the first chart is
 * drawn unless the program set it, so that plotting works without a display (CI, ssh, a rank's JVM).
 */
public final class ChartFiles {
    /** Width of one chart. */
    public static final int CELL_WIDTH = 800;
    /** Height of one chart. */
    public static final int CELL_HEIGHT = 600;
    /** Most charts side by side in one file. */
    public static final int COLUMNS = 2;
    /** The namespace of SVG elements. */
    static final String SVG_NS = "http://www.w3.org/2000/svg";

    /** The formats, by file extension. */
    public enum Format {
        /** A PNG image. */
        PNG,
        /** An SVG document whose text (title, axes, legend) stays text. */
        SVG;

        /** @return the file extension, with its dot */
        public String extension() {
            return "." + name().toLowerCase(Locale.ROOT);
        }

        /**
         * The format of a file, by its extension.
         *
         * @param file the file
         * @param what what names the file in a message (e.g. {@code --plot})
         * @return its format
         * @throws IllegalArgumentException if the extension is neither {@code .png} nor {@code .svg}
         */
        public static Format of(final Path file, final String what) {
            final String name = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
            for (final Format f : values()) {
                if (name.endsWith(f.extension())) {
                    return f;
                }
            }
            throw new IllegalArgumentException(what + " " + file + ", expected a file name ending in .png or .svg");
        }
    }

    private ChartFiles() {
    }

    /**
     * Writes charts to a file, creating its directory if needed.
     *
     * @param file   the file; its extension gives the format ({@link Format#of})
     * @param charts the charts, filling the grid row by row
     * @throws IllegalArgumentException if the extension is neither {@code .png} nor {@code .svg}, or no chart is given
     * @throws UncheckedIOException     if the file cannot be written
     */
    public static void write(final Path file, final List<JFreeChart> charts) {
        final Format format = Format.of(file, "plot file");
        if (charts.isEmpty()) {
            throw new IllegalArgumentException("plot file " + file + ": no chart, expected at least one");
        }
        headless();
        final int columns = Math.min(COLUMNS, charts.size());
        final int rows = (charts.size() + columns - 1) / columns;
        final int width = columns * CELL_WIDTH;
        final int height = rows * CELL_HEIGHT;
        try {
            final Path dir = file.toAbsolutePath().getParent();
            if (null != dir) {
                Files.createDirectories(dir);
            }
            switch (format) {
                case PNG -> {
                    final BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
                    final Graphics2D g = image.createGraphics();
                    try {
                        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
                        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
                            RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
                        draw(g, charts, columns, width, height);
                    } finally {
                        g.dispose();
                    }
                    if (!ImageIO.write(image, "png", file.toFile())) {
                        throw new IOException("no PNG writer in this JDK");
                    }
                }
                case SVG -> {
                    final SVGGraphics2D g = new SVGGraphics2D(svgDocument());
                    g.setSVGCanvasSize(new Dimension(width, height));
                    draw(g, charts, columns, width, height);
                    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                        g.stream(out, true);
                    }
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("plot: cannot write file=" + file + ": " + e.getMessage(), e);
        }
    }

    /** @return an empty SVG document, made by the JDK's DOM (Batik's generator takes any) */
    private static Document svgDocument() throws IOException {
        try {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().getDOMImplementation()
                .createDocument(SVG_NS, "svg", null);
        } catch (final ParserConfigurationException e) {
            throw new IOException("no XML document builder in this JDK: " + e.getMessage(), e);
        }
    }

    private static void draw(final Graphics2D g, final List<JFreeChart> charts, final int columns, final int width,
        final int height) {
        g.setPaint(Color.WHITE);
        g.fillRect(0, 0, width, height);
        for (int i = 0; i < charts.size(); i++) {
            final Rectangle2D cell = new Rectangle2D.Double((i % columns) * CELL_WIDTH, (i / columns) * CELL_HEIGHT,
                CELL_WIDTH, CELL_HEIGHT);
            charts.get(i).draw(g, cell);
        }
    }

    /**
     * Makes AWT headless unless the program chose otherwise (before any chart is made: AWT reads the property once),
     * and has JFreeChart draw rotated text (the y axes' labels) as text rather than as glyph outlines, so that an
     * SVG's labels can be read and searched. (Its workaround, on by default, is for a rotation bug of JDKs long
     * gone.)
     */
    static void headless() {
        if (null == System.getProperty("java.awt.headless")) {
            System.setProperty("java.awt.headless", "true");
        }
        TextUtils.setUseDrawRotatedStringWorkaround(false);
    }
}
