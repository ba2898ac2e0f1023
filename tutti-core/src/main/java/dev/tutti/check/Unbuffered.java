package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.TuttiException;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;
import dev.tutti.p2p.SiteCode;

import java.lang.foreign.MemorySegment;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The point-to-point half of {@code --check=strict}: every blocking send is unbuffered, so it returns only once its
 * destination has received the message, as a send of any size may behave under another MPI. A program that needs
 * the library to buffer its sends (each of two ranks sends to the other before it receives) then blocks in the
 * sends, and the deadlock detector reports it with the same report as any deadlock. (The collective half needs
 * nothing more: a checked blocking collective waits for every peer's call before its data moves, so it always
 * synchronizes.)
 *
 * <p>Protocol. The sender marks the message's type code ({@link SiteCode#unbuffered}); the receiver, when a receive
 * matches such a message, queues an acknowledgement and sends it on the world's checker context under
 * {@link Checker#ACK_TAG} from its next progress (never from the matching path, which may run on the sender's
 * thread in-process) or at its close; the sender waits for one acknowledgement from the destination per send
 * ({@link Wait}), a wait its rank reports to the deadlock detector like any other. One blocking send per destination
 * and thread is in flight at a time, and acknowledgements travel in order, so each wait takes its own (two threads
 * of a rank sending to one destination at once may take each other's, which releases one a little early).
 */
final class Unbuffered {
    private final P2pEngine engine;
    private final CommView worldView;
    private final boolean on;
    /** The senders of received unbuffered messages, not yet acknowledged. */
    private final Queue<Integer> owed = new ConcurrentLinkedQueue<>();
    private static final MemorySegment ACK = MemorySegment.ofArray(new byte[1]);

    Unbuffered(final P2pEngine engine, final CommView worldView, final boolean on) {
        this.engine = engine;
        this.worldView = worldView;
        this.on = on;
    }

    /**
     * @param code     a user send's type code
     * @param blocking whether it is a blocking send
     * @return the code, marked unbuffered under strict checking for a blocking send
     */
    int code(final int code, final boolean blocking) {
        return on && blocking ? SiteCode.unbuffered(code) : code;
    }

    /**
     * A receive matched a message: acknowledges it soon if its sender waits for that.
     *
     * @param source the sender's world rank
     * @param code   the message's type code
     */
    void received(final int source, final int code) {
        if (SiteCode.isUnbuffered(code)) {
            owed.add(source);
        }
    }

    /** @return how many acknowledgements were sent */
    int flush() {
        int n = 0;
        for (Integer to = owed.poll(); null != to; to = owed.poll()) {
            try {
                engine.isend(Checker.WORLD_CHECK, to, Checker.ACK_TAG, Datatype.BYTE, ACK);
            } catch (final TuttiException e) {
                // the sender left: no one waits for it
            }
            n++;
        }
        return n;
    }

    /**
     * Under strict checking, waits until the destination of a blocking send has received it.
     *
     * @param context   the message's context
     * @param destWorld the destination
     * @param tag       the message's tag
     */
    void await(final int context, final int destWorld, final int tag) {
        if (on) {
            new Wait(engine, worldView, destWorld, tag).waitFor();
        }
    }

    /** A blocking send's wait for its acknowledgement. */
    private static final class Wait extends AbstractRequest {
        private final int dest;
        private final int tag;
        private final RecvRequest ack;

        Wait(final P2pEngine engine, final CommView worldView, final int dest, final int tag) {
            super(engine);
            this.dest = dest;
            this.tag = tag;
            this.ack = engine.irecvAllocating(Checker.WORLD_CHECK, dest, Checker.ACK_TAG, Datatype.BYTE, worldView);
            ack.wakeOnComplete(this);
            progressSelf();
        }

        @Override
        protected int progressSelf() {
            if (!isDone() && ack.isDone()) {
                TuttiException f = null;
                try {
                    ack.waitFor();
                } catch (final TuttiException e) {
                    f = e;
                }
                complete(null == f ? dev.tutti.Status.EMPTY : null, f);
                return 1;
            }
            return 0;
        }

        @Override
        protected TuttiException blockingFailure() {
            return ack.blockedBy();
        }

        @Override
        public void cancel() {
            // A send cannot be taken back once its message has left.
        }

        @Override
        public int[] waitsOn() {
            return new int[] {dest};
        }

        @Override
        public String describeWait() {
            return "send to world rank " + dest + ", tag " + tag + " (unbuffered under --check=strict: it waits until "
                + "rank " + dest + " receives it)";
        }

        @Override
        public String toString() {
            return describeWait();
        }
    }
}
