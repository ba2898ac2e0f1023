package dev.tutti.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Copies one rank's output stream to the launcher's stream line by line, optionally behind a tag such as
 * {@code [1,0]<stdout>:}, and shows each line to a listener.
 *
 * <p>Implementation notes. One pump thread per (rank, stream) owns its line buffer. Lines are split on bytes
 * ({@code '\n'}), so output is forwarded byte for byte whatever its encoding. A line is written to the destination
 * while holding the destination's monitor, so lines of different ranks never interleave within a line; the
 * destination is flushed when the source has nothing more available, so a burst costs one flush and a lone line
 * appears at once. A line longer than {@link #MAX_LINE_BYTES} is forwarded in pieces of that size. A final line
 * without a newline gets one. A {@link StderrFilter}, when given, decides which lines are forwarded; the listener
 * sees every line.
 */
final class LinePump implements Runnable {
    /** Longest line buffered before it is forwarded in pieces. */
    static final int MAX_LINE_BYTES = 64 * 1024;

    /** Sees every forwarded line (without its newline). Called on the pump's thread. */
    @FunctionalInterface
    interface LineListener {
        /**
         * A line was read.
         *
         * @param line   the buffer; valid only during the call
         * @param length the number of bytes of the line
         */
        void onLine(byte[] line, int length);
    }

    private final InputStream in;
    private final OutputStream out;
    private final byte[] prefix;
    private final LineListener listener;
    private final StderrFilter filter;
    private final StderrFilter.Out writer = this::write;
    private byte[] line = new byte[256];
    private int length;
    private boolean outputFailed;

    /**
     * Creates a pump.
     *
     * @param in       the rank's stream
     * @param out      the destination
     * @param prefix   bytes written before each line (may be empty)
     * @param listener sees each line, or null
     * @param filter   decides which lines are forwarded, or null to forward all
     */
    LinePump(final InputStream in, final OutputStream out, final byte[] prefix, final LineListener listener,
        final StderrFilter filter) {
        this.in = in;
        this.out = out;
        this.prefix = prefix;
        this.listener = listener;
        this.filter = filter;
    }

    @Override
    public void run() {
        final byte[] chunk = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(chunk)) >= 0) {
                for (int i = 0; i < n; i++) {
                    final byte b = chunk[i];
                    if ('\n' == b) {
                        emit();
                    } else {
                        append(b);
                    }
                }
                if (0 == in.available()) {
                    flush();
                }
            }
        } catch (final IOException e) {
            // The pipe was closed under us (the launcher closes a stopped rank's streams): the rank's output
            // ends here, which is what the reader of a killed process sees anyway; what was read is still
            // forwarded below.
        }
        if (length > 0) {
            emit();
        }
        if (null != filter) {
            filter.onEnd(writer);
        }
        flush();
    }

    private void append(final byte b) {
        if (length == line.length) {
            if (length >= MAX_LINE_BYTES) {
                emit();
            } else {
                line = Arrays.copyOf(line, Math.min(MAX_LINE_BYTES, 2 * line.length));
            }
        }
        line[length++] = b;
    }

    private void emit() {
        if (null != listener) {
            listener.onLine(line, length);
        }
        if (null == filter) {
            write(line, length);
        } else {
            filter.onLine(line, length, writer);
        }
        length = 0;
    }

    private void write(final byte[] bytes, final int count) {
        if (!outputFailed) {
            synchronized (out) {
                try {
                    out.write(prefix);
                    out.write(bytes, 0, count);
                    out.write('\n');
                } catch (final IOException e) {
                    // The launcher's own output is gone (closed terminal or pipe): keep draining the rank so it
                    // does not block on a full pipe, and stop writing.
                    outputFailed = true;
                }
            }
        }
    }

    private void flush() {
        if (!outputFailed) {
            synchronized (out) {
                try {
                    out.flush();
                } catch (final IOException e) {
                    outputFailed = true;
                }
            }
        }
    }
}
