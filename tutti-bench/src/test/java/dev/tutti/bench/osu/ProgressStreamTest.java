package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ranks' output passes through unchanged, and the progress line of the size being measured is drawn after the
 * table's lines and erased before the next one; not at all when the output is not a terminal.
 */
class ProgressStreamTest {
    private static final String ERASE = "\r\u001b[K";
    private static final String TABLE = "# Tutti pingpong (one-way latency): impl=tutti-shm ranks=2\n"
        + "# Size          Latency (us)\n"
        + "1                     1.50\n"
        + "# 2: the timed loop ran again\n"
        + "2                     1.60\n";

    /** Writes the table in pieces that cut lines anywhere, as pipes deliver them. */
    private static void feed(final ProgressStream s) throws IOException {
        final byte[] b = TABLE.getBytes(StandardCharsets.UTF_8);
        int at = 0;
        for (final int piece : new int[] {3, 60, 1, 40, 7}) {
            s.write(b, at, piece);
            at += piece;
        }
        s.write(b, at, b.length - at);
        s.close();
    }

    @Test
    void shouldPassTheOutputOnAndDrawTheNextSizeAfterEachLine() throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final StringWriter terminal = new StringWriter();
        feed(new ProgressStream(out, Progress.to(new PrintWriter(terminal)), "pingpong", new int[] {1, 2}));
        assertEquals(TABLE, out.toString(StandardCharsets.UTF_8));
        final String first = ERASE + "bench pingpong: 1 B (1 of 2 sizes)";
        final String second = ERASE + "bench pingpong: 2 B (2 of 2 sizes)";
        assertEquals(first + ERASE + first + ERASE + second + ERASE + second + ERASE, terminal.toString());
    }

    @Test
    void shouldStayQuietWhenTheOutputIsNoTerminal() throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        feed(new ProgressStream(out, Progress.onTerminal(new PrintWriter(new StringWriter()) {
            @Override
            public void write(final String s, final int off, final int len) {
                throw new AssertionError("progress written while no terminal: " + s);
            }
        }), "pingpong", new int[] {1, 2}));
        assertEquals(TABLE, out.toString(StandardCharsets.UTF_8));
    }
}
