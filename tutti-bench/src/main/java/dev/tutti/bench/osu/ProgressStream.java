package dev.tutti.bench.osu;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The ranks' standard output on its way to this process's, when the ranks are processes: every byte is passed on
 * unchanged, and the table's rows are counted as they pass, so that this process shows the {@link Progress} line of
 * the size being measured, as rank 0 does itself when the ranks are threads. The line is erased before any output
 * is passed on and drawn again after a whole line, so a row never lands on it.
 *
 * <p>A row is a line that is neither blank nor a comment ({@code #}, as the header, the title and the notes of
 * {@link Report}); the n-th row ends the n-th size. Implementation note: the ranks' output comes from one pump thread
 * per rank, so every write holds this stream's lock; the progress line goes to standard error, which reaches the
 * same terminal, and standard output is flushed before it is drawn. With {@link Progress#none()} this is a plain
 * pass-through.
 */
final class ProgressStream extends OutputStream {
    private final OutputStream out;
    private final Progress progress;
    private final String op;
    private final int[] sizes;
    /** Rows seen so far (sizes done). */
    private int rows;
    /** Whether the next byte starts a line. */
    private boolean lineStart = true;
    /** Whether the line being passed on is a row, known from its first byte. */
    private boolean inRow;
    /** Whether the line being passed on has had a byte other than white space. */
    private boolean lineHasText;

    /**
     * @param out      where the output goes
     * @param progress the progress line (on standard error), or {@link Progress#none()}
     * @param op       the operation, for the progress line
     * @param sizes    the sizes measured, in order
     */
    ProgressStream(final OutputStream out, final Progress progress, final String op, final int[] sizes) {
        this.out = out;
        this.progress = progress;
        this.op = op;
        this.sizes = sizes.clone();
    }

    @Override
    public synchronized void write(final int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(final byte[] b, final int off, final int len) throws IOException {
        int start = off;
        final int end = off + len;
        for (int i = off; i < end; i++) {
            if (lineStart) {
                progress.clear();
                lineStart = false;
                inRow = '#' != b[i];
                lineHasText = false;
            }
            if ('\n' == b[i]) {
                out.write(b, start, i + 1 - start);
                start = i + 1;
                lineEnded();
            } else if (!Character.isWhitespace(b[i])) {
                lineHasText = true;
            }
        }
        if (start < end) {
            out.write(b, start, end - start);
        }
    }

    private void lineEnded() throws IOException {
        lineStart = true;
        if (inRow && lineHasText) {
            rows++;
        }
        if (rows < sizes.length) {
            out.flush();
            progress.size(op, sizes[rows], rows, sizes.length);
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    /** Erases the progress line; the stream it writes to is not closed (it is this process's standard output). */
    @Override
    public synchronized void close() throws IOException {
        progress.clear();
        out.flush();
    }
}
