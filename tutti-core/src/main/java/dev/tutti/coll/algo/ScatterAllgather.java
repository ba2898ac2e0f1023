package dev.tutti.coll.algo;

import dev.tutti.Datatype;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;

import java.lang.foreign.MemorySegment;

/**
 * Van de Geijn's broadcast for long messages: a binomial scatter of p pieces from the root, then a ring
 * allgather of the pieces.
 *
 * <p>Implementation notes. The n elements are cut into p pieces of {@code n/p} or {@code n/p + 1} elements
 * (the first {@code n mod p} pieces one longer); piece j belongs to relative rank {@code j = (rank - root) mod
 * p}. Everything happens in the broadcast buffer itself, with no scratch: the pieces of a binomial subtree
 * {@code [v, v + s)} (see {@link Binomial}) are one contiguous range of the buffer, so the scatter receives a
 * subtree's range from the parent and forwards the children's sub-ranges. The ring then runs p - 1 steps: in
 * step t relative rank v sends piece {@code v - t} to {@code v + 1} and receives piece {@code v - t - 1} from
 * {@code v - 1} (mod p). A transfer is skipped, on both sides alike, when the receiver already holds the piece
 * from the scatter (it lies in the receiver's subtree range), so the root receives nothing and no byte is
 * moved twice. Each step is its own round, so a piece is forwarded only after it arrived.
 *
 * <p>Cost: scatter {@code ceil(lg p)·α + ((p-1)/p)nβ}, ring {@code (p-1)α + ((p-1)/p)nβ}: about {@code 2nβ}
 * in all instead of the binomial tree's {@code ceil(lg p)·nβ}, for {@code ceil(lg p) + p - 1} rounds. Any p
 * (the ring form). When {@code count < p} some pieces would be empty and the latency is not worth paying:
 * it falls back to {@link Binomial#bcast}. Source: Barnett, Gupta, Payne, Shuler, van de Geijn, Watts,
 * "Interprocessor collective communication library (InterCom)", SHPCC 1994; MPICH
 * {@code MPIR_Bcast_intra_scatter_ring_allgather}.
 */
public final class ScatterAllgather {
    private ScatterAllgather() {
    }

    /** @param c comm @param a args @return bcast schedule; binomial when count &lt; p */
    public static Schedule bcast(final CollComm c, final CollArgs a) {
        final int p = c.size();
        final int count = a.count();
        if (count < p || 1 == p) {
            return Binomial.bcast(c, a);
        }
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int root = a.root();
        final int v = Math.floorMod(c.rank() - root, p);
        final Datatype type = a.type();
        final int q = count / p;
        final int r = count % p;
        // Scatter: the subtree [v, v + s) is the element range [first(v), first(v + s)).
        final int s = Binomial.subtree(v, p);
        if (0 != v) {
            final int parent = Binomial.actual(v - Integer.lowestOneBit(v), root, p);
            b.recv(parent, pieces(a, v, v + s, q, r), type).endRound();
        }
        for (int m = s > 1 ? Integer.highestOneBit(s - 1) : 0; m > 0; m >>= 1) {
            b.send(Binomial.actual(v + m, root, p), pieces(a, v + m, v + Math.min(s, 2 * m), q, r), type);
        }
        b.endRound();
        // Ring allgather, skipping pieces the receiver got from the scatter.
        final int right = (v + 1) % p;
        final int left = (v - 1 + p) % p;
        for (int t = 0; t < p - 1; t++) {
            final int sendPiece = Math.floorMod(v - t, p);
            final int recvPiece = Math.floorMod(v - t - 1, p);
            if (!holds(right, sendPiece, p)) {
                b.send(Binomial.actual(right, root, p), pieces(a, sendPiece, sendPiece + 1, q, r), type);
            }
            if (!holds(v, recvPiece, p)) {
                b.recv(Binomial.actual(left, root, p), pieces(a, recvPiece, recvPiece + 1, q, r), type);
            }
            b.endRound();
        }
        return b.build();
    }

    /** @return whether relative rank {@code v} holds piece {@code j} after the scatter (its subtree range) */
    private static boolean holds(final int v, final int j, final int p) {
        return j >= v && j < v + Binomial.subtree(v, p);
    }

    /** @return the buffer range of pieces {@code [from, to)} */
    private static MemorySegment pieces(final CollArgs a, final int from, final int to, final int q, final int r) {
        final long first = first(from, q, r);
        return a.slice(a.recv(), first, first(to, q, r) - first);
    }

    /** @return the first element of piece j: pieces below r are one element longer */
    private static long first(final int j, final int q, final int r) {
        return (long) j * q + Math.min(j, r);
    }
}
