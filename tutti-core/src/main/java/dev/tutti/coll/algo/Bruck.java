package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;
import dev.tutti.coll.Scratch;
import dev.tutti.internal.SegmentCopy;

import java.lang.foreign.MemorySegment;

/**
 * Bruck et al., "Efficient algorithms for all-to-all communications in multiport message-passing systems",
 * IEEE TPDS 8(11), 1997: {@code ceil(lg p)} rounds for any {@code p}, at the price of local rotations.
 * MPICH {@code MPIR_Allgather_intra_brucks}, {@code MPIR_Alltoall_intra_brucks}.
 *
 * <p>Implementation notes.
 * <ul>
 * <li>Allgather: a scratch vector of {@code p} blocks holds, at index {@code i}, the block of rank
 *     {@code (r+i) mod p}; it starts with the own block at index 0. Round {@code k} ({@code d = 2^k}): send the
 *     first {@code min(d, p-d)} blocks to {@code r-d}, receive as many from {@code r+d} into indices
 *     {@code [d, d+min(d, p-d))}. After the last round all {@code p} blocks are present; two copies rotate them
 *     into {@code recv} ({@code recv[(r+i) mod p] = tmp[i]}). Cost {@code ceil(lg p)α + ((p-1)/p)nβ} plus
 *     {@code n} bytes copied; scratch {@code n} (total bytes). In place: the own block is read from
 *     {@code recv}.</li>
 * <li>Alltoall: phase 1 rotates the input so that index {@code i} holds the block for rank {@code (r+i) mod p}.
 *     Round {@code k} ({@code d = 2^k}) packs every block whose index has bit {@code k} set, sends the pack to
 *     {@code r+d}, receives the same indices from {@code r-d} and unpacks them in place. A block with index
 *     {@code i} travels {@code i} ranks in total, so it ends on its destination; there index {@code i} holds the
 *     block from rank {@code (r-i) mod p}, which phase 3 copies to {@code recv[(r-i) mod p]}. Cost
 *     {@code ceil(lg p)α + (about n/2 per round) ceil(lg p)β} with {@code n = p·m} plus the packing copies:
 *     the small-block algorithm. Scratch {@code 2n}. In place works because phase 1 copies the whole input to
 *     scratch before {@code recv} is written.</li>
 * <li>Send/receive pairs: in each round a rank sends to one peer and receives from another, the same round
 *     index on both; no buffer is sent and received into in the same round.</li>
 * </ul>
 */
public final class Bruck {
    private Bruck() {
    }

    /**
     * Bruck allgather.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule allgather(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final MemorySegment mine = a.inPlace() ? a.block(a.recv(), me) : a.slice(a.send(), 0, a.count());
        if (1 == p || 0 == a.count()) {
            b.copy(mine, a.block(a.recv(), me));
            return b.build();
        }
        final MemorySegment tmp = Scratch.allocate((long) p * a.bytes());
        b.copy(mine, a.block(tmp, 0));
        for (int d = 1; d < p; d <<= 1) {
            final int n = Math.min(d, p - d);
            b.recv((me + d) % p, a.slice(tmp, (long) d * a.count(), (long) n * a.count()), a.type());
            b.send((me - d + p) % p, a.slice(tmp, 0, (long) n * a.count()), a.type());
            b.endRound();
        }
        // recv[(me + i) mod p] = tmp[i]: tmp[0, p-me) goes to recv[me, p), tmp[p-me, p) to recv[0, me).
        b.copy(a.slice(tmp, 0, (long) (p - me) * a.count()), a.slice(a.recv(), (long) me * a.count(),
            (long) (p - me) * a.count()));
        b.copy(a.slice(tmp, (long) (p - me) * a.count(), (long) me * a.count()), a.slice(a.recv(), 0,
            (long) me * a.count()));
        return b.build();
    }

    /**
     * Bruck alltoall.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule alltoall(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final long m = a.count();
        final MemorySegment input = a.inPlace() ? a.recv() : a.send();
        if (1 == p || 0 == m) {
            b.copy(a.block(input, me), a.block(a.recv(), me));
            return b.build();
        }
        // Phase 1: tmp[i] = input[(me + i) mod p].
        final MemorySegment tmp = Scratch.allocate(p * a.bytes());
        b.copy(a.slice(input, me * m, (p - me) * m), a.slice(tmp, 0, (p - me) * m));
        b.copy(a.slice(input, 0, me * m), a.slice(tmp, (p - me) * m, me * m));
        // Phase 2: at most p/2 blocks per round (indices with one given bit set); pack and unpack buffers.
        final MemorySegment packOut = Scratch.allocate((p / 2 + 1) * a.bytes());
        final MemorySegment packIn = Scratch.allocate((p / 2 + 1) * a.bytes());
        for (int d = 1; d < p; d <<= 1) {
            final int bit = d;
            int blocks = 0;
            for (int i = 0; i < p; i++) {
                if (0 != (i & bit)) {
                    blocks++;
                }
            }
            final long bytes = blocks * a.bytes();
            final long blockBytes = a.bytes();
            b.local(() -> moveBlocks(tmp, packOut, bit, p, blockBytes, true));
            b.recv((me - d + p) % p, packIn.asSlice(0, bytes), a.type());
            b.send((me + d) % p, packOut.asSlice(0, bytes), a.type());
            b.local(() -> moveBlocks(tmp, packIn, bit, p, blockBytes, false));
        }
        b.endRound();
        // Phase 3: recv[(me - i) mod p] = tmp[i].
        for (int i = 0; i < p; i++) {
            b.copy(a.block(tmp, i), a.block(a.recv(), Ring.mod(me - i, p)));
        }
        return b.build();
    }

    /** Packs ({@code out}) or unpacks the blocks of {@code tmp} whose index has {@code bit} set. */
    private static void moveBlocks(final MemorySegment tmp, final MemorySegment pack, final int bit, final int p,
        final long blockBytes, final boolean out) {
        long at = 0;
        for (int i = 0; i < p; i++) {
            if (0 != (i & bit)) {
                if (out) {
                    SegmentCopy.copy(tmp, i * blockBytes, pack, at, blockBytes);
                } else {
                    SegmentCopy.copy(pack, at, tmp, i * blockBytes, blockBytes);
                }
                at += blockBytes;
            }
        }
    }
}
