package dev.tutti.transport.tcp;

import dev.tutti.internal.Settings;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * A connection's socket read and written straight from and into Java heap memory: Linux's {@code read} and
 * {@code write} called through the FFM linker as critical functions with heap access, so the kernel copies between
 * the socket and a heap array with no copy in user space (a {@link SocketChannel} needs direct memory, which costs
 * a heap array a copy on each side). Used for the DATA chunks of rendezvous messages in heap arrays only; everything
 * else goes through the channel.
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>Availability.</b> Only on Linux, with native access enabled for this module (as {@code tutti run} does,
 * see {@code dev.tutti.runtime.CpuBinding}) and {@link Settings#TCP_HEAP_IO} {@code direct}; otherwise
 * {@link #of} answers null and the connection stages heap data through direct buffers as before.</li>
 * <li><b>The descriptor.</b> The JDK does not expose a channel's file descriptor, so {@link #of} finds it: the
 * descriptor in {@code /proc/self/fd} whose {@code getsockname} and {@code getpeername} equal the channel's local
 * and remote addresses (a TCP connection's pair of endpoints is unique on a host), and owns a duplicate of it
 * ({@code fcntl(F_DUPFD_CLOEXEC)}: not inherited by child processes).
 * The duplicate keeps the socket open while this object uses it, so a channel closed by another thread can never
 * make a read or write land on a reused descriptor number; the socket closes (the peer sees the end) once both the
 * channel and {@link #close} have closed theirs.</li>
 * <li><b>Who calls what.</b> {@link #read} only under the connection's read token, {@link #write} only under its
 * write lock (each has its own errno capture segment); {@link #close} under both, so {@code closed} needs no other
 * guard, and a read or write after it fails. {@link #pollNow} by the holder of the transport's poll token
 * ({@link ReadinessGate}); it only asks about the descriptor, so it needs neither.</li>
 * <li><b>Cost.</b> A second descriptor per connection; finding it, two system calls per descriptor of the process,
 * once per connection; then one system call per read or write, as through the channel; a critical call holds off
 * the garbage collector for its duration, which for a non-blocking socket is one kernel copy of at most a
 * chunk.</li>
 * </ul>
 */
final class NativeSocket {
    private static final int EINTR = 4;
    private static final int F_DUPFD_CLOEXEC = 1030;
    private static final int EAGAIN = 11;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final long SOCKADDR_BYTES = 128;
    /** The linked functions, or null where this cannot work (see the class notes). */
    private static final Functions FUNCTIONS = Functions.load();

    private final int fd;
    private final MemorySegment readState;
    private final MemorySegment writeState;
    private boolean closed;

    private NativeSocket(final int fd) {
        this.fd = fd;
        final Arena arena = Arena.ofAuto();
        this.readState = arena.allocate(FUNCTIONS.capture);
        this.writeState = arena.allocate(FUNCTIONS.capture);
    }

    /**
     * The socket of {@code channel} for heap I/O, if that is available here.
     *
     * @param channel a connected channel
     * @return a duplicate of its descriptor, or null (not Linux, no native access, turned off, or not found)
     */
    static NativeSocket of(final SocketChannel channel) {
        if (!"direct".equals(Settings.TCP_HEAP_IO.choice()) || null == FUNCTIONS) {
            return null;
        }
        try {
            final SocketAddress local = channel.getLocalAddress();
            final SocketAddress remote = channel.getRemoteAddress();
            if (!(local instanceof InetSocketAddress l) || !(remote instanceof InetSocketAddress r)) {
                return null;
            }
            try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
                for (final Path p : fds) {
                    final int candidate = parseFd(p.getFileName().toString());
                    if (candidate >= 0 && FUNCTIONS.names(candidate, l, r)) {
                        final int dup = (int) FUNCTIONS.dup.invokeExact(candidate, F_DUPFD_CLOEXEC, 0);
                        if (dup < 0) {
                            return null;
                        }
                        if (FUNCTIONS.names(dup, l, r)) { // still the same socket: the number was not reused
                            return new NativeSocket(dup);
                        }
                        final int ignored = (int) FUNCTIONS.close.invokeExact(dup);
                        return null;
                    }
                }
            }
            return null;
        } catch (final Throwable e) {
            return null; // not available: the connection stages heap data as without native access
        }
    }

    /** @return the duplicate descriptor this reads and writes (a {@link ReadinessGate} asks the kernel about it) */
    int fd() {
        return fd;
    }

    /**
     * Asks the kernel which of {@code n} sockets are ready, without waiting: {@code poll(2)} with timeout 0 over
     * the {@code struct pollfd} array at {@code fds}, whose {@code revents} it fills in.
     *
     * @return the number of entries with events, or -1 if the call failed
     */
    static int pollNow(final MemorySegment fds, final int n) {
        try {
            return (int) FUNCTIONS.poll.invokeExact(fds, (long) n, 0);
        } catch (final Throwable e) {
            return -1;
        }
    }

    /** @return whether heap I/O can be used in this JVM at all (for tests) */
    static boolean available() {
        return null != FUNCTIONS;
    }

    private static int parseFd(final String name) {
        try {
            return Integer.parseInt(name);
        } catch (final NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Under the read token: reads up to {@code n} bytes into {@code dst} at {@code offset}, without blocking.
     *
     * @return the bytes read, 0 if none is there now, -1 at the end of the stream
     * @throws IOException if the read failed or this was closed
     */
    long read(final MemorySegment dst, final long offset, final long n) throws IOException {
        if (closed) {
            throw new IOException("socket closed");
        }
        while (true) {
            final long got;
            try {
                got = (long) FUNCTIONS.read.invokeExact(readState, fd, dst.asSlice(offset, n), n);
            } catch (final Throwable e) {
                throw new IOException("read failed", e);
            }
            if (got > 0) {
                return got;
            }
            if (0 == got) {
                return -1;
            }
            final int errno = (int) FUNCTIONS.errno.get(readState, 0L);
            if (EAGAIN == errno) {
                return 0;
            }
            if (EINTR != errno) {
                throw new IOException("read failed: errno " + errno);
            }
        }
    }

    /**
     * Under the write lock: writes up to {@code n} bytes from {@code src} at {@code offset}, without blocking.
     *
     * @return the bytes written, 0 if the socket takes none now
     * @throws IOException if the write failed or this was closed
     */
    long write(final MemorySegment src, final long offset, final long n) throws IOException {
        if (closed) {
            throw new IOException("socket closed");
        }
        while (true) {
            final long put;
            try {
                put = (long) FUNCTIONS.write.invokeExact(writeState, fd, src.asSlice(offset, n), n);
            } catch (final Throwable e) {
                throw new IOException("write failed", e);
            }
            if (put >= 0) {
                return put;
            }
            final int errno = (int) FUNCTIONS.errno.get(writeState, 0L);
            if (EAGAIN == errno) {
                return 0;
            }
            if (EINTR != errno) {
                throw new IOException("write failed: errno " + errno);
            }
        }
    }

    /** Under the read token and the write lock: closes the duplicate descriptor; later reads and writes fail. */
    void close() {
        if (!closed) {
            closed = true;
            try {
                final int ignored = (int) FUNCTIONS.close.invokeExact(fd);
            } catch (final Throwable e) {
                // nothing to do: the descriptor is given up either way
            }
        }
    }

    /** The linked functions; loaded once. */
    private record Functions(MethodHandle read, MethodHandle write, MethodHandle dup, MethodHandle close,
        MethodHandle getsockname, MethodHandle getpeername, MethodHandle poll, StructLayout capture,
        VarHandle errno) {

        @SuppressWarnings("restricted") // native access is what this does; without it enabled, nothing is linked
        static Functions load() {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                || !NativeSocket.class.getModule().isNativeAccessEnabled()) {
                return null;
            }
            try {
                final Linker linker = Linker.nativeLinker();
                final StructLayout capture = Linker.Option.captureStateLayout();
                final FunctionDescriptor io = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG);
                final Linker.Option[] heap = {Linker.Option.critical(true), Linker.Option.captureCallState("errno")};
                final FunctionDescriptor name = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.ADDRESS);
                final FunctionDescriptor oneFd = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT);
                return new Functions(
                    linker.downcallHandle(find(linker, "read"), io, heap),
                    linker.downcallHandle(find(linker, "write"), io, heap),
                    linker.downcallHandle(find(linker, "fcntl"), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                        Linker.Option.firstVariadicArg(2)),
                    linker.downcallHandle(find(linker, "close"), oneFd),
                    linker.downcallHandle(find(linker, "getsockname"), name),
                    linker.downcallHandle(find(linker, "getpeername"), name),
                    linker.downcallHandle(find(linker, "poll"), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT),
                        Linker.Option.critical(false)),
                    capture, capture.varHandle(MemoryLayout.PathElement.groupElement("errno")));
            } catch (final RuntimeException | LinkageError e) {
                return null;
            }
        }

        private static MemorySegment find(final Linker linker, final String function) {
            return linker.defaultLookup().find(function).orElseThrow();
        }

        /** Whether {@code fd} is a socket whose local and remote addresses are {@code local} and {@code remote}. */
        boolean names(final int fd, final InetSocketAddress local, final InetSocketAddress remote) throws Throwable {
            try (Arena arena = Arena.ofConfined()) {
                final MemorySegment addr = arena.allocate(SOCKADDR_BYTES, 8);
                final MemorySegment len = arena.allocate(ValueLayout.JAVA_INT);
                len.set(ValueLayout.JAVA_INT, 0, (int) SOCKADDR_BYTES);
                if (0 != (int) getsockname.invokeExact(fd, addr, len) || !same(addr, local)) {
                    return false;
                }
                len.set(ValueLayout.JAVA_INT, 0, (int) SOCKADDR_BYTES);
                return 0 == (int) getpeername.invokeExact(fd, addr, len) && same(addr, remote);
            }
        }

        /** Whether the {@code sockaddr} at {@code addr} is {@code expected} (an IPv4 one may be v4-mapped IPv6). */
        private static boolean same(final MemorySegment addr, final InetSocketAddress expected) {
            final int family = addr.get(ValueLayout.JAVA_SHORT, 0) & 0xFFFF;
            final int port = addr.get(ValueLayout.JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2) & 0xFFFF;
            if (port != expected.getPort() || null == expected.getAddress()) {
                return false;
            }
            final byte[] want = expected.getAddress().getAddress();
            final byte[] got;
            if (AF_INET == family) {
                got = addr.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE);
            } else if (AF_INET6 == family) {
                final byte[] v6 = addr.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
                got = expected.getAddress() instanceof Inet4Address && isV4Mapped(v6)
                    ? Arrays.copyOfRange(v6, 12, 16) : v6;
            } else {
                return false;
            }
            return Arrays.equals(got, want);
        }

        private static boolean isV4Mapped(final byte[] v6) {
            for (int i = 0; i < 10; i++) {
                if (0 != v6[i]) {
                    return false;
                }
            }
            return (byte) 0xFF == v6[10] && (byte) 0xFF == v6[11];
        }
    }
}
