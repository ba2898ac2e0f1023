import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * How fast can one process hand 4 MiB to another on this host, and does it depend on the moment? No Tutti: two
 * processes (this one, and a child it starts), each bound to one CPU, move a 4 MiB heap array from the parent to
 * the child over and over, alternating every 20 messages between ways of doing it, so that every way is measured
 * in the same seconds as the others:
 * <ul>
 * <li>{@code KxN}: a ring of N chunk slots of K KiB in a shared file on /dev/shm (what Tutti's shm transport did
 *     for large messages: the sender copies a chunk in, the receiver copies it out, release/acquire counters);</li>
 * <li>{@code tKxN}: the same, and the receiver writes one word in every cache line it read before it frees the
 *     slot (what Tutti's shm transport does now), {@code zKxN}: it zeroes the slot instead;</li>
 * <li>{@code cma}: the receiver reads the sender's (native, unchanged) buffer with {@code process_vm_readv} — one
 *     copy, by the kernel (what Open MPI's vader does by default);</li>
 * <li>{@code cmaw}: the same after the sender copies its heap array into its native buffer (a fresh source).</li>
 * </ul>
 * Prints, every 800 messages, the mean µs per 4 MiB message of each way.
 *
 * <p>What it showed on the 2-vCPU Firecracker VM (2026-11-21): the machine has periods (seconds to minutes) in
 * which every plain chunk ring takes 1.4-2.3 ms per message while {@code cma} and {@code cmaw} keep their usual
 * 0.37-0.65 and 0.7-1.2 ms; outside them a ring of 64 x 64 KiB takes 0.13-0.2 ms and 8 x 64 KiB 0.33-0.4 ms.
 * Open MPI with {@code --mca btl_vader_single_copy_mechanism none} (two copies, as a ring) slows down in the same
 * periods; with CMA it does not. What is slow in those periods is the sender's write to lines the receiver holds
 * shared (read, not written): with the receiver's one write per line ({@code t64x64}) the ring took 0.26-0.33 ms
 * in a slow period (plain {@code 64x64}: 1.4-1.6 ms) and 0.15-0.35 ms outside one; zeroing ({@code z}) works too,
 * at a higher cost. Tutti's chunk channel does the {@code t} variant, with 64 slots per pair.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp /tmp/repro ShmCopyModes 64x64,t64x64,64x8,t64x8,cma 2400
 * </pre>
 *
 * <pre>
 * mkdir -p /tmp/repro && javac -d /tmp/repro bench/repro/ShmCopyModes.java
 * java --enable-native-access=ALL-UNNAMED -cp /tmp/repro ShmCopyModes [ways, default 64x8,64x64,cma,cmaw] [messages]
 * </pre>
 */
public final class ShmCopyModes {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final int SIZE = 4 << 20;
    private static final int PER_WAY = 20;
    private static final int REPORT_EVERY = 800;
    private static final long PRODUCED = 0;
    private static final long CONSUMED = 128;
    private static final long ACK = 256;
    private static final long GO = 384;
    private static final long PID = 512;
    private static final long ADDRESS = 640;
    private static final long SLOTS = 4096;
    private static final long FILE_BYTES = SLOTS + (64L << 20);

    private ShmCopyModes() {
    }

    public static void main(final String[] args) throws Throwable {
        final boolean child = args.length > 0 && "--receiver".equals(args[0]);
        final String[] rest = child ? java.util.Arrays.copyOfRange(args, 1, args.length) : args;
        final String[] ways = (rest.length > 0 ? rest[0] : "64x8,64x64,cma,cmaw").split(",");
        final int messages = rest.length > 1 ? Integer.parseInt(rest[1]) : 4400;
        final Path file = Path.of("/dev/shm/tutti-shm-copy-modes");
        Process receiver = null;
        if (!child) {
            Files.deleteIfExists(file);
            final List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ShmCopyModes.class.getName(), "--receiver", String.join(",", ways), Integer.toString(messages)));
            receiver = new ProcessBuilder(cmd).inheritIO().start();
        }
        bind(child ? 1 : 0);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
            if (ch.size() < FILE_BYTES) {
                ch.truncate(FILE_BYTES);
            }
            final MemorySegment shm = ch.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES, Arena.global());
            run(shm, !child, ways, messages);
        }
        if (null != receiver) {
            receiver.waitFor();
            Files.deleteIfExists(file);
        }
    }

    private static void run(final MemorySegment shm, final boolean sender, final String[] ways, final int messages)
        throws Throwable {
        final MemorySegment heap = MemorySegment.ofArray(new byte[SIZE]);
        final MemorySegment nativeBuf = Arena.global().allocate(SIZE, 4096);
        final MemorySegment local = Arena.global().allocate(SIZE, 4096);
        final Linker linker = Linker.nativeLinker();
        final MethodHandle readv = linker.downcallHandle(linker.defaultLookup().find("process_vm_readv")
            .orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
        final MemorySegment localIov = Arena.global().allocate(16, 8);
        final MemorySegment remoteIov = Arena.global().allocate(16, 8);
        if (sender) {
            LONG.setRelease(shm, ADDRESS, nativeBuf.address());
            LONG.setRelease(shm, PID, ProcessHandle.current().pid());
        }
        while (0 == (long) LONG.getAcquire(shm, PID)) {
            Thread.onSpinWait();
        }
        final int peerPid = (int) (long) LONG.getAcquire(shm, PID);
        final long peerAddress = (long) LONG.getAcquire(shm, ADDRESS);
        final long[] sumNs = new long[ways.length];
        final int[] count = new int[ways.length];
        long produced = 0;
        long consumed = 0;
        for (int m = 0; m < messages; m++) {
            final int w = (m / PER_WAY) % ways.length;
            final String way = ways[w];
            final long t0 = System.nanoTime();
            if (way.startsWith("cma")) {
                if (sender) {
                    if ("cmaw".equals(way)) {
                        MemorySegment.copy(heap, 0, nativeBuf, 0, SIZE);
                    }
                    LONG.setRelease(shm, GO, (long) m + 1);
                    await(shm, ACK, m + 1);
                } else {
                    await(shm, GO, m + 1);
                    localIov.set(ValueLayout.JAVA_LONG, 0, local.address());
                    localIov.set(ValueLayout.JAVA_LONG, 8, SIZE);
                    remoteIov.set(ValueLayout.JAVA_LONG, 0, peerAddress);
                    remoteIov.set(ValueLayout.JAVA_LONG, 8, SIZE);
                    final long n = (long) readv.invokeExact(peerPid, localIov, 1L, remoteIov, 1L, 0L);
                    if (SIZE != n) {
                        throw new IllegalStateException("process_vm_readv returned " + n + " (not permitted here?)");
                    }
                    MemorySegment.copy(local, 0, heap, 0, SIZE);
                    LONG.setRelease(shm, ACK, (long) m + 1);
                }
            } else {
                final boolean zero = way.startsWith("z");
                final boolean touch = way.startsWith("t");
                final String[] kn = (zero || touch ? way.substring(1) : way).split("x");
                final int chunk = Integer.parseInt(kn[0]) << 10;
                final int slots = Integer.parseInt(kn[1]);
                final long stride = chunk + 64L;
                for (long at = 0; at < SIZE; at += chunk) {
                    if (sender) {
                        while (produced - (long) LONG.getAcquire(shm, CONSUMED) >= slots) {
                            Thread.onSpinWait();
                        }
                        MemorySegment.copy(heap, at, shm, SLOTS + (produced % slots) * stride + 64, chunk);
                        LONG.setRelease(shm, PRODUCED, ++produced);
                    } else {
                        while ((long) LONG.getAcquire(shm, PRODUCED) == consumed) {
                            Thread.onSpinWait();
                        }
                        final long slot = SLOTS + (consumed % slots) * stride + 64;
                        MemorySegment.copy(shm, slot, heap, at, chunk);
                        if (zero) {
                            shm.asSlice(slot, chunk).fill((byte) 0);
                        } else if (touch) {
                            for (long line = 0; line < chunk; line += 64) {
                                shm.set(ValueLayout.JAVA_LONG, slot + line, 0L);
                            }
                        }
                        LONG.setRelease(shm, CONSUMED, ++consumed);
                    }
                }
                if (sender) {
                    await(shm, ACK, m + 1);
                } else {
                    LONG.setRelease(shm, ACK, (long) m + 1);
                }
            }
            sumNs[w] += System.nanoTime() - t0;
            count[w]++;
            if (sender && (m + 1) % REPORT_EVERY == 0) {
                final StringBuilder line = new StringBuilder();
                for (int i = 0; i < ways.length; i++) {
                    line.append(String.format("%s=%.0f ", ways[i], sumNs[i] / 1000.0 / Math.max(1, count[i])));
                    sumNs[i] = 0;
                    count[i] = 0;
                }
                System.out.println(line.toString().trim() + "   (us per 4 MiB message)");
            }
        }
    }

    private static void await(final MemorySegment shm, final long at, final long value) {
        while ((long) LONG.getAcquire(shm, at) != value) {
            Thread.onSpinWait();
        }
    }

    private static void bind(final int cpu) throws Throwable {
        final Linker linker = Linker.nativeLinker();
        final MethodHandle set = linker.downcallHandle(linker.defaultLookup().find("sched_setaffinity")
            .orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
            ValueLayout.ADDRESS));
        final MemorySegment mask = Arena.global().allocate(128, 8);
        mask.set(ValueLayout.JAVA_LONG, 0, 1L << cpu);
        if (0 != (int) set.invokeExact(0, 128L, mask)) {
            System.err.println("cannot bind to CPU " + cpu + "; running unbound");
        }
    }
}
