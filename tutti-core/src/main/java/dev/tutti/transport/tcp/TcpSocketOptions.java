package dev.tutti.transport.tcp;

import dev.tutti.internal.Settings;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SocketChannel;

/**
 * The socket options of the tcp transport, in one place, each set on purpose.
 * <ul>
 * <li><b>TCP_NODELAY on</b>, on every connection: a frame is written whole (header and payload by one write, or
 * one gathering write), so Nagle's algorithm would only hold back the last segment of a small message until the
 * peer's acknowledgement, which a ping-pong waits for.</li>
 * <li><b>SO_SNDBUF and SO_RCVBUF left to the kernel</b> by default ({@link Settings#TCP_SOCKET_BUFFER_BYTES} = 0):
 * Linux then grows each connection's buffers with its traffic up to {@code net.ipv4.tcp_wmem} and
 * {@code tcp_rmem}'s maxima (autotuning), as Open MPI leaves them ({@code btl_tcp_sndbuf} and {@code rcvbuf} are 0).
 * A fixed size turns autotuning off for that socket and is capped by {@code net.core.wmem_max} and
 * {@code rmem_max}, often far below the autotuning maxima; the setting is there for links whose bandwidth-delay
 * product the kernel's choice does not fit. When set, it is set before the connection is made (on the listening
 * socket, whose accepted sockets inherit it, and on the connecting one), so that the window scale negotiated at
 * connect time can use it.</li>
 * <li>Non-blocking mode once wired (the handshake before it is blocking, with a timeout); SO_KEEPALIVE and SO_LINGER
 * are not set (the JDK's defaults: off).</li>
 * </ul>
 * Stateless; any thread.
 */
final class TcpSocketOptions {
    private TcpSocketOptions() {
    }

    /**
     * Before bind or connect: the buffer sizes, if the setting fixes them.
     *
     * @param channel a listening or connecting socket
     * @throws IOException if an option cannot be set
     */
    static void beforeConnect(final NetworkChannel channel) throws IOException {
        final int bytes = Settings.TCP_SOCKET_BUFFER_BYTES.intValue();
        if (bytes > 0) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, bytes);
            if (channel instanceof SocketChannel) {
                channel.setOption(StandardSocketOptions.SO_SNDBUF, bytes);
            }
        }
    }

    /**
     * A wired connection, before its first frame: the send buffer of an accepted socket (which inherits only the
     * receive buffer from its listener), TCP_NODELAY, and non-blocking mode.
     *
     * @param channel the connection
     * @throws IOException if an option cannot be set
     */
    static void connected(final SocketChannel channel) throws IOException {
        final int bytes = Settings.TCP_SOCKET_BUFFER_BYTES.intValue();
        if (bytes > 0) {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, bytes);
        }
        channel.setOption(StandardSocketOptions.TCP_NODELAY, Boolean.TRUE);
        channel.configureBlocking(false);
    }
}
