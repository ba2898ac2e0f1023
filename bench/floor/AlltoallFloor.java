import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor of a persistent alltoall between two processes of one host, with no library around it: what Tutti's
 * lean way through shared-memory slots ({@code SlotRounds}, {@code SlotPart}) would cost if it were nothing but
 * its loads, stores and copies. Each process owns a slot in a shared file: an acknowledgement line, then 8 cells of
 * a sequence word followed by the message, padded to whole 64-byte lines. Each exchange k: wait for room in the
 * peer's cell k % 8 (its acknowledgement, read once in 7 exchanges), copy the block into it, publish k (release);
 * copy the own block locally; wait until the own cell reads k (acquire), copy it out, acknowledge k. The same two
 * copies as the library's path (user memory to the slot, slot to user memory), the same cache lines crossing.
 *
 * <pre>
 * java bench/floor/AlltoallFloor.java [BYTES...]      # default 8 64 256 1024; prints microseconds per exchange
 * </pre>
 *
 * With no role argument it starts its two processes itself (the same java, this source file) and prints rank 0's
 * best of 5 rounds of 1,000,000 exchanges per size.
 */
public final class AlltoallFloor {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final int DEPTH = 8;
    private static final long LINE = 64;
    private static final long SLOT_SPACING = 1 << 16;

    private AlltoallFloor() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length > 0 && args[0].startsWith("--rank=")) {
            final int me = Integer.parseInt(args[0].substring(7));
            final Path file = Path.of(args[1]);
            for (int i = 2; i < args.length; i++) {
                exchange(me, file, Integer.parseInt(args[i]), 1_000_000, 2L * i);
            }
            return;
        }
        final List<String> sizes = args.length > 0 ? List.of(args) : List.of("8", "64", "256", "1024");
        final Path file = Files.createTempFile(Path.of("/dev/shm"), "alltoallfloor", ".bin");
        try {
            final String java = ProcessHandle.current().info().command().orElse("java");
            final List<Process> ranks = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                final List<String> cmd = new ArrayList<>(List.of(java, sourceFile(), "--rank=" + r,
                    file.toString()));
                cmd.addAll(sizes);
                ranks.add(new ProcessBuilder(cmd).redirectOutput(0 == r ? ProcessBuilder.Redirect.INHERIT
                    : ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start());
            }
            for (final Process p : ranks) {
                if (0 != p.waitFor()) {
                    throw new IllegalStateException("a rank failed: " + p.exitValue());
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** @return this program's source file (run from the repository's root when the launcher does not say) */
    private static String sourceFile() {
        try {
            final String s = Path.of(AlltoallFloor.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
            return s.endsWith(".java") ? s : "bench/floor/AlltoallFloor.java";
        } catch (final Exception e) {
            return "bench/floor/AlltoallFloor.java";
        }
    }

    private static void exchange(final int me, final Path file, final int bytes, final long n, final long phase)
        throws Exception {
        final long cell = (Long.BYTES + bytes + LINE - 1) / LINE * LINE;
        final long slotBytes = LINE + DEPTH * cell;
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofShared()) {
            final MemorySegment m = fc.map(FileChannel.MapMode.READ_WRITE, 0, 2 * SLOT_SPACING, arena);
            final MemorySegment mine = m.asSlice(me * SLOT_SPACING, slotBytes);
            final MemorySegment peer = m.asSlice((1 - me) * SLOT_SPACING, slotBytes);
            final MemorySegment send = Arena.ofAuto().allocate(2L * bytes, 64);
            final MemorySegment recv = Arena.ofAuto().allocate(2L * bytes, 64);
            mine.fill((byte) 0);
            barrier(m, me, phase);
            long k = 0;
            long credit = 0;
            double best = Double.MAX_VALUE;
            for (int round = 0; round < 5; round++) {
                final long t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    k++;
                    final long at = LINE + (k & (DEPTH - 1)) * cell;
                    while (credit < k - DEPTH) {
                        credit = (long) LONG.getAcquire(peer, 0L);
                    }
                    MemorySegment.copy(send, (long) (1 - me) * bytes, peer, at + Long.BYTES, bytes);
                    LONG.setRelease(peer, at, k);
                    MemorySegment.copy(send, (long) me * bytes, recv, (long) me * bytes, bytes);
                    while ((long) LONG.getAcquire(mine, at) != k) {
                        Thread.onSpinWait();
                    }
                    MemorySegment.copy(mine, at + Long.BYTES, recv, (long) (1 - me) * bytes, bytes);
                    LONG.setRelease(mine, 0L, k);
                }
                best = Math.min(best, (System.nanoTime() - t0) / (double) n / 1000.0);
            }
            barrier(m, me, phase + 1);
            if (0 == me) {
                System.out.printf("slot floor, 2 processes, alltoall of %d B per rank: %.3f us per exchange%n",
                    bytes, best);
            }
        }
    }

    /** Both ranks meet at {@code phase}: a word per rank after the slots. */
    private static void barrier(final MemorySegment m, final int me, final long phase) {
        final long base = 2 * SLOT_SPACING - 2 * LINE;
        LONG.setRelease(m, base + me * LINE, phase);
        while ((long) LONG.getAcquire(m, base + (1 - me) * LINE) < phase) {
            Thread.onSpinWait();
        }
    }
}
