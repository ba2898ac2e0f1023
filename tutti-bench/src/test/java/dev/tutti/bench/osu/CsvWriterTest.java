package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CsvWriterTest {

    @Test
    void shouldWriteHeaderAndRowsWithExactColumns() {
        final StringWriter sw = new StringWriter();
        try (CsvWriter csv = new CsvWriter(sw, "test")) {
            csv.row("tutti-inproc", "pingpong", 2, 1, 0.2345);
            csv.row("openmpi-vader", "bandwidth", 4, 4_194_304, 1234.5);
        }
        assertEquals("impl,op,ranks,bytes,avg_us\n"
            + "tutti-inproc,pingpong,2,1,0.235\n"
            + "openmpi-vader,bandwidth,4,4194304,1234.500\n", sw.toString().replace("\r", ""));
    }

    @Test
    void shouldUseDotDecimalsWhateverTheLocale() {
        final Locale saved = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            final StringWriter sw = new StringWriter();
            try (CsvWriter csv = new CsvWriter(sw, "test")) {
                csv.row("tutti-tcp", "pingpong", 2, 8, 12.5);
            }
            assertEquals("tutti-tcp,pingpong,2,8,12.500", sw.toString().strip().split("\n")[1].strip());
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void shouldRejectFieldsThatWouldBreakColumns() {
        try (CsvWriter csv = new CsvWriter(new StringWriter(), "test")) {
            assertThrows(IllegalArgumentException.class, () -> csv.row("a,b", "pingpong", 2, 1, 1.0));
            assertThrows(IllegalArgumentException.class, () -> csv.row("tutti", "ping\npong", 2, 1, 1.0));
            assertThrows(IllegalArgumentException.class, () -> csv.row("", "pingpong", 2, 1, 1.0));
            assertThrows(IllegalArgumentException.class, () -> csv.row("tutti", "pingpong", 2, 1, Double.NaN));
        }
    }

    @Test
    void shouldCreateFileAndDirectoryAndTruncate(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("sub/out.csv");
        try (CsvWriter csv = CsvWriter.create(file)) {
            csv.row("tutti-inproc", "pingpong", 2, 1, 1.0);
            csv.row("tutti-inproc", "pingpong", 2, 2, 2.0);
        }
        try (CsvWriter csv = CsvWriter.create(file)) {
            csv.row("tutti-inproc", "bandwidth", 2, 1, 3.0);
        }
        assertEquals(List.of(CsvWriter.HEADER, "tutti-inproc,bandwidth,2,1,3.000"), Files.readAllLines(file));
    }
}
