package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tutti bench plot} and {@code tutti bench OP --plot}: the files are valid PNG or SVG documents of the
 * expected size, and show the expected curves (the SVG's text names every series; the PNG holds the first series'
 * colour, which the white chart has nowhere else).
 */
@Timeout(60)
class PlotCommandTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    /** The first colour of the palette (a curve's, or a ratio's legend). */
    private static final int FIRST_SERIES_RGB = 0x0072B2;

    @TempDir
    Path dir;

    private static BenchRun tutti(final String... args) {
        return BenchRun.of(args);
    }

    /** Rows of Open MPI's vader and Tutti's shm for allreduce at 2 ranks (two runs of Tutti), and a bandwidth run. */
    private Path compareCsv() throws Exception {
        final Path csv = dir.resolve("merged.csv");
        final List<String> lines = new ArrayList<>(List.of(CsvWriter.HEADER));
        for (int bytes = 8; bytes <= 1024; bytes *= 2) {
            lines.add("openmpi-vader,allreduce,2," + bytes + "," + (1.0 + bytes / 512.0));
            lines.add("tutti-shm,allreduce,2," + bytes + "," + (1.5 + bytes / 400.0));
            lines.add("tutti-shm,allreduce,2," + bytes + "," + (1.7 + bytes / 400.0));
            lines.add("tutti-shm,bandwidth,2," + bytes + "," + (0.2 + bytes / 4000.0));
        }
        Files.write(csv, lines);
        return csv;
    }

    private static Document svg(final Path file) throws Exception {
        final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        // The document names SVG 1.1's DTD; it is not needed to read the elements, and tests make no network calls.
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return f.newDocumentBuilder().parse(file.toFile());
    }

    /** @return the text of every {@code <text>} element of an SVG document */
    private static List<String> texts(final Document doc) {
        final NodeList nodes = doc.getElementsByTagNameNS("*", "text");
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(nodes.item(i).getTextContent().strip());
        }
        return out;
    }

    private static boolean holdsColour(final BufferedImage image, final int rgb) {
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void shouldDrawEachOperationWithItsCurvesAndTheRatioAsSvg() throws Exception {
        final Path out = dir.resolve("svg");
        final BenchRun r = tutti("plot", "-o", out.toString(), "--format", "svg", compareCsv().toString());
        assertEquals(0, r.exitCode(), r.err());
        final Path allreduce = out.resolve("allreduce-2.svg");
        final Path bandwidth = out.resolve("bandwidth-2.svg");
        assertEquals(bandwidth + System.lineSeparator() + allreduce + System.lineSeparator(), r.out(),
            "one file per operation, in the order of the benchmarks");
        final Document doc = svg(allreduce);
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        final List<String> texts = texts(doc);
        for (final String expected : List.of("allreduce, 2 ranks", "openmpi-vader", "tutti-shm",
            "tutti-shm/openmpi-vader", "Latency (us)", BenchPlots.RATIO_LABEL, BenchPlots.SIZE_LABEL)) {
            assertTrue(texts.contains(expected), expected + " not among the SVG's texts " + texts);
        }
        final List<String> bw = texts(svg(bandwidth));
        assertTrue(bw.contains("Bandwidth (MB/s)") && bw.contains("tutti-shm"), bw.toString());
        assertFalse(bw.contains(BenchPlots.RATIO_LABEL), "no Open MPI run, so no ratio: " + bw);
    }

    @Test
    void shouldWriteAGridOfChartsIntoOnePng() throws Exception {
        final Path png = dir.resolve("all.png");
        final BenchRun r = tutti("plot", "-o", png.toString(), compareCsv().toString());
        assertEquals(0, r.exitCode(), r.err());
        final byte[] bytes = Files.readAllBytes(png);
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(bytes, PNG_MAGIC.length));
        final BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(2 * dev.tutti.bench.plot.ChartFiles.CELL_WIDTH, image.getWidth(), "two charts side by side");
        assertEquals(dev.tutti.bench.plot.ChartFiles.CELL_HEIGHT, image.getHeight());
        assertTrue(holdsColour(image, FIRST_SERIES_RGB), "the first curve's colour is drawn");
    }

    @Test
    void shouldPlotTheCurveOfABenchRun() throws Exception {
        final Path svg = dir.resolve("pingpong.svg");
        final BenchRun r = tutti("pingpong", "-m", "1:8", "-i", "5", "-x", "0", "--jit-warmup", "0", "--plot",
            svg.toString());
        assertEquals(0, r.exitCode(), r.err());
        final List<String> texts = texts(svg(svg));
        assertTrue(texts.contains("pingpong, 2 ranks") && texts.contains("tutti-inproc"), texts.toString());
        final Path png = dir.resolve("sub/bw.png");
        final Path csv = dir.resolve("bw.csv");
        final BenchRun b = tutti("bandwidth", "-m", "1:8", "-i", "2", "-x", "0", "--jit-warmup", "0", "--csv",
            csv.toString(), "--plot", png.toString());
        assertEquals(0, b.exitCode(), b.err());
        assertEquals(800, ImageIO.read(png.toFile()).getWidth());
        assertEquals(5, Files.readAllLines(csv).size(), "the CSV asked for is kept: header and 4 rows");
    }

    @Test
    void shouldRefuseAPlotItCannotDrawBeforeRunning() throws Exception {
        final BenchRun ext = tutti("pingpong", "--plot", dir.resolve("x.pdf").toString());
        assertEquals(2, ext.exitCode());
        assertTrue(ext.err().contains("--plot " + dir.resolve("x.pdf") + ", expected a file name ending in .png "
            + "or .svg"), ext.err());
        final BenchRun barrier = tutti("barrier", "--plot", dir.resolve("b.png").toString());
        assertEquals(2, barrier.exitCode());
        assertTrue(barrier.err().contains("barrier has no message size to plot"), barrier.err());
        final Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "op,bytes\nallreduce,8\n");
        final BenchRun csv = tutti("plot", "-o", dir.resolve("p.png").toString(), bad.toString());
        assertEquals(2, csv.exitCode());
        assertTrue(csv.err().contains("csv " + bad + ":1: header 'op,bytes', expected '" + CsvWriter.HEADER + "'"),
            csv.err());
        assertFalse(Files.exists(dir.resolve("p.png")));
    }
}
