package dev.tutti.coll;

import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The collective side of one communicator: its collective context id, its group (as world ranks) and the
 * sequence number that gives each ordinary collective call its own message key.
 *
 * <p>Implementation notes. Ordinary collectives are matched by call order (MPI's rule): every rank calls them in
 * the same order on a communicator, so the n-th call on each rank draws the same {@code seq}. Messages of that
 * call carry the tag {@code seq mod 2^31} in the collective context, which p2p traffic (another context) can never
 * match. Within one call, the messages from one rank to another are matched in the order they are sent
 * (non-overtaking), so every algorithm must send them in the order its peer receives them; no per-round tag is
 * needed, which lets asymmetric schedules (a tree's root has more rounds than its leaves) line up.
 * Wrap-around is harmless unless 2^31 calls are outstanding at once.
 */
public final class CollComm {
    private static final int SEQ_MASK = Integer.MAX_VALUE;

    private final P2pEngine engine;
    private final int context;
    private final int rank;
    private final int size;
    private final int[] worldRanks;
    private final CommView view;
    private final AtomicInteger seq = new AtomicInteger();
    private final SelectionTable selection;

    /**
     * Creates the collective state of a communicator.
     *
     * @param engine     the rank's engine
     * @param context    the collective context id (distinct from the point-to-point one)
     * @param rank       this rank in the group
     * @param worldRanks world rank of each group rank, or null if the group is the world in order
     * @param view       the communicator, for statuses and messages
     * @param selection  the algorithm selection in force
     */
    public CollComm(final P2pEngine engine, final int context, final int rank, final int[] worldRanks,
        final CommView view, final SelectionTable selection) {
        this.engine = engine;
        this.context = context;
        this.rank = rank;
        this.worldRanks = worldRanks;
        this.size = null == worldRanks ? engine.worldSize() : worldRanks.length;
        this.view = view;
        this.selection = selection;
    }

    /** @return this rank */
    public int rank() {
        return rank;
    }

    /** @return the group size */
    public int size() {
        return size;
    }

    /** @return the engine */
    public P2pEngine engine() {
        return engine;
    }

    /** @return the collective context id */
    public int context() {
        return context;
    }

    /** @return the communicator view */
    public CommView view() {
        return view;
    }

    /** @return the algorithm selection */
    public SelectionTable selection() {
        return selection;
    }

    /**
     * Translates a group rank to a world rank.
     *
     * @param groupRank the rank in this group
     * @return its world rank
     */
    public int world(final int groupRank) {
        return null == worldRanks ? groupRank : worldRanks[groupRank];
    }

    /** @return the tag of the next ordinary collective call */
    int nextTag() {
        return seq.getAndIncrement() & SEQ_MASK;
    }

    /**
     * Takes the key of the next ordinary collective call for an operation that runs several schedules one after
     * another under that one key (communicator creation retries its context-id agreement this way). Like any
     * ordinary collective, every rank of the group must reserve in the same call order.
     *
     * @return the tag to pass to {@link ScheduleRun#start(Schedule, CollComm, int, boolean)}
     */
    public int reserveTag() {
        return nextTag();
    }

    /** @return a description for messages */
    public String describe() {
        return view.describe();
    }
}
