package dev.tutti.transport.tcp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * A waiting thread's poll of several connections, gated on readiness: one {@code poll(2)} with no timeout asks the
 * kernel which sockets have bytes (or an error, or the end), and only those are read; the others only finish their
 * pending output. Without it each connection costs a {@code read} per poll, and on a rank with several peers most
 * of those find the socket empty and fail with {@code EAGAIN}: system time taken from the ranks that have work when
 * ranks share cores.
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>When.</b> {@link TcpTransport} builds one ({@link #over}) for the connections that carry messages when
 * there are at least two and each has its {@link NativeSocket} (Linux, native access enabled, heap I/O
 * {@code direct}): with one connection the poll would only add a call in front of every read that finds data.</li>
 * <li><b>Who.</b> Only the holder of the transport's poll token calls {@link #poll}: the {@code struct pollfd}
 * array is its. The descriptors are the native sockets' duplicates, open until the connection's clean-up; one
 * closed meanwhile answers {@code POLLNVAL}, which counts as ready, so the connection is read and its failure
 * seen. A failed {@code poll(2)} reads every connection, as without the gate.</li>
 * <li><b>Correctness.</b> Skipping a connection whose socket has no bytes loses nothing: a reader parses every
 * byte it read before it gives up the read token (only a partial header waits for more bytes), so a connection
 * with nothing in its socket has nothing to do but write. Readiness is level-triggered: bytes a reader left in
 * the socket keep it ready for the next poll.</li>
 * <li><b>Cost.</b> One system call per poll in place of one per connection, and a read on top for each
 * connection found ready; no allocation per call (the array is made once, 8 bytes per connection).</li>
 * </ul>
 */
final class ReadinessGate {
    /** {@code struct pollfd}: int fd, short events, short revents. */
    private static final long POLLFD_BYTES = 8;
    private static final long EVENTS = 4;
    private static final long REVENTS = 6;
    private static final short POLLIN = 1;

    private final TcpConnection[] connections;
    private final MemorySegment fds;

    private ReadinessGate(final TcpConnection[] connections, final MemorySegment fds) {
        this.connections = connections;
        this.fds = fds;
    }

    /**
     * The gate over {@code connections}, if it applies (see the class notes).
     *
     * @param connections the connections that carry messages
     * @return the gate, or null: waiting threads then read every connection
     */
    static ReadinessGate over(final TcpConnection[] connections) {
        if (connections.length < 2) {
            return null;
        }
        final MemorySegment fds = Arena.ofAuto().allocate(POLLFD_BYTES * connections.length, 4);
        for (int i = 0; i < connections.length; i++) {
            final int fd = connections[i].nativeFd();
            if (fd < 0) {
                return null;
            }
            fds.set(ValueLayout.JAVA_INT, POLLFD_BYTES * i, fd);
            fds.set(ValueLayout.JAVA_SHORT, POLLFD_BYTES * i + EVENTS, POLLIN);
        }
        return new ReadinessGate(connections.clone(), fds);
    }

    /**
     * Under the poll token: reads every connection that the kernel says is ready, and finishes the pending output of
     * the others (see {@link TcpConnection#poll} and {@link TcpConnection#flush}).
     *
     * @param in    the poll token's read buffer
     * @param inSeg a segment over the whole of {@code in}
     * @return the work done, 0 if none
     */
    int poll(final ByteBuffer in, final MemorySegment inSeg) {
        final TcpConnection[] cs = connections;
        final int ready = NativeSocket.pollNow(fds, cs.length);
        int work = 0;
        for (int i = 0; i < cs.length; i++) {
            if (ready < 0 || (ready > 0 && 0 != fds.get(ValueLayout.JAVA_SHORT, POLLFD_BYTES * i + REVENTS))) {
                work += cs[i].poll(in, inSeg);
            } else {
                work += cs[i].flush();
            }
        }
        return work;
    }
}
