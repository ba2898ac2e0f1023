package dev.tutti.bench.plot;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The pieces of a chart: size labels, colour keys, and what a series, panel or file name refuses. */
class ChartsTest {
    @Test
    void shouldLabelSizesInBinaryMultiples() {
        final Charts.SizeFormat f = new Charts.SizeFormat();
        assertEquals("1", f.format(1.0));
        assertEquals("512", f.format(512.0));
        assertEquals("4K", f.format(4096.0));
        assertEquals("1536", f.format(1536.0), "no whole multiple of 1 KiB: its bytes");
        assertEquals("1M", f.format(1048576.0));
        assertEquals("2G", f.format(2.0 * 1024 * 1024 * 1024));
        assertEquals("0.5", f.format(0.5));
    }

    @Test
    void shouldColourARatioAsTheCurveItComesFrom() {
        assertEquals("tutti-shm", Charts.key("tutti-shm/openmpi-vader"));
        assertEquals("tutti-shm", Charts.key("tutti-shm"));
        assertEquals("tutti", Charts.key("tutti run 2"));
    }

    @Test
    void shouldRefuseWhatCannotBeDrawn() {
        assertEquals("plot series s: x=1.0 after x=2.0, expected ascending x values", assertThrows(
            IllegalArgumentException.class, () -> new Series("s", new double[] {2, 1}, new double[] {1, 1}))
            .getMessage());
        assertEquals("plot series s: 2 x values and 1 y values, expected as many of each", assertThrows(
            IllegalArgumentException.class, () -> new Series("s", new double[] {1, 2}, new double[] {1}))
            .getMessage());
        assertEquals("plot panel y: no series, expected at least one", assertThrows(IllegalArgumentException.class,
            () -> new Panel("y", List.of(), false, 1)).getMessage());
        assertEquals("--plot out.pdf, expected a file name ending in .png or .svg", assertThrows(
            IllegalArgumentException.class, () -> ChartFiles.Format.of(Path.of("out.pdf"), "--plot")).getMessage());
        assertEquals(ChartFiles.Format.SVG, ChartFiles.Format.of(Path.of("/tmp/A.SVG"), "--plot"));
    }
}
