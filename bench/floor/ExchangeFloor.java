import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor of a two-rank exchange in Java, and what an atomic instruction on its path costs: two threads exchange 8
 * bytes through per-receiver slots laid out as Tutti's persistent-collective slots are (an acknowledgement line,
 * then cells of a sequence word and the data, one 64-byte line each, used round robin), with release stores and
 * acquire loads only; then the same with {@code ATOMICS} atomic increments of a thread-local counter placed before
 * each send. The difference per exchange is what that many fences cost where a collective's bookkeeping would put
 * them (between the receipt of one exchange and the send of the next).
 *
 * <pre>
 * java bench/floor/ExchangeFloor.java            # 0 to 4 atomics per exchange
 * </pre>
 */
public final class ExchangeFloor {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final int DEPTH = 8;
    private static final long LINE = 64;
    private static final long SLOT = LINE * (1 + DEPTH);
    private static final int N = 2_000_000;

    private ExchangeFloor() {
    }

    public static void main(final String[] args) throws InterruptedException {
        for (int atomics = 0; atomics <= 4; atomics++) {
            System.out.printf("%d atomic(s) per exchange: %.3f us per exchange (best of 5)%n", atomics, run(atomics));
        }
    }

    private static double run(final int atomics) throws InterruptedException {
        final MemorySegment slots = Arena.ofAuto().allocate(2 * SLOT, LINE);
        final double[] best = {Double.MAX_VALUE};
        final Thread[] ts = new Thread[2];
        for (int me = 0; me < 2; me++) {
            final int rank = me;
            ts[me] = new Thread(() -> {
                final MemorySegment mine = slots.asSlice(rank * SLOT, SLOT);
                final MemorySegment peer = slots.asSlice((1 - rank) * SLOT, SLOT);
                final MemorySegment block = MemorySegment.ofArray(new byte[8]);
                final AtomicLong counter = new AtomicLong();
                long credit = 0;
                long k = 0;
                for (int rep = 0; rep < 5; rep++) {
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < N; i++) {
                        k++;
                        for (int a = 0; a < atomics; a++) {
                            counter.incrementAndGet();
                        }
                        final long at = LINE + (k & (DEPTH - 1)) * LINE;
                        while (credit < k - DEPTH) { // the peer must have read this cell's previous use
                            credit = (long) LONG.getAcquire(peer, 0L);
                        }
                        MemorySegment.copy(block, 0, peer, at + 8, 8);
                        LONG.setRelease(peer, at, k);
                        while ((long) LONG.getAcquire(mine, at) != k) {
                            Thread.onSpinWait();
                        }
                        MemorySegment.copy(mine, at + 8, block, 0, 8);
                        LONG.setRelease(mine, 0L, k); // acknowledged
                    }
                    if (0 == rank) {
                        best[0] = Math.min(best[0], (System.nanoTime() - t0) / 1e3 / N);
                    }
                }
            });
        }
        for (final Thread t : ts) {
            t.start();
        }
        for (final Thread t : ts) {
            t.join();
        }
        return best[0];
    }
}
