package dev.tutti.comm;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.InterComm;
import dev.tutti.coll.door.CollDoor;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * How the collective creations of communicators (MPI-4.1 §7.4) decide a new communicator's groups and context
 * block: split (intra and inter), merge, and the creations over a subgroup. The api layer checks the arguments,
 * calls one of these, and builds the communicator of the returned {@link Child}.
 *
 * <p>Implementation notes. Every method is a collective call on the parent's collective context and takes its
 * place in the parent's call order: the group exchanges run as schedules of their own (a linear allgather, whose
 * cost p·α is below the agreement's), then {@link Agreement} agrees on a block free at every member. A rank that
 * will not be a member still takes part in the agreement, with no vote, so the parent's call order stays the same
 * everywhere. Cost: one allgather of two ints per rank plus the agreement's allreduce of the proposal bitmap.
 */
public final class Creation {
    /**
     * A new communicator as its members agreed it.
     *
     * @param block  its context block
     * @param local  its (local) group as world ranks, in rank order
     * @param remote an intercommunicator's remote group as world ranks, or null for an intracommunicator
     */
    public record Child(int block, int[] local, int[] remote) {
    }

    private Creation() {
    }

    /**
     * Splits an intracommunicator (MPI_Comm_split): the ranks of each color form a new communicator, ordered by
     * key, then by old rank.
     *
     * @param ids       this rank's context ids
     * @param coll      the parent's collective communicator
     * @param color     this rank's color, or {@code undefined} for none
     * @param key       this rank's key
     * @param undefined the color that means no new communicator
     * @param toWorld   the parent's rank to world rank
     * @return the child, or null for {@code undefined}
     */
    public static Child split(final ContextIdAllocator ids, final CollComm coll, final int color, final int key,
        final int undefined, final IntUnaryOperator toWorld) {
        final int[] all = colorsAndKeys(coll, color, key, "split");
        final boolean member = undefined != color;
        final int block = Agreement.run(ids, coll, coll.reserveTag(), "split", member);
        return member ? new Child(block, pick(all, color, coll.size(), r -> r, toWorld), null) : null;
    }

    /**
     * Splits an intercommunicator: the ranks of each color in both groups form a new intercommunicator, each group
     * ordered by key, then by old rank; a color with no rank in one of the groups makes none.
     *
     * @param ids        this rank's context ids
     * @param ic         the parent
     * @param color      this rank's color, or {@code undefined}
     * @param key        this rank's key
     * @param undefined  the color that means no new communicator
     * @param localWorld the local group as world ranks
     * @param remoteWorld the remote group as world ranks
     * @return the child, or null if this rank is in none
     */
    public static Child split(final ContextIdAllocator ids, final InterComm ic, final int color, final int key,
        final int undefined, final int[] localWorld, final int[] remoteWorld) {
        final int[] all = colorsAndKeys(ic.union(), color, key, "split");
        final int[] local = undefined == color ? new int[0]
            : pick(all, color, localWorld.length, ic::localToUnion, r -> localWorld[r]);
        final int[] remote = undefined == color ? new int[0]
            : pick(all, color, remoteWorld.length, ic::remoteToUnion, r -> remoteWorld[r]);
        final boolean member = undefined != color && remote.length > 0;
        final int block = Agreement.run(ids, ic.union(), ic.union().reserveTag(), "split", member);
        return member ? new Child(block, local, remote) : null;
    }

    /**
     * Merges an intercommunicator's groups into an intracommunicator (MPI_Intercomm_merge): the group that passed
     * {@code high = false} comes first; if both passed the same, the group that was first in the union does.
     *
     * @param ids         this rank's context ids
     * @param ic          the intercommunicator
     * @param high        this group's choice (the same at every rank of a group)
     * @param localWorld  the local group as world ranks
     * @param remoteWorld the remote group as world ranks
     * @return the child, whose {@code local} is the merged group
     */
    public static Child merge(final ContextIdAllocator ids, final InterComm ic, final boolean high,
        final int[] localWorld, final int[] remoteWorld) {
        final int[] flags = allgather(ic.union(), new int[] {high ? 1 : 0}, "merge");
        final boolean remoteHigh = 0 != flags[ic.remoteToUnion(0)];
        final boolean localFirst = high == remoteHigh ? ic.isLocalFirst() : !high;
        final int block = Agreement.run(ids, ic.union(), ic.union().reserveTag(), "merge", true);
        final int[] first = localFirst ? localWorld : remoteWorld;
        final int[] second = localFirst ? remoteWorld : localWorld;
        final int[] all = new int[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return new Child(block, all, null);
    }

    /** @return every rank's (color, key), at index 2r and 2r+1 */
    private static int[] colorsAndKeys(final CollComm coll, final int color, final int key, final String op) {
        return allgather(coll, new int[] {color, key}, op);
    }

    private static int[] allgather(final CollComm coll, final int[] mine, final String op) {
        final int[] all = new int[mine.length * coll.size()];
        CollDoor.internal(AlgorithmId.ALLGATHER_LINEAR, coll, CollArgs.of(op, MemorySegment.ofArray(mine),
            MemorySegment.ofArray(all), Datatype.INT, mine.length, -1, null)).waitFor();
        return all;
    }

    /**
     * Runs a broadcast of longs over a group (for the creations that exchange more than a vote).
     *
     * @param coll the group
     * @param data the data at the root, where it arrives elsewhere
     * @param root the root
     * @param op   the operation, for messages
     */
    static void bcast(final CollComm coll, final long[] data, final int root, final String op) {
        CollDoor.internal(AlgorithmId.BCAST_BINOMIAL, coll, CollArgs.of(op, null, MemorySegment.ofArray(data),
            Datatype.LONG, data.length, root, null)).waitFor();
    }

    /**
     * Runs a bitwise-and allreduce of longs over a group.
     *
     * @param coll the group
     * @param in   this rank's words
     * @param out  the conjunction, at every rank
     * @param op   the operation, for messages
     */
    static void and(final CollComm coll, final long[] in, final long[] out, final String op) {
        CollDoor.internal(AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING, coll, CollArgs.of(op, MemorySegment.ofArray(in),
            MemorySegment.ofArray(out), Datatype.LONG, in.length, -1, Op.BAND)).waitFor();
    }

    /**
     * @return the world ranks of the ranks {@code 0..n-1} of a group whose color is {@code color}, ordered by key,
     *         then by rank
     */
    private static int[] pick(final int[] all, final int color, final int n, final IntUnaryOperator toIndex,
        final IntUnaryOperator toWorld) {
        final List<Integer> same = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            if (all[2 * toIndex.applyAsInt(r)] == color) {
                same.add(r);
            }
        }
        same.sort(Comparator.<Integer>comparingInt(r -> all[2 * toIndex.applyAsInt(r) + 1]).thenComparingInt(r -> r));
        return same.stream().mapToInt(toWorld::applyAsInt).toArray();
    }
}
