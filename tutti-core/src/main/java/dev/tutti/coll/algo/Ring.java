package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;
import dev.tutti.coll.Scratch;

import java.lang.foreign.MemorySegment;

/**
 * Ring ("bucket") algorithms: the ranks form a ring, each step every rank sends one block to its right neighbour
 * and receives one from its left, so every link carries the same load and no rank handles more than one block
 * per step. Chan et al. 2007 (BKT); allreduce as ring reduce-scatter + ring allgather, Patarasuk &amp; Yuan 2009
 * ("Bandwidth optimal all-reduce algorithms for clusters of workstations").
 *
 * <p>Implementation notes.
 * <ul>
 * <li>Allgather(v): {@code p-1} rounds; in round {@code s} rank {@code r} sends block {@code (r-s) mod p} to
 *     {@code r+1} and receives block {@code (r-s-1) mod p} from {@code r-1}, straight into its place in
 *     {@code recv}. The block sent in round {@code s} is the one received in round {@code s-1}, which is
 *     complete because a round's messages finish before the next round is posted. Cost
 *     {@code (p-1)α + ((p-1)/p)nβ} for a total of {@code n} bytes; no scratch. In place: the own block is
 *     already in {@code recv}.</li>
 * <li>Allreduce: the vector is cut into {@code p} blocks of {@code count/p} elements, the first
 *     {@code count mod p} one larger (blocks may be empty when {@code count < p}; empty messages are still sent,
 *     so both sides agree on the sequence). Reduce-scatter: round {@code s} sends block {@code (r-s) mod p}
 *     and receives block {@code (r-s-1) mod p} into one scratch block, then reduces it into the result; after
 *     {@code p-1} rounds rank {@code r} holds the complete block {@code (r+1) mod p}. Allgather: round
 *     {@code s} sends block {@code (r+1-s) mod p} and receives block {@code (r-s) mod p} in place. Cost
 *     {@code 2(p-1)α + 2((p-1)/p)nβ + ((p-1)/p)nγ}, bandwidth-optimal; scratch one block. Operands are combined
 *     in ring order, not rank order: commutative operations only.</li>
 * <li>Any {@code p}: no power-of-two assumption anywhere.</li>
 * </ul>
 */
public final class Ring {
    private Ring() {
    }

    /**
     * Ring allgather.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule allgather(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        if (!a.inPlace()) {
            b.copy(a.slice(a.send(), 0, a.count()), a.block(a.recv(), me));
        }
        if (0 == a.count()) {
            return b.build();
        }
        final int right = (me + 1) % p;
        final int left = (me - 1 + p) % p;
        for (int s = 0; s < p - 1; s++) {
            b.recv(left, a.block(a.recv(), mod(me - s - 1, p)), a.type());
            b.send(right, a.block(a.recv(), mod(me - s, p)), a.type());
            b.endRound();
        }
        return b.build();
    }

    /**
     * Ring allgatherv: as {@link #allgather}, block {@code i} being {@code recvCounts[i]} elements at
     * {@code recvDispls[i]}.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule allgatherv(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int[] counts = a.recvCounts();
        final int[] displs = a.recvDispls();
        if (!a.inPlace()) {
            b.copy(a.slice(a.send(), 0, counts[me]), a.slice(a.recv(), displs[me], counts[me]));
        }
        final int right = (me + 1) % p;
        final int left = (me - 1 + p) % p;
        for (int s = 0; s < p - 1; s++) {
            final int in = mod(me - s - 1, p);
            final int out = mod(me - s, p);
            b.recv(left, a.slice(a.recv(), displs[in], counts[in]), a.type());
            b.send(right, a.slice(a.recv(), displs[out], counts[out]), a.type());
            b.endRound();
        }
        return b.build();
    }

    /**
     * Ring allreduce (reduce-scatter then allgather). Commutative operations only.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule allreduce(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int n = a.count();
        final MemorySegment result = a.slice(a.recv(), 0, n);
        if (!a.inPlace()) {
            b.copy(a.slice(a.send(), 0, n), result);
        }
        if (1 == p || 0 == n) {
            return b.build();
        }
        final long[] displs = evenBlocks(n, p);
        final MemorySegment tmp = Scratch.allocate((displs[1] - displs[0]) * a.elem(), a.type());
        final int right = (me + 1) % p;
        final int left = (me - 1 + p) % p;
        for (int s = 0; s < p - 1; s++) {
            final int in = mod(me - s - 1, p);
            final int out = mod(me - s, p);
            final int inCount = (int) (displs[in + 1] - displs[in]);
            final MemorySegment got = a.slice(tmp, 0, inCount);
            b.recv(left, got, a.type());
            b.send(right, blockOf(a, result, displs, out), a.type());
            b.reduce(a.reduceOp(), a.type(), got, blockOf(a, result, displs, in), inCount);
            b.endRound();
        }
        for (int s = 0; s < p - 1; s++) {
            b.recv(left, blockOf(a, result, displs, mod(me - s, p)), a.type());
            b.send(right, blockOf(a, result, displs, mod(me + 1 - s, p)), a.type());
            b.endRound();
        }
        return b.build();
    }

    /**
     * Cuts {@code n} elements into {@code parts} blocks, the first {@code n mod parts} one element larger.
     *
     * @return {@code parts + 1} element offsets; block {@code i} is {@code [d[i], d[i+1])}
     */
    static long[] evenBlocks(final long n, final int parts) {
        final long[] d = new long[parts + 1];
        final long q = n / parts;
        final long rem = n % parts;
        for (int i = 0; i < parts; i++) {
            d[i + 1] = d[i] + q + (i < rem ? 1 : 0);
        }
        return d;
    }

    /** @return block {@code i} of {@code s} under the offsets {@code d} */
    static MemorySegment blockOf(final CollArgs a, final MemorySegment s, final long[] d, final int i) {
        return a.slice(s, d[i], d[i + 1] - d[i]);
    }

    /** @return {@code x mod p} in {@code [0, p)} */
    static int mod(final int x, final int p) {
        final int m = x % p;
        return m < 0 ? m + p : m;
    }
}
