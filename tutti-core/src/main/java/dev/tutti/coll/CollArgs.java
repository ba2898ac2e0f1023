package dev.tutti.coll;

import dev.tutti.Datatype;
import dev.tutti.Op;

import java.lang.foreign.MemorySegment;

/**
 * The arguments of one collective call, resolved to memory: what every algorithm of every operation reads.
 * Validated before it is built (by the API layer), so algorithms may trust it.
 *
 * <p>Conventions (counts and displacements in elements of {@code type}):
 * <ul>
 * <li>bcast: {@code recv} is the buffer, {@code count} elements.</li>
 * <li>gather / scatter / allgather / alltoall: {@code count} is the per-rank block; {@code send} and
 *     {@code recv} hold one block or {@code size} blocks as MPI says. In place ({@code send == null}): the
 *     calling rank's block is already in {@code recv} (gather at root, allgather, alltoall), or stays in
 *     {@code send} (scatter at root: {@code recv == null}).</li>
 * <li>gatherv / allgatherv: {@code recvCounts}/{@code recvDispls} describe {@code recv}; {@code count} is this
 *     rank's contribution. scatterv: {@code sendCounts}/{@code sendDispls} describe {@code send} at the root.
 *     alltoallv: all four arrays.</li>
 * <li>alltoallw: {@code sendBlocks}/{@code recvBlocks} and their types, one per peer.</li>
 * <li>reduce / allreduce / scan / exscan: {@code count} elements; in place: {@code send == null} and the input
 *     is in {@code recv}.</li>
 * <li>reduce_scatter_block: {@code send} holds {@code size * count}, {@code recv} {@code count}; in place: the
 *     input is in {@code recv} (size * count) and the result goes to its first block.
 *     reduce_scatter: {@code recvCounts} per rank.</li>
 * </ul>
 *
 * @param op          the operation name for messages
 * @param send        the send memory, or null when in place / not significant
 * @param recv        the receive memory, or null when not significant
 * @param type        element type
 * @param count       element count (see above)
 * @param root        the root, or -1
 * @param reduceOp    the reduction, or null
 * @param sendCounts  per-peer send counts, or null
 * @param sendDispls  per-peer send displacements, or null
 * @param recvCounts  per-peer receive counts, or null
 * @param recvDispls  per-peer receive displacements, or null
 * @param sendBlocks  alltoallw: per-peer send memory, or null
 * @param sendTypes   alltoallw: per-peer send types, or null
 * @param recvBlocks  alltoallw: per-peer receive memory, or null
 * @param recvTypes   alltoallw: per-peer receive types, or null
 */
public record CollArgs(String op, MemorySegment send, MemorySegment recv, Datatype type, int count, int root,
    Op reduceOp, int[] sendCounts, int[] sendDispls, int[] recvCounts, int[] recvDispls,
    MemorySegment[] sendBlocks, Datatype[] sendTypes, MemorySegment[] recvBlocks, Datatype[] recvTypes) {

    /**
     * Arguments of a regular (non-v) collective.
     *
     * @param op       name
     * @param send     send memory or null
     * @param recv     receive memory or null
     * @param type     type
     * @param count    count
     * @param root     root or -1
     * @param reduceOp reduction or null
     * @return the arguments
     */
    public static CollArgs of(final String op, final MemorySegment send, final MemorySegment recv,
        final Datatype type, final int count, final int root, final Op reduceOp) {
        return new CollArgs(op, send, recv, type, count, root, reduceOp, null, null, null, null, null, null, null,
            null);
    }

    /** @return element size in bytes */
    public long elem() {
        return type.sizeBytes();
    }

    /** @return bytes of {@code count} elements */
    public long bytes() {
        return (long) count * type.sizeBytes();
    }

    /** @return whether the call is in place (no separate send memory) */
    public boolean inPlace() {
        return null == send;
    }

    /**
     * Returns {@code n} elements of a segment starting at element {@code first} (the segment itself if that is all
     * of it).
     *
     * @param s     the segment
     * @param first first element
     * @param n     elements
     * @return the slice
     */
    public MemorySegment slice(final MemorySegment s, final long first, final long n) {
        final long size = type.sizeBytes();
        if (0 == first && n * size == s.byteSize()) {
            return s; // the whole segment: no new view
        }
        return s.asSlice(first * size, n * size);
    }

    /**
     * Returns block {@code i} (of {@code count} elements) of a segment.
     *
     * @param s the segment
     * @param i the block index
     * @return the block
     */
    public MemorySegment block(final MemorySegment s, final int i) {
        return slice(s, (long) i * count, count);
    }
}
