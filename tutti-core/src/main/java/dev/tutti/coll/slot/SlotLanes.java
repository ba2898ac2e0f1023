package dev.tutti.coll.slot;

import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.DirectMemory;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The lanes of one communicator on this rank ({@link SlotLane}), one per peer and shape, made on first use: at a
 * persistent call's init, in call order, so both ranks of a pair make their lanes alike. The communicator makes
 * this object with its first persistent call that has a peer in direct memory (most never do).
 *
 * <p>Implementation notes. Lanes are made by the map's atomic {@code computeIfAbsent}, so inits on several threads
 * make one lane per key. Touched only off the per-call path: inits, and the communicator's free.
 */
public final class SlotLanes {
    private final P2pEngine engine;
    private final int context;
    private final CommView view;
    private final ConcurrentHashMap<SlotLane.Key, SlotLane> lanes = new ConcurrentHashMap<>();

    /**
     * @param engine  the rank's engine
     * @param context the communicator's collective context
     * @param view    the communicator, for messages
     */
    public SlotLanes(final P2pEngine engine, final int context, final CommView view) {
        this.engine = engine;
        this.context = context;
        this.view = view;
    }

    /**
     * Returns the tag of a slot lane's agreement messages for a run of tag {@code tag} (what a peer that runs the
     * call another way may meet).
     *
     * @param tag the run's tag
     * @return the agreement's tag
     */
    public static int agreementTag(final int tag) {
        return SlotLane.agreementTag(tag);
    }

    /** Returns the lane for a peer and shape, made on first use. */
    SlotLane lane(final SlotLane.Key key, final int peerWorld, final DirectMemory memory,
        final long limit) {
        return lanes.computeIfAbsent(key, k -> new SlotLane(k, engine, context, view, peerWorld, memory, limit));
    }

    /**
     * The communicator is freed: gives each lane's slots back to the arena where no request is using them
     * ({@link SlotLane#close()}).
     */
    public void close() {
        lanes.values().forEach(SlotLane::close);
    }
}
