package dev.tutti.comm;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.runtime.Agent;

import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The context ids of one rank: which blocks of ids its communicators use, and the local half of the agreement
 * by which the members of a new communicator choose a block that is free at every one of them.
 *
 * <p>A communicator owns one block of {@link #IDS_PER_BLOCK} consecutive context ids starting at
 * {@link #base(int)}: point-to-point ({@link #P2P}), collective ({@link #COLL}), two reserved for later layers
 * (tagged collectives {@link #TAGGED}, the correctness checker {@link #CHECK}), communicator management
 * ({@link #MANAGE}: group-collective creation and intercommunicator construction, which cannot use call order)
 * and three spare. Block 0 is the world communicator's (contexts 0 and 1, as the engine always had).
 *
 * <p>Implementation notes (MPICH's mask algorithm). The state is a bit mask of blocks in use, {@link #BLOCKS}
 * bits. To create a communicator the members allreduce (bitwise and) a proposal: the mask of blocks free here;
 * the lowest bit set in the result is free at every member, and each member marks it used ({@link #claim}).
 * Freeing a communicator clears its bit at each member ({@link #release}), so the state returns exactly to where
 * it was and nothing leaks.
 *
 * <p>Concurrency. Several creations may be in flight on one rank at once (threads, or nonblocking
 * {@code idup}s). Two of them must never claim the same block, so a proposal is exclusive: the creation that
 * proposes while no other one holds the mask becomes its <em>owner</em> and proposes every free block; any
 * other creation proposes nothing, its agreement yields an empty result, and it retries. Because every member
 * sees the same result, the members agree on retrying too. To rule out livelock (two creations owning the mask
 * on different ranks and starving each other forever), a creation that has failed once waits in
 * {@code waiting}, ordered by its key (its agreement's context and tag, the same at every member), and only the
 * smallest waiting key, or a first attempt smaller than all of them, may take the mask: the globally smallest
 * waiting creation therefore gets the mask at every member once the owners of the moment finish, and succeeds.
 * A result that is empty although every member proposed as owner means that no block is free at all members:
 * that is exhaustion, reported as an error, not retried. Each proposal also carries a flag word so that this is
 * told apart from contention. All state is guarded by this object's lock; each operation is O(BLOCKS/64).
 */
public final class ContextIdAllocator {
    /** Context ids per communicator. */
    public static final int IDS_PER_BLOCK = 8;
    /** Offset of the point-to-point context in a block. */
    public static final int P2P = 0;
    /** Offset of the collective context in a block. */
    public static final int COLL = 1;
    /** Offset reserved for tagged (two-phase) collectives. */
    public static final int TAGGED = 2;
    /** Offset reserved for the correctness checker. */
    public static final int CHECK = 3;
    /** Offset of the communicator-management context (group-collective creation, intercommunicator wire-up). */
    public static final int MANAGE = 4;
    /** Blocks per rank, hence the most communicators a rank can be a member of at once (block 0 is the world). */
    public static final int BLOCKS = 2048;
    /** 64-bit words of the mask. */
    public static final int WORDS = BLOCKS / Long.SIZE;
    /** Length in longs of a proposal: the mask words, then a flag word (all ones: proposed as the owner). */
    public static final int PROPOSAL_WORDS = WORDS + 1;
    /** Returned by {@link #claim} when the members must try again. */
    public static final int RETRY = -1;

    private static final long NO_OWNER = Long.MIN_VALUE;

    private final P2pEngine engine;
    private final long[] used = new long[WORDS];
    private final TreeSet<Long> waiting = new TreeSet<>();
    private final ConcurrentLinkedQueue<Runnable> retries = new ConcurrentLinkedQueue<>();
    private long owner = NO_OWNER;
    private int inUse;
    private long retried;
    private boolean agentAdded;

    /**
     * Creates the state of one rank, with block 0 (the world communicator) in use.
     *
     * @param engine the rank's engine (retries of nonblocking agreements run in its progress loop)
     */
    public ContextIdAllocator(final P2pEngine engine) {
        this.engine = engine;
        used[0] = 1L;
        inUse = 1;
    }

    /**
     * Returns the first context id of a block.
     *
     * @param block the block
     * @return {@code block * IDS_PER_BLOCK}
     */
    public static int base(final int block) {
        return block * IDS_PER_BLOCK;
    }

    /**
     * Fills {@code out} with this rank's proposal for the creation {@code key}.
     *
     * @param key    the creation's key, the same at every member (see {@link #key})
     * @param out    {@link #PROPOSAL_WORDS} longs
     * @param member false for a rank that takes part in the agreement but will not be a member of the new
     *               communicator (a split's {@code UNDEFINED} color): it constrains nothing and claims nothing
     */
    public synchronized void propose(final long key, final long[] out, final boolean member) {
        if (!member) {
            java.util.Arrays.fill(out, -1L);
            return;
        }
        final boolean mayOwn = NO_OWNER == owner && (waiting.isEmpty() || key <= waiting.first());
        if (mayOwn) {
            owner = key;
            for (int i = 0; i < WORDS; i++) {
                out[i] = ~used[i];
            }
            out[WORDS] = -1L;
        } else {
            java.util.Arrays.fill(out, 0L);
        }
    }

    /**
     * Applies the agreed result: claims its lowest block, or decides to retry.
     *
     * @param key    the creation's key
     * @param common the bitwise and of every member's proposal
     * @param where  the operation and communicator, for the exhaustion message
     * @param member as passed to {@link #propose}: a non-member learns the block but does not claim it
     * @return the claimed block, or {@link #RETRY}
     * @throws TuttiException of class {@link ErrorClass#COMM} if no block is free at every member
     */
    public synchronized int claim(final long key, final long[] common, final String where, final boolean member) {
        if (owner == key) {
            owner = NO_OWNER;
        }
        for (int i = 0; i < WORDS; i++) {
            if (0L != common[i]) {
                final int bit = Long.numberOfTrailingZeros(common[i]);
                if (member) {
                    used[i] |= 1L << bit;
                    inUse++;
                    waiting.remove(key);
                }
                return i * Long.SIZE + bit;
            }
        }
        if (-1L == common[WORDS]) {
            waiting.remove(key);
            throw new TuttiException(ErrorClass.COMM, where + ": no context id block is free at every member ("
                + BLOCKS + " blocks per rank, " + inUse + " in use here), expected fewer live communicators; "
                + "free communicators that are no longer needed");
        }
        if (member) {
            waiting.add(key);
        }
        retried++;
        return RETRY;
    }

    /**
     * Forgets a creation that will not finish (its agreement failed), so that it blocks no other.
     *
     * @param key the creation's key
     */
    public synchronized void abandon(final long key) {
        if (owner == key) {
            owner = NO_OWNER;
        }
        waiting.remove(key);
    }

    /**
     * Returns a block when its communicator is freed on this rank.
     *
     * @param block the block
     * @throws TuttiException of class {@link ErrorClass#INTERN} if the block is not in use (freed twice)
     */
    public synchronized void release(final int block) {
        final long bit = 1L << (block & (Long.SIZE - 1));
        if (block <= 0 || block >= BLOCKS || 0L == (used[block / Long.SIZE] & bit)) {
            throw new TuttiException(ErrorClass.INTERN, "release: block=" + block + " is not in use, expected a "
                + "block claimed and not yet released");
        }
        used[block / Long.SIZE] &= ~bit;
        inUse--;
    }

    /** @return the number of blocks in use on this rank, the world's included */
    public synchronized int inUse() {
        return inUse;
    }

    /** @return how many agreement attempts on this rank ended in a retry (contention between creations) */
    public synchronized long retried() {
        return retried;
    }

    /** @return a copy of the mask of blocks in use */
    public synchronized long[] snapshot() {
        return used.clone();
    }

    /** @return whether some creation holds the mask or waits to retry (false when the rank is quiet) */
    public synchronized boolean busy() {
        return NO_OWNER != owner || !waiting.isEmpty();
    }

    /**
     * Returns the key of a creation: its agreement's context and tag, identical at every member.
     *
     * @param context the context the agreement runs on
     * @param tag     its tag
     * @return the key; smaller keys win the mask first
     */
    public static long key(final int context, final int tag) {
        return ((long) context << Integer.SIZE) | (tag & 0xFFFF_FFFFL);
    }

    /**
     * Runs {@code retry} from the rank's progress loop soon (not on the caller's stack, which is inside the
     * schedule that just decided to retry).
     *
     * @param retry the next attempt
     */
    void scheduleRetry(final Runnable retry) {
        synchronized (this) {
            if (!agentAdded) {
                agentAdded = true;
                engine.addAgent(new RetryAgent());
            }
        }
        retries.add(retry);
    }

    /** Starts queued retries; an agent of the engine, added on the first retry. */
    private final class RetryAgent implements Agent {
        @Override
        public int doWork() {
            int work = 0;
            for (Runnable r = retries.poll(); null != r; r = retries.poll()) {
                r.run();
                work++;
            }
            return work;
        }
    }
}
