import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * What a copy into shared memory costs when another core reads the same lines between two copies, as the on-host
 * chunks' slots are read: one thread copies {@code BYTES} from a heap array into slot {@code i % SLOTS} of a
 * {@code /dev/shm} mapping and raises a flag; the other waits for it, copies the slot out (unless {@code -Dread=false})
 * and raises its own flag; the first waits for that before its next copy. Prints the median and tenth percentile of
 * the first thread's copy.
 *
 * <pre>
 * java bench/repro/SharedWriteCost.java 32768 2                 # the peer reads the slot between the copies
 * java -Dread=false bench/repro/SharedWriteCost.java 32768 2    # it does not
 * </pre>
 */
public final class SharedWriteCost {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final int ROUNDS = 20_000;
    private static final long FLAGS = 4096;

    private SharedWriteCost() {
    }

    public static void main(final String[] args) throws Exception {
        final int bytes = Integer.parseInt(args[0]);
        final int slots = Integer.parseInt(args[1]);
        final boolean read = !"false".equals(System.getProperty("read"));
        final Path file = Files.createTempFile(Path.of("/dev/shm"), "shared-write-cost", ".shm");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            Arena arena = Arena.ofShared()) {
            final MemorySegment map = ch.map(FileChannel.MapMode.READ_WRITE, 0, FLAGS + (long) bytes * slots, arena);
            final MemorySegment src = MemorySegment.ofArray(new byte[bytes]);
            final MemorySegment dst = MemorySegment.ofArray(new byte[bytes]);
            final long[] took = new long[ROUNDS];
            final Thread reader = new Thread(() -> {
                for (long i = 1; i <= ROUNDS; i++) {
                    while ((long) LONG.getAcquire(map, 0L) < i) {
                        Thread.onSpinWait();
                    }
                    if (read) {
                        MemorySegment.copy(map, FLAGS + (long) bytes * ((i - 1) % slots), dst, 0, bytes);
                    }
                    LONG.setRelease(map, 64L, i);
                }
            });
            reader.start();
            for (long i = 1; i <= ROUNDS; i++) {
                while ((long) LONG.getAcquire(map, 64L) < i - 1) {
                    Thread.onSpinWait();
                }
                final long t = System.nanoTime();
                MemorySegment.copy(src, 0, map, FLAGS + (long) bytes * ((i - 1) % slots), bytes);
                took[(int) i - 1] = System.nanoTime() - t;
                LONG.setRelease(map, 0L, i);
            }
            reader.join();
            Arrays.sort(took);
            System.out.printf("bytes=%d slots=%d peer reads=%b: copy p50 %.2f us (%.1f GB/s), p10 %.2f us%n", bytes,
                slots, read, took[ROUNDS / 2] / 1e3, (double) bytes / took[ROUNDS / 2], took[ROUNDS / 10] / 1e3);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
