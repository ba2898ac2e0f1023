import dev.tutti.Datatype;
import dev.tutti.Op;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A float SUM of {@code BYTES} through {@code Op.reduce} for each pair of operand kinds, heap arrays (h) and a
 * {@code /dev/shm} mapping (n), in, inout; and a bulk copy between them. One JVM sees every kind first (as the
 * library does). Prints the best of 30 loops per case, µs per call.
 *
 * <pre>
 * java -cp tutti-cli/target/tutti.jar bench/repro/KernelSegments.java 65536
 * </pre>
 */
public final class KernelSegments {
    private KernelSegments() {
    }

    private static double best(final Runnable body, final int reps) {
        long best = Long.MAX_VALUE;
        for (int k = 0; k < 35; k++) {
            final long t = System.nanoTime();
            for (int i = 0; i < reps; i++) {
                body.run();
            }
            if (k >= 5) {
                best = Math.min(best, System.nanoTime() - t);
            }
        }
        return best / 1e3 / reps;
    }

    public static void main(final String[] args) throws Exception {
        final int bytes = Integer.parseInt(args[0]);
        final int n = bytes / Float.BYTES;
        final Path file = Files.createTempFile(Path.of("/dev/shm"), "kernel-segments", ".shm");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            Arena arena = Arena.ofShared()) {
            final MemorySegment map = ch.map(FileChannel.MapMode.READ_WRITE, 0, 2L * bytes, arena);
            final MemorySegment n1 = map.asSlice(0, bytes);
            final MemorySegment n2 = map.asSlice(bytes, bytes);
            final MemorySegment h1 = MemorySegment.ofArray(new float[n]);
            final MemorySegment h2 = MemorySegment.ofArray(new float[n]);
            for (int i = 0; i < n; i++) {
                n1.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
                n2.setAtIndex(ValueLayout.JAVA_FLOAT, i, 1);
            }
            final MemorySegment bytesView = MemorySegment.ofArray(new byte[bytes]);
            Op.SUM.reduce(Datatype.FLOAT, bytesView, h1, n);
            Op.SUM.reduce(Datatype.FLOAT, n1, bytesView, n);
            final int reps = Math.max(10, (1 << 24) / bytes);
            final String[] names = {"copy h>n", "copy n>h", "sum h,h", "sum n,h", "sum h,n", "sum n,n"};
            final Runnable[] cases = {
                () -> MemorySegment.copy(h1, 0, n2, 0, bytes),
                () -> MemorySegment.copy(n1, 0, h2, 0, bytes),
                () -> Op.SUM.reduce(Datatype.FLOAT, h1, h2, n),
                () -> Op.SUM.reduce(Datatype.FLOAT, n1, h2, n),
                () -> Op.SUM.reduce(Datatype.FLOAT, h1, n2, n),
                () -> Op.SUM.reduce(Datatype.FLOAT, n1, n2, n),
            };
            final StringBuilder line = new StringBuilder(bytes + " B, us:");
            for (int i = 0; i < cases.length; i++) {
                line.append(String.format("  %s %.2f", names[i], best(cases[i], reps)));
            }
            System.out.println(line);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
