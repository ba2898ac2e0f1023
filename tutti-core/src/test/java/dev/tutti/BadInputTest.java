package dev.tutti;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every bad input is refused before anything is sent, with a message naming it, and the communicator works on. */
@Timeout(60)
public class BadInputTest {
    public static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));

    public static void refused(final ErrorClass cls, final String needle, final Runnable call) {
        final TuttiException e = assertThrows(TuttiException.class, call::run);
        assertEquals(cls, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains(needle), "message '" + e.getMessage() + "' should contain '" + needle
            + "'");
    }

    @Test
    public void shouldRefuseBadPointToPointArguments() {
        Tutti.runLocal(2, OPTS, w -> {
            final int[] a = new int[4];
            refused(ErrorClass.RANK, "dest=2 is out of range, expected 0..1", () -> w.send(Buf.of(a), 2, 0));
            refused(ErrorClass.RANK, "dest=-5", () -> w.isend(Buf.of(a), -5, 0));
            refused(ErrorClass.RANK, "source=7", () -> w.recv(Buf.of(a), 7, 0));
            refused(ErrorClass.TAG, "tag=-3 is out of range", () -> w.send(Buf.of(a), 1, -3));
            refused(ErrorClass.TAG, "tag=-1", () -> w.send(Buf.of(a), 1, Communicator.ANY_TAG));
            refused(ErrorClass.TAG, "tag=-7", () -> w.recv(Buf.of(a), 1, -7));
            refused(ErrorClass.BUFFER, "buf=null", () -> w.send(null, 1, 0));
            refused(ErrorClass.COUNT, "count=-1", () -> Buf.of(a, 0, -1));
            refused(ErrorClass.COUNT, "offset=2 count=3 exceeds length=4", () -> Buf.of(a, 2, 3));
            refused(ErrorClass.BUFFER, "buffer=null", () -> Buf.of((int[]) null));
            try (java.lang.foreign.Arena confined = java.lang.foreign.Arena.ofConfined()) {
                refused(ErrorClass.BUFFER, "is confined to one thread",
                    () -> Buf.of(confined.allocate(8), Datatype.LONG));
            }
            // Still usable: a real exchange after all the refusals.
            final int peer = 1 - w.rank();
            final int[] in = new int[1];
            w.sendrecv(Buf.of(new int[] {w.rank()}), peer, 0, Buf.of(in), peer, 0);
            assertEquals(peer, in[0]);
        });
    }

    @Test
    public void shouldReportTruncationWithBothSizesAndGoOn() {
        Tutti.runLocal(2, OPTS, w -> {
            for (final int n : new int[] {10, 100_000}) {
                if (0 == w.rank()) {
                    w.send(Buf.of(new int[n]), 1, 0);
                    w.send(Buf.of(new int[] {42}), 1, 1);
                } else {
                    refused(ErrorClass.TRUNCATE, "has bytes=" + 4 * n + ", buffer holds bytes=" + 4 * (n - 1),
                        () -> w.recv(Buf.of(new int[n - 1]), 0, 0));
                    final int[] x = new int[1];
                    w.recv(Buf.of(x), 0, 1);
                    assertEquals(42, x[0]);
                }
            }
        });
    }

    @Test
    public void shouldReportTypeMismatch() {
        Tutti.runLocal(2, OPTS, w -> {
            if (0 == w.rank()) {
                w.send(Buf.of(new double[2]), 1, 0);
            } else {
                refused(ErrorClass.TYPE, "has type=DOUBLE, the receive expects type=LONG",
                    () -> w.recv(Buf.of(new long[2]), 0, 0));
            }
        });
    }

    @Test
    public void shouldRefuseBadCollectiveArguments() {
        Tutti.runLocal(3, OPTS, w -> {
            final int[] a = new int[6];
            refused(ErrorClass.ROOT, "root=3 is out of range, expected 0..2", () -> w.bcast(Buf.of(a), 3));
            refused(ErrorClass.ROOT, "root=-1", () -> w.reduce(Buf.of(a), Buf.of(a), Op.SUM, -1));
            if (0 == w.rank()) {
                refused(ErrorClass.COUNT, "recv count=5 is too small, expected at least 6",
                    () -> w.gather(Buf.of(a, 0, 2), Buf.of(a, 0, 5), 0));
            }
            refused(ErrorClass.COUNT, "send count=5 is not a multiple of size=3",
                () -> w.alltoall(Buf.of(a, 0, 5), Buf.of(new int[6])));
            refused(ErrorClass.ARG, "recvCounts.length=2", () -> w.allgatherv(Buf.of(a, 0, 1), Buf.of(a),
                new int[2], new int[2]));
            refused(ErrorClass.COUNT, "recvCounts[1]=-1", () -> w.allgatherv(Buf.of(a, 0, 1), Buf.of(a),
                new int[] {1, -1, 1}, new int[] {0, 1, 2}));
            refused(ErrorClass.OP, "MINLOC", () -> w.allreduce(Buf.of(a), Buf.of(new int[6]), Op.MINLOC));
            refused(ErrorClass.TYPE, "send type=INT but recv type=LONG",
                () -> w.allreduce(Buf.of(a), Buf.of(new long[6]), Op.SUM));
            refused(ErrorClass.BUFFER, "recv=null", () -> w.allreduce(Buf.of(a), null, Op.SUM));
            refused(ErrorClass.BUFFER, "buf=IN_PLACE", () -> w.bcast(Buf.IN_PLACE, 0));
            // Still usable.
            final int[] x = {w.rank()};
            w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
            assertEquals(3, x[0]);
        });
    }

    @Test
    public void shouldRefuseNonCommutativeOpOnReorderingAlgorithm() {
        final Op minus = Op.user("minus", false, (Op.IntFunction) (in, inout, count) -> {
            for (int i = 0; i < count; i++) {
                inout[i] = in[i] - inout[i];
            }
        });
        Tutti.runLocal(3, OPTS.algorithm("allreduce", "ring"), w -> {
            refused(ErrorClass.OP, "is not commutative", () -> w.allreduce(Buf.of(new int[4]), Buf.of(new int[4]),
                minus));
            final int[] x = {1};
            w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
            assertEquals(3, x[0]);
        });
    }

    @Test
    public void shouldNameBothCountsWhenRanksDisagree() {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2, OPTS, w -> {
            final int[] a = new int[0 == w.rank() ? 4 : 8];
            w.bcast(Buf.of(a), 0);
        }));
        assertTrue(e.getMessage().contains("rank=0 sent count=4 (bytes=16) but this rank expected count=8 (bytes=32)"),
            e.getMessage());
        assertEquals(ErrorClass.COUNT, e.errorClass());
    }

    @Test
    public void shouldEndTheJobNamingTheRankThatThrew() {
        final long start = System.nanoTime();
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(4, OPTS, w -> {
            if (2 == w.rank()) {
                throw new IllegalStateException("boom");
            }
            w.recv(Buf.of(new int[1]), 2, 0); // would wait forever for the dead rank
        }));
        assertTrue(e.getMessage().startsWith("runLocal: rank 2 failed: java.lang.IllegalStateException: boom"),
            e.getMessage());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    public void shouldTimeOutAHungJobWithStacks() {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2,
            OPTS.timeout(Duration.ofMillis(500)), w -> w.recv(Buf.of(new int[1]), 1 - w.rank(), 0)));
        assertEquals(ErrorClass.TIMEOUT, e.errorClass());
        assertTrue(e.getMessage().contains("rank 0 still running"), e.getMessage());
        assertTrue(e.getMessage().contains("CommImpl.recv"), e.getMessage());
    }
}
