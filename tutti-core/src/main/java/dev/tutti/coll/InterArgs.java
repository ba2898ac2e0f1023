package dev.tutti.coll;

import dev.tutti.Datatype;
import dev.tutti.Op;

import java.lang.foreign.MemorySegment;

/**
 * The arguments of one intercommunicator collective call on one rank, resolved to memory and validated by the
 * API layer. "Out" is the direction from the local group to the remote group, "in" the other one; each has its
 * own type and count, since the symmetric forms let the two directions differ. Counts are in elements.
 *
 * <ul>
 * <li>bcast: {@code send} ({@code sendCount}) at the local root goes to every remote rank; {@code recv}
 *     ({@code recvCount}) receives the remote root's data.</li>
 * <li>scatter: {@code send} at the local root holds remoteSize blocks of {@code sendCount}; {@code recv} gets
 *     this rank's {@code recvCount} from the remote root.</li>
 * <li>gather: {@code send} ({@code sendCount}) goes to the remote root; {@code recv} at the local root receives
 *     remoteSize blocks of {@code recvCount}.</li>
 * <li>reduce: {@code send} ({@code sendCount}) is reduced at the remote root; {@code recv} at the local root
 *     receives the remote group's result ({@code recvCount}).</li>
 * <li>allgather: as gather, every local rank receiving; allreduce: as reduce, every local rank receiving.</li>
 * <li>reduce_scatter_block: {@code send} ({@code sendCount}) is the vector for the remote group; {@code recv}
 *     is this rank's block ({@code recvCount}) of the remote result of localSize blocks. reduce_scatter: the
 *     same with {@code recvCounts} (one per local rank).</li>
 * <li>alltoall: remoteSize blocks each way; alltoallv / allgatherv / gatherv / scatterv: the count and
 *     displacement arrays index remote ranks; alltoallw: per-remote-rank memory and types.</li>
 * </ul>
 *
 * @param op          the operation name for messages
 * @param sendType    type of the out direction
 * @param recvType    type of the in direction
 * @param reduceOp    the reduction, or null
 * @param send        out memory, or null where not significant
 * @param sendCount   out count
 * @param recv        in memory, or null where not significant
 * @param recvCount   in count
 * @param root        the local root (a local rank), or -1 where this rank does not know or need it
 * @param remoteRoot  the remote root (a remote rank), or -1
 * @param sendCounts  per-peer out counts, or null
 * @param sendDispls  per-peer out displacements, or null
 * @param recvCounts  per-peer in counts (per local rank for reduce_scatter), or null
 * @param recvDispls  per-peer in displacements, or null
 * @param sendBlocks  alltoallw out memory per remote rank, or null
 * @param sendTypes   alltoallw out types, or null
 * @param recvBlocks  alltoallw in memory per remote rank, or null
 * @param recvTypes   alltoallw in types, or null
 */
public record InterArgs(String op, Datatype sendType, Datatype recvType, Op reduceOp, MemorySegment send,
    int sendCount, MemorySegment recv, int recvCount, int root, int remoteRoot, int[] sendCounts, int[] sendDispls,
    int[] recvCounts, int[] recvDispls, MemorySegment[] sendBlocks, Datatype[] sendTypes, MemorySegment[] recvBlocks,
    Datatype[] recvTypes) {
    /** The empty segment of a side with no data (one object, shared by the intercommunicator algorithms). */
    public static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);


    /**
     * Arguments of a regular (non-v) operation.
     *
     * @param op         name
     * @param sendType   out type
     * @param recvType   in type
     * @param reduceOp   reduction or null
     * @param send       out memory or null
     * @param sendCount  out count
     * @param recv       in memory or null
     * @param recvCount  in count
     * @param root       local root or -1
     * @param remoteRoot remote root or -1
     * @return the arguments
     */
    public static InterArgs of(final String op, final Datatype sendType, final Datatype recvType,
        final Op reduceOp, final MemorySegment send, final int sendCount, final MemorySegment recv,
        final int recvCount, final int root, final int remoteRoot) {
        return new InterArgs(op, sendType, recvType, reduceOp, send, sendCount, recv, recvCount, root, remoteRoot,
            null, null, null, null, null, null, null, null);
    }

    /**
     * @return whether these are a regular operation's arguments ({@link #of}): no per-peer counts or blocks, so
     *         that the roots, types, counts and memory describe the call completely (and can key a cached schedule)
     */
    public boolean isRegular() {
        return null == sendCounts && null == sendDispls && null == recvCounts && null == recvDispls
            && null == sendBlocks && null == recvBlocks;
    }

    /**
     * @param first element index
     * @param n     elements
     * @return {@code n} out elements from {@code first}, or an empty segment if {@code n} is 0
     */
    public MemorySegment out(final long first, final long n) {
        return slice(send, sendType, first, n);
    }

    /**
     * @param first element index
     * @param n     elements
     * @return {@code n} in elements from {@code first}, or an empty segment if {@code n} is 0
     */
    public MemorySegment in(final long first, final long n) {
        return slice(recv, recvType, first, n);
    }

    public static MemorySegment slice(final MemorySegment s, final Datatype t, final long first, final long n) {
        if (0 == n) {
            return EMPTY;
        }
        return s.asSlice(first * t.sizeBytes(), n * t.sizeBytes());
    }
}
