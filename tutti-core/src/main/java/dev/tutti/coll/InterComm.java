package dev.tutti.coll;

import dev.tutti.internal.Errors;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;

/**
 * The collective side of an intercommunicator: a {@link CollComm} over the union of the two groups (on the
 * intercommunicator's collective context, with one call sequence shared by both groups, since MPI orders an
 * intercommunicator's collectives the same way in both), and a second {@code CollComm} over the local group
 * alone, used only as the shape from which intracommunicator algorithms build the in-group phases (it never
 * sends: its schedules are re-addressed to union ranks by {@code coll.inter.Composer}).
 *
 * <p>Union order: the group whose rank 0 has the smaller world rank comes first, then the other; both groups
 * compute the same order without communication. Immutable.
 */
public final class InterComm {
    private final CollComm union;
    private final CollComm local;
    private final int localSize;
    private final int remoteSize;
    private final boolean localFirst;

    /**
     * Creates the collective side of an intercommunicator.
     *
     * @param engine     the rank's engine
     * @param context    the collective context id
     * @param localWorld the local group as world ranks
     * @param remoteWorld the remote group as world ranks
     * @param view       the intercommunicator, for messages
     * @param selection  the algorithm selection for the in-group phases
     */
    public InterComm(final P2pEngine engine, final int context, final int[] localWorld, final int[] remoteWorld,
        final CommView view, final SelectionTable selection) {
        this.localSize = localWorld.length;
        this.remoteSize = remoteWorld.length;
        this.localFirst = localFirst(localWorld, remoteWorld);
        final int[] all = new int[localSize + remoteSize];
        System.arraycopy(localFirst ? localWorld : remoteWorld, 0, all, 0, localFirst ? localSize : remoteSize);
        System.arraycopy(localFirst ? remoteWorld : localWorld, 0, all, localFirst ? localSize : remoteSize,
            localFirst ? remoteSize : localSize);
        final int me = indexOf(localWorld, engine.worldRank());
        this.union = new CollComm(engine, context, localFirst ? me : remoteSize + me, all, view, selection);
        this.local = new CollComm(engine, context, me, localWorld, view, selection);
        union.register(); // the union runs every call on the context; the local view never sends
    }

    /**
     * Returns whether the local group comes first in the union order.
     *
     * @param localWorld  the local group
     * @param remoteWorld the remote group
     * @return true if local rank 0 has a smaller world rank than remote rank 0
     */
    public static boolean localFirst(final int[] localWorld, final int[] remoteWorld) {
        return localWorld[0] < remoteWorld[0];
    }

    private static int indexOf(final int[] a, final int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        throw Errors.refused("world rank " + v + " is not in the local group");
    }

    /** @return the union of the two groups, on which every intercommunicator schedule runs */
    public CollComm union() {
        return union;
    }

    /** @return the local group as a schedule-building shape (never run on) */
    public CollComm local() {
        return local;
    }

    /** @return this rank in the local group */
    public int rank() {
        return local.rank();
    }

    /** @return the local group's size */
    public int localSize() {
        return localSize;
    }

    /** @return the remote group's size */
    public int remoteSize() {
        return remoteSize;
    }

    /** @return whether the local group comes first in the union */
    public boolean isLocalFirst() {
        return localFirst;
    }

    /**
     * @param localRank a rank of the local group
     * @return its rank in the union
     */
    public int localToUnion(final int localRank) {
        return localFirst ? localRank : remoteSize + localRank;
    }

    /**
     * @param remoteRank a rank of the remote group
     * @return its rank in the union
     */
    public int remoteToUnion(final int remoteRank) {
        return localFirst ? localSize + remoteRank : remoteRank;
    }
}
