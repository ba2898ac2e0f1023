package dev.tutti.comm;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.coll.CollLeftovers;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.SyncSend;
import dev.tutti.runtime.Agent;
import dev.tutti.runtime.IdleStrategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;

/**
 * The context ids of one rank: which blocks of ids its communicators use, and the local half of the agreement
 * by which the members of a new communicator choose a block that is free at every one of them.
 *
 * <p>A communicator owns one block of {@link #IDS_PER_BLOCK} consecutive context ids starting at
 * {@link #base(int)}: point-to-point ({@link #P2P}), collective ({@link #COLL}), tagged collectives
 * ({@link #TAGGED}), the correctness checker ({@link #CHECK}, and {@link #CHECK_TAGGED} for its digests of tagged
 * collectives), communicator management ({@link #MANAGE}: group-collective creation and intercommunicator
 * construction, which cannot use call order), retirement ({@link #RETIRE}, below) and the acknowledgements of
 * synchronous sends ({@link #SYNC_ACK}). Block 0 is the
 * world communicator's (contexts 0 and 1, as the engine always had).
 *
 * <p>Implementation notes (MPICH's mask algorithm). The state is two bit masks of {@link #BLOCKS} bits: blocks
 * in use by a live communicator of this rank, and blocks <em>retiring</em> (freed here, not yet reusable). To
 * create a communicator the members allreduce (bitwise and) a proposal: the mask of blocks free here (neither in
 * use nor retiring); the lowest bit set in the result is free at every member, and each member marks it used
 * ({@link #claim}).
 *
 * <p>Retirement (safe reuse). A message sent on a communicator may still be unreceived in this rank's
 * unexpected queue, or on the wire, when the communicator is freed; if its block went straight back to the pool,
 * the next communicator to get the block would receive that message (MPICH holds the context id by reference
 * counting for the same reason). So {@link #retire} (called by {@code Comm.free()}) only moves the block from
 * in use to retiring, and sends the members the FINs of {@link Retirement}; the block returns to the pool
 * ({@link #reap}) once (1) the FIN of every member has arrived, each after everything that member sent on the
 * block before it freed the communicator, and (2) no receive on the block's contexts is posted here (a receive
 * posted before the free completes normally, or is cancelled, first); then the messages on the block that
 * arrived and were never received are dropped ({@link P2pEngine#retireContexts}). Invariants:
 * <ul>
 * <li>A rank proposes a block only if no communicator of it that used the block is live or retiring.</li>
 * <li>Hence a member of a new communicator that gets block {@code b} holds no message and no posted receive of
 *     an earlier communicator on {@code b}, and none will arrive: every member of the earlier one had freed it
 *     (checked here by its FIN) and sends nothing on it after its free; a rank that was not a member of the
 *     earlier one was never sent its messages.</li>
 * <li>Freed blocks come back: once every member has freed the communicator and this rank's receives on it are
 *     done, the next {@link #reap} (run by every progress loop of the rank and before every proposal) frees it.
 *     A member that never frees keeps the block retiring at the others (MPI_Comm_free is collective).</li>
 * </ul>
 * A nonblocking, tagged or persistent collective still running on the communicator at this rank when it frees it
 * completes normally, as MPI requires: its later rounds would send after this rank's FIN, so the FINs wait until
 * no such run is left ({@link #reap} sends them then). Point-to-point operations started before the free complete
 * normally.
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
 * that is exhaustion, reported as an error, not retried, unless some member has blocks retiring (which will come
 * free once the FINs are in): then the members retry, at most {@link #DRAIN_RETRIES} times. Each proposal also
 * carries a flag word ({@code FLAG_OWNER}, {@code FLAG_SETTLED}: nothing retiring here) so that these cases are
 * told apart from contention. All state is guarded by this object's lock; each operation is O(BLOCKS/64), a
 * reap O(retiring blocks) plus a scan of the matcher's queues per block whose FINs are in.
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
    /** Offset of the correctness checker's context: the digests of ordinary collective calls, and its queries. */
    public static final int CHECK = 3;
    /** Offset of the correctness checker's context for the digests of tagged (two-phase) collectives. */
    public static final int CHECK_TAGGED = 6;
    /** Offset of the communicator-management context (group-collective creation, intercommunicator wire-up). */
    public static final int MANAGE = 4;
    /** Offset of the retirement context: the FINs by which the members of a freed communicator drain its block. */
    public static final int RETIRE = 5;
    /**
     * Offset of the context on which a receiver acknowledges a synchronous send's message (the point-to-point
     * context's plus {@link SyncSend#ACK_CONTEXT_OFFSET}).
     */
    public static final int SYNC_ACK = P2P + SyncSend.ACK_CONTEXT_OFFSET;
    /** Blocks per rank, hence the most communicators a rank can be a member of at once (block 0 is the world). */
    public static final int BLOCKS = 2048;
    /** 64-bit words of the mask. */
    public static final int WORDS = BLOCKS / Long.SIZE;
    /** Length in longs of a proposal: the mask words, then a flag word ({@code FLAG_OWNER}, {@code FLAG_SETTLED}). */
    public static final int PROPOSAL_WORDS = WORDS + 1;
    /** Returned by {@link #claim} when the members must try again. */
    public static final int RETRY = -1;
    /**
     * Attempts an agreement makes while no block is free at every member but some member has blocks retiring,
     * before it reports exhaustion (a member that never frees a communicator keeps its block retiring elsewhere).
     */
    public static final int DRAIN_RETRIES = 10_000;

    private static final long NO_OWNER = Long.MIN_VALUE;
    /** Flag word bit: the member proposed as the owner of the mask. */
    private static final long FLAG_OWNER = 1L;
    /** Flag word bit: no block is retiring at the member. */
    private static final long FLAG_SETTLED = 2L;
    private static final dev.tutti.runtime.Log LOG = dev.tutti.runtime.Log.of(ContextIdAllocator.class);

    private final P2pEngine engine;
    private final long[] used = new long[WORDS];
    private final long[] retiringMask = new long[WORDS];
    private final List<Retirement> retirements = new ArrayList<>();
    private final Map<Long, Integer> drainRetries = new HashMap<>();
    private final TreeSet<Long> waiting = new TreeSet<>();
    private final ConcurrentLinkedQueue<Runnable> retries = new ConcurrentLinkedQueue<>();
    /** Number of retiring blocks; volatile so that a reap with nothing to do takes no lock. */
    private volatile int retiring;
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
    public void propose(final long key, final long[] out, final boolean member) {
        if (!member) {
            Arrays.fill(out, -1L);
            return;
        }
        reap(); // blocks whose FINs are in: propose them already
        synchronized (this) {
            final boolean mayOwn = NO_OWNER == owner && (waiting.isEmpty() || key <= waiting.first());
            if (mayOwn) {
                owner = key;
                for (int i = 0; i < WORDS; i++) {
                    out[i] = ~(used[i] | retiringMask[i]);
                }
                out[WORDS] = FLAG_OWNER | (0 == retiring ? FLAG_SETTLED : 0L);
            } else {
                Arrays.fill(out, 0L);
            }
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
                drainRetries.remove(key);
                return i * Long.SIZE + bit;
            }
        }
        if (0L != (common[WORDS] & FLAG_OWNER)) {
            final boolean settled = 0L != (common[WORDS] & FLAG_SETTLED);
            final int drains = drainRetries.merge(key, 1, Integer::sum);
            if (settled || drains > DRAIN_RETRIES) {
                waiting.remove(key);
                drainRetries.remove(key);
                // where is already "op (comm)": it is the head, with no where of its own
                throw Errors.expected(ErrorClass.COMM, where, null, "no context id block is free at every member ("
                    + BLOCKS + " blocks per rank, " + inUse + " in use here, " + retiring + " freed here and "
                    + "waiting for every member to free them" + (settled ? "" : ", after " + DRAIN_RETRIES
                    + " attempts") + ")", "fewer live communicators; free communicators that are no longer "
                    + "needed, at every member");
            }
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
        drainRetries.remove(key);
    }

    /**
     * Retires the block of a communicator freed on this rank: it stops being in use, and returns to the pool once
     * every member has freed the communicator and its traffic here is drained (see the class notes).
     *
     * @param block  the block
     * @param local  the communicator's local group as world ranks
     * @param remote its remote group as world ranks (the local group again for an intracommunicator)
     * @param view   the communicator, for messages
     * @throws TuttiException of class {@link ErrorClass#INTERN} if the block is not in use (freed twice)
     */
    public void retire(final int block, final int[] local, final int[] remote, final CommView view) {
        synchronized (this) {
            final long bit = 1L << (block & (Long.SIZE - 1));
            if (block <= 0 || block >= BLOCKS || 0L == (used[block / Long.SIZE] & bit)) {
                throw Failures.internal("retire", view.describe(), "block=" + block + " is not in use, expected a "
                    + "block claimed and not yet freed");
            }
            used[block / Long.SIZE] &= ~bit;
            retiringMask[block / Long.SIZE] |= bit;
            inUse--;
        }
        final Retirement r = Retirement.start(engine, block, IntStream.concat(IntStream.of(local),
            IntStream.of(remote)).distinct().toArray(), view);
        final boolean now;
        synchronized (this) {
            now = r.claimFins(engine);
            retirements.add(r);
            retiring++; // written under the lock only (here and in reap); read without it
        }
        if (now) {
            r.sendFins(engine);
        }
        addAgent();
        reap();
    }

    /**
     * Returns to the pool every retiring block whose members' FINs are in and on whose contexts no receive is
     * posted here, dropping the messages on it that were never received. Runs in the rank's progress loop and
     * before every proposal; a block held by a pending receive is looked at again after a growing number of reaps,
     * so that a receive left pending for long does not make every progress loop scan the matcher's queues.
     *
     * @return the number of blocks returned to the pool
     */
    int reap() {
        return reap(true);
    }

    /**
     * Retires, sending nothing, every block whose members' FINs are all in and on which no receive is posted: for a
     * rank that is done (its transports said goodbye, or every rank of its embedded job returned, so its peers'
     * FINs have arrived). A collective message left on such a block is then reported ({@link CollLeftovers#dropping})
     * rather than passed over by the close's own check, which leaves out calls this rank never made. Blocks still
     * waiting for a FIN (a member that never freed the communicator) stay retiring.
     */
    public void reapAtClose() {
        reap(false);
    }

    private int reap(final boolean sendFins) {
        if (0 == retiring) {
            return 0;
        }
        if (sendFins) {
            sendDeferredFins();
        }
        synchronized (this) {
            int freed = 0;
            for (int i = retirements.size() - 1; i >= 0; i--) {
                final Retirement r = retirements.get(i);
                if (r.awaitingRuns() || !r.due()) {
                    continue;
                }
                final int from = base(r.block());
                final int dropped = engine.retireContexts(from, from + IDS_PER_BLOCK,
                    m -> CollLeftovers.dropping(engine, m));
                if (dropped < 0) {
                    r.refused(); // a receive posted before the free is still pending
                    continue;
                }
                CollLeftovers.retired(engine, from, from + IDS_PER_BLOCK);
                if (dropped > 0) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "rank " + engine.worldRank() + ": dropped " + dropped
                        + " never-received messages of freed block " + r.block());
                }
                retirements.remove(i);
                retiringMask[r.block() / Long.SIZE] &= ~(1L << (r.block() & (Long.SIZE - 1)));
                retiring--;
                freed++;
            }
            return freed;
        }
    }

    /** Sends, outside the lock, the FINs of retirements whose collectives on the block have finished. */
    private void sendDeferredFins() {
        List<Retirement> ready = null;
        synchronized (this) {
            for (final Retirement r : retirements) {
                if (r.claimFins(engine)) {
                    if (null == ready) {
                        ready = new ArrayList<>(1);
                    }
                    ready.add(r);
                }
            }
        }
        if (null != ready) {
            for (final Retirement r : ready) {
                r.sendFins(engine);
            }
        }
    }

    /**
     * Waits, driving the rank's progress, until every block freed on this rank is back in the pool: for tests and
     * orderly shutdown, once every member has freed its communicators (else it waits for them).
     *
     * @throws TuttiException if the job fails meanwhile
     */
    public void awaitRetired() {
        final IdleStrategy idle = engine.idleStrategy();
        int iteration = 0;
        while (0 != retiring) {
            final TuttiException failed = engine.failureAffecting(P2pEngine.ANY);
            if (null != failed) {
                throw Failures.wrap(failed, "awaitRetired", null, "cannot complete");
            }
            if (engine.progress() > 0) {
                iteration = 0;
            } else {
                idle.idle(Math.min(iteration++, 64));
            }
            reap();
        }
    }

    /** @return the number of blocks in use by live communicators of this rank, the world's included */
    public synchronized int inUse() {
        return inUse;
    }

    /** @return the number of blocks freed on this rank and not yet back in the pool */
    public int retiring() {
        return retiring;
    }

    /** @return how many agreement attempts on this rank ended in a retry (contention between creations) */
    public synchronized long retried() {
        return retried;
    }

    /** @return a copy of the mask of blocks in use by live communicators (retiring ones are not in it) */
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
        addAgent();
        retries.add(retry);
    }

    private void addAgent() {
        synchronized (this) {
            if (!agentAdded) {
                agentAdded = true;
                engine.addAgent(new Housekeeper());
            }
        }
    }

    /** Starts queued retries and reaps retired blocks; an agent of the engine, added on the first need. */
    private final class Housekeeper implements Agent {
        @Override
        public int doWork() {
            int work = 0;
            for (Runnable r = retries.poll(); null != r; r = retries.poll()) {
                r.run();
                work++;
            }
            return work + reap();
        }
    }
}
