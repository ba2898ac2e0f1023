package dev.tutti.p2p;

import dev.tutti.ErrorClass;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;
import dev.tutti.transport.Outbound;

import java.lang.foreign.MemorySegment;

/**
 * A send in progress. Completes when the transport no longer needs the payload (at once for eager messages, after
 * the receiver took the data for rendezvous). A send is never cancelled: {@link #cancel()} does nothing.
 */
public final class SendRequest extends AbstractRequest implements Outbound {
    /* Set at construction, or by prepare() on a reusable send before it is handed to a transport (which
       publishes them with the request). */
    private int context;
    private int destWorld;
    private int tag;
    private int typeCode;
    private MemorySegment payload;

    SendRequest(final P2pEngine engine, final int context, final int destWorld, final int tag, final int typeCode,
        final MemorySegment payload) {
        super(engine);
        this.context = context;
        this.destWorld = destWorld;
        this.tag = tag;
        this.typeCode = typeCode;
        this.payload = payload;
    }

    /**
     * Creates a send that its owner reuses (the part sends of a cached collective schedule): {@link #prepare} before
     * each use. Reuse is safe only after a successful completion: every transport lets go of a message once it has
     * called {@link #sent}. A send that failed may still be referenced and must be dropped.
     *
     * @param engine the engine
     * @return an idle send
     */
    static SendRequest reusable(final P2pEngine engine) {
        return new SendRequest(engine, 0, 0, 0, 0, MemorySegment.NULL);
    }

    /** Arms a reusable send (fresh, or completed successfully) for its next use; its owner only. */
    void prepare(final int newContext, final int newDestWorld, final int newTag, final int newTypeCode,
        final MemorySegment newPayload) {
        context = newContext;
        destWorld = newDestWorld;
        tag = newTag;
        typeCode = newTypeCode;
        payload = newPayload;
        rearm();
    }

    @Override
    public int context() {
        return context;
    }

    @Override
    public int source() {
        return engine.worldRank();
    }

    @Override
    public int tag() {
        return tag;
    }

    @Override
    public int typeCode() {
        return typeCode;
    }

    @Override
    public MemorySegment payload() {
        return payload;
    }

    @Override
    public void sent(final Throwable failure) {
        if (null == failure) {
            complete(Status.EMPTY, null);
        } else if (failure instanceof TuttiException te) {
            complete(null, te);
        } else {
            complete(null, Failures.failed(ErrorClass.PROC_FAILED, "send", "world rank=" + destWorld + ", tag="
                + tag, "the transport failed", failure));
        }
    }

    /** Completes a send whose destination is PROC_NULL. */
    void completeNull() {
        complete(Status.EMPTY, null);
    }

    @Override
    protected TuttiException blockingFailure() {
        return engine.failureAffecting(destWorld);
    }

    @Override
    public void cancel() {
        // MPI deprecates cancelling sends; a send here always completes (or fails) on its own.
    }

    @Override
    public int[] waitsOn() {
        return new int[] {destWorld};
    }

    @Override
    public String describeWait() {
        return "send to world rank " + destWorld + ", tag " + tag + " (" + payload.byteSize() + " bytes, context "
            + context + ")";
    }

    @Override
    protected String traceName() {
        return "send";
    }

    @Override
    protected int tracePeer() {
        return destWorld;
    }

    @Override
    protected int traceTag() {
        return tag;
    }

    @Override
    public String toString() {
        return "send(dest=" + destWorld + ", tag=" + tag + ", context=" + context + ", bytes=" + payload.byteSize()
            + ")";
    }
}
