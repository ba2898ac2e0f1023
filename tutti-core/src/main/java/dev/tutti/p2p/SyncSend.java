package dev.tutti.p2p;

import dev.tutti.ErrorClass;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;
import dev.tutti.type.TypeCode;

import java.lang.foreign.MemorySegment;

/**
 * A synchronous-mode send in progress (MPI_Ssend, MPI_Issend): it completes only once a receive at the destination
 * has matched its message (a blocking or nonblocking receive, or a receive after a probe), and its buffer may be
 * reused. {@code --check=strict} makes every blocking send one of these ({@link P2pHook#sendCode}).
 *
 * <p>Protocol. The sender sets {@link #SYNC} (bit 31) in the message's type code, whose bits above the datatype are
 * 0 for a point-to-point message (kind 0; the checker's site, when on, fills bits 13-30 only: {@link SiteCode}).
 * The receiver, when one of its receives matches such a message ({@link RecvRequest}), sends back an empty message
 * on the context {@code context + }{@link #ACK_CONTEXT_OFFSET} (a communicator's spare context, which no user
 * message uses) under the message's own tag ({@link P2pEngine#acknowledge}): an ordinary small message, so it works
 * over every transport. The sender posts the receive of that acknowledgement (from the destination, same tag)
 * before its message leaves. Which acknowledgement completes which send: messages of one sender with one context
 * and tag are matched in send order (non-overtaking), and their acknowledgements' receives are posted in that
 * order too ({@link P2pEngine#issend} posts and sends under one lock), so the k-th acknowledgement of a
 * (destination, context, tag) completes the k-th send; should two acknowledgements of one receiver overtake each
 * other (sent by two of its threads), the earlier send is released by the later match, after its own message was
 * matched anyway.
 *
 * <p>Implementation notes. Two parts: the data's {@link SendRequest} (the buffer may be reused) and the
 * acknowledgement's {@link RecvRequest} (the message was matched); each wakes this request's waiter when it
 * completes, and {@link #progressSelf} completes this request once both are done, with the first failure. A
 * departed or failed destination fails it (the parts' own departure checks), with a message naming the destination.
 * Cost over a standard send: one more posted receive at the sender and one empty message back; standard sends pay
 * nothing (the receiver tests the code's sign bit).
 */
public final class SyncSend extends AbstractRequest {
    /** The type code bit of a point-to-point message whose sender waits until a receive matched it. */
    public static final int SYNC = 1 << 31;
    /** The acknowledgement of a message on context {@code c} travels on context {@code c + 7}. */
    public static final int ACK_CONTEXT_OFFSET = 7;
    /** The (empty) payload of an acknowledgement. */
    static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);
    /** The view of a send made without a communicator's (world ranks). */
    static final CommView WORLD = CommView.ofWorldRanks("world ranks");

    private final SendRequest data;
    private final RecvRequest ack;
    private final int destWorld;
    private final int tag;
    private final CommView view;
    private final boolean strict;

    SyncSend(final P2pEngine engine, final SendRequest data, final RecvRequest ack, final int destWorld,
        final int tag, final CommView view, final boolean strict) {
        super(engine);
        this.data = data;
        this.ack = ack;
        this.destWorld = destWorld;
        this.tag = tag;
        this.view = view;
        this.strict = strict;
        data.wakeOnComplete(this);
        ack.wakeOnComplete(this);
        progressSelf();
    }

    /**
     * @param code a point-to-point message's type code
     * @return the code of the same message sent in synchronous mode
     */
    public static int sync(final int code) {
        return code | SYNC;
    }

    /**
     * @param code a type code
     * @return whether it is a synchronous-mode point-to-point message's (a collective code may set bit 31 as root)
     */
    public static boolean isSync(final int code) {
        return code < 0 && 0 == TypeCode.kind(code);
    }

    /**
     * @param code a type code
     * @return the code without {@link #SYNC} if it is a synchronous-mode message's, else the code itself
     */
    public static int plain(final int code) {
        return isSync(code) ? code & ~SYNC : code;
    }

    @Override
    protected int progressSelf() {
        if (isDone() || !data.isDone() || !ack.isDone()) {
            return 0;
        }
        TuttiException failed = failureOf(data);
        if (null == failed) {
            failed = failureOf(ack);
        }
        complete(null == failed ? Status.EMPTY : null, null == failed ? null : named(failed));
        return 1;
    }

    private static TuttiException failureOf(final AbstractRequest part) {
        try {
            part.waitFor();
            return null;
        } catch (final TuttiException e) {
            return e;
        }
    }

    /**
     * A peer's failure, with this send's destination and tag; any other failure (the checker's deadlock report, the
     * job's abort) and every failure of a strict send (the checker's own reports) as they are.
     */
    private TuttiException named(final TuttiException cause) {
        if (strict || TuttiException.class != cause.getClass() || ErrorClass.PROC_FAILED != cause.errorClass()) {
            return cause;
        }
        return Failures.wrap(cause, "ssend", view.describe(), "rank " + view.toLocal(destWorld)
            + " did not receive the message (tag " + tag + ") that waits for its receive");
    }

    @Override
    protected TuttiException blockingFailure() {
        TuttiException f = data.blockedBy();
        if (null == f) {
            f = ack.blockedBy();
        }
        return null == f ? null : named(f);
    }

    @Override
    protected void onBlockingFailure() {
        engine.matcher().cancel(ack); // the acknowledgement will not come: its receive must not stay posted
    }

    @Override
    public void cancel() {
        // A send is never cancelled here (as SendRequest): it completes, or fails, on its own.
    }

    @Override
    public int[] waitsOn() {
        return new int[] {destWorld};
    }

    @Override
    public String describeWait() {
        if (strict) {
            return "send to world rank " + destWorld + ", tag " + tag + " (unbuffered under --check=strict: it waits "
                + "until rank " + destWorld + " receives it)";
        }
        return "ssend to rank " + view.toLocal(destWorld) + ", tag " + tag + " (" + view.describe() + "; it waits "
            + "until that rank receives it)";
    }

    @Override
    public String toString() {
        return "ssend(dest=" + destWorld + ", tag=" + tag + ", " + data + ")";
    }
}
