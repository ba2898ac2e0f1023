package dev.tutti.channel;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Datatype;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;

/**
 * How a channel starts one exchange: a persistent alltoall (MPI-4 {@code alltoallInit}) on the channel's private
 * communicator, one request per pair of a send buffer and a receive buffer, each built the first time its pair is
 * used and started again by every later exchange of that pair.
 *
 * <p>Implementation notes. The application may take and release ring buffers in any order, so any send buffer can
 * meet any receive buffer: requests are indexed by both ring positions ({@code depth * depth} at most, built on
 * first use, so a ring that cycles in order builds {@code depth} of them). A request is only started for a pair
 * whose two buffers are free, and both stay in flight until the channel has seen its completion (the test or wait
 * that sees it also makes the request inactive), so a pair's request is never started while active. The schedule,
 * its part requests and its message layout are built once; a start costs what {@link PersistentRequest#start()}
 * costs (nothing allocated on the small-message path), and the data moves straight between the ring buffers, no
 * staging copy. Ranks may pair different buffers for the same exchange: only the exchange's counts and the call
 * order on the private communicator (one start per exchange, in exchange order) must agree, and they do. BOOLEAN
 * channels start a nonblocking {@code ialltoall} per exchange instead: boolean buffers are staged through bytes per
 * call, which a persistent collective refuses (and have no priority).
 *
 * <p>A time-driven channel also tells receivers which blocks are fresh: with each exchange it starts a persistent
 * allgather of one byte per rank (1: this rank's block was submitted for the exchange, 0: it is the channel's
 * zero-filled idle buffer) into the receive buffer's flags, one request per (fresh or not, receive buffer), built
 * on first use like the data's. Guarded by the channel's lock.
 */
final class ExchangeStarts {
    private final Comm comm;
    private final boolean sendEmpty;
    private final boolean recvEmpty;
    private final boolean persistent;
    private final int priority;
    private final PersistentRequest[][] pairs;
    /** Freshness allgathers, [0: stale, 1: fresh][receive slot]. */
    private final PersistentRequest[][] flags = new PersistentRequest[2][];
    private final byte[][] flagValue = {{0}, {1}};

    /** @param priority the requests' progress priority ({@link PersistentRequest#setPriority}), 0 for none */
    ExchangeStarts(final Comm comm, final Datatype type, final int sendSlots, final int recvSlots,
        final boolean sendEmpty, final boolean recvEmpty, final int priority) {
        this.comm = comm;
        this.priority = priority;
        this.sendEmpty = sendEmpty;
        this.recvEmpty = recvEmpty;
        this.persistent = Datatype.BOOLEAN != type;
        this.pairs = new PersistentRequest[sendSlots][recvSlots];
        flags[0] = new PersistentRequest[recvSlots];
        flags[1] = new PersistentRequest[recvSlots];
    }

    /**
     * Starts the exchange of send buffer {@code s} into receive buffer {@code r}.
     *
     * @return the started request; complete once a test or wait has seen it complete
     * @throws dev.tutti.TuttiException as the alltoall's start
     */
    Request start(final ChannelBuffer s, final ChannelBuffer r) {
        if (!persistent) {
            return comm.ialltoall(sendEmpty ? null : s.raw(), recvEmpty ? null : r.raw());
        }
        final PersistentRequest p = request(s, r);
        p.start();
        return p;
    }

    /**
     * Makes the persistent request of the pair ({@code s}, {@code r}) without starting it, if exchanges are persistent
     * starts.
     *
     * @return whether a request was made
     */
    boolean make(final ChannelBuffer s, final ChannelBuffer r) {
        if (!persistent) {
            return false;
        }
        request(s, r);
        return true;
    }

    /** @return the persistent request of the pair ({@code s}, {@code r}), made at its first use */
    private PersistentRequest request(final ChannelBuffer s, final ChannelBuffer r) {
        PersistentRequest p = pairs[s.slot()][r.slot()];
        if (null == p) {
            p = comm.alltoallInit(sendEmpty ? null : s.raw(), recvEmpty ? null : r.raw());
            pairs[s.slot()][r.slot()] = p;
            if (0 != priority) {
                p.setPriority(priority);
            }
        }
        return p;
    }

    /**
     * Starts the freshness allgather of an exchange into {@code r}'s flags (time-driven channels).
     *
     * @param fresh whether this rank's block was submitted for the exchange
     * @return the started request
     */
    Request startFlags(final boolean fresh, final ChannelBuffer r) {
        final int f = fresh ? 1 : 0;
        PersistentRequest p = flags[f][r.slot()];
        if (null == p) {
            p = comm.allgatherInit(Buf.of(flagValue[f]), Buf.of(r.freshFlags()));
            flags[f][r.slot()] = p;
        }
        p.start();
        return p;
    }

    /**
     * Frees the requests built over send buffer {@code sendSlot}, which has moved to new memory (none is active: the
     * buffer is held by the application); later exchanges build them again.
     */
    void forget(final int sendSlot) {
        final PersistentRequest[] row = pairs[sendSlot];
        for (int i = 0; i < row.length; i++) {
            if (null != row[i]) {
                row[i].free();
                row[i] = null;
            }
        }
    }

    /** Frees every request that is not active (one abandoned in flight stays: its memory may still be written). */
    void free() {
        free(pairs);
        free(flags);
    }

    private static void free(final PersistentRequest[][] rows) {
        for (final PersistentRequest[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                if (null != row[i] && !row[i].isActive()) {
                    row[i].free();
                    row[i] = null;
                }
            }
        }
    }
}
