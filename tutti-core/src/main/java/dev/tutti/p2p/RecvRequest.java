package dev.tutti.p2p;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.transport.Inbound;
import dev.tutti.type.BooleanStaging;

import java.lang.foreign.MemorySegment;

/**
 * A receive in progress: posted to the matcher, matched to an {@link Inbound}, then filled by the transport.
 *
 * <p>Implementation notes. The envelope fields are immutable. {@code matched} is written once by the thread that
 * matched (under the matcher lock) and read by {@link #delivered} on the thread that completes the transfer; the
 * transport's hand-off between the two is the happens-before edge. A receive posted with
 * {@link P2pEngine#ANY} source or tag matches any value of that field within its context.
 */
public final class RecvRequest extends AbstractRequest implements Inbound.Delivery {
    final int context;
    final int sourceWorld;
    final int tag;
    private final MemorySegment target;
    private final boolean allocate;
    private final Buf booleans;
    private final Datatype expected;
    private final CommView view;
    private Inbound matched;
    private byte[] staging;

    RecvRequest(final P2pEngine engine, final int context, final int sourceWorld, final int tag,
        final MemorySegment target, final Buf booleans, final Datatype expected, final CommView view) {
        super(engine);
        this.context = context;
        this.sourceWorld = sourceWorld;
        this.tag = tag;
        this.target = target;
        this.allocate = null == target && null == booleans;
        this.booleans = booleans;
        this.expected = expected;
        this.view = view;
    }

    /** @return the capacity of the receive buffer in bytes */
    private long capacity() {
        return null != booleans ? booleans.count() : target.byteSize();
    }

    boolean matches(final Inbound m) {
        return context == m.context && (P2pEngine.ANY == sourceWorld || sourceWorld == m.source)
            && (P2pEngine.ANY == tag || tag == m.tag);
    }

    /** Called once, outside the matcher lock, by whichever thread matched this receive to {@code m}. */
    void onMatch(final Inbound m) {
        matched = m;
        final Datatype sent = Datatype.fromCode(m.typeCode);
        if (sent != expected && Datatype.BYTE != expected && Datatype.BYTE != sent) {
            m.discard(ignored -> complete(null, new TuttiException(ErrorClass.TYPE, "recv (" + view.describe()
                + "): message from rank=" + view.toLocal(m.source) + " tag=" + m.tag + " has type=" + sent
                + ", the receive expects type=" + expected)));
            return;
        }
        final MemorySegment destination;
        if (allocate) {
            if (m.lengthBytes > Integer.MAX_VALUE - 16) {
                m.discard(ignored -> complete(null, new TuttiException(ErrorClass.COUNT, "recvObject ("
                    + view.describe() + "): message from rank=" + view.toLocal(m.source) + " has bytes="
                    + m.lengthBytes + ", more than an array holds")));
                return;
            }
            staging = new byte[(int) m.lengthBytes];
            destination = MemorySegment.ofArray(staging);
        } else if (null != booleans) {
            staging = new byte[(int) Math.min(m.lengthBytes, booleans.byteSize())];
            destination = MemorySegment.ofArray(staging);
        } else {
            destination = target;
        }
        m.deliver(destination, this);
    }

    @Override
    public void delivered(final Throwable failure) {
        final Inbound m = matched;
        if (null != failure) {
            complete(null, failure instanceof TuttiException te ? te : new TuttiException(ErrorClass.PROC_FAILED,
                "recv (" + view.describe() + ") from rank=" + view.toLocal(m.source) + " tag=" + m.tag
                    + " failed: " + failure, failure));
            return;
        }
        if (null != booleans) {
            BooleanStaging.unpack(MemorySegment.ofArray(staging), booleans);
        }
        if (!allocate && m.lengthBytes > capacity()) {
            complete(null, new TuttiException(ErrorClass.TRUNCATE, "recv truncated (" + view.describe()
                + "): message from rank=" + view.toLocal(m.source) + " tag=" + m.tag + " has bytes="
                + m.lengthBytes + ", buffer holds bytes=" + capacity()));
            return;
        }
        complete(new Status(view.toLocal(m.source), m.tag, m.lengthBytes, Datatype.fromCode(m.typeCode), false),
            null);
    }

    /** @return the length of the matched message in bytes, or -1 if not matched yet */
    public long matchedLength() {
        final Inbound m = matched;
        return null == m ? -1 : m.lengthBytes;
    }

    /**
     * Returns the bytes of an object receive (a receive posted without a buffer), once complete.
     *
     * @return the received bytes
     */
    public byte[] receivedBytes() {
        return staging;
    }

    @Override
    public void cancel() {
        if (engine.matcher().cancel(this)) {
            complete(new Status(P2pEngine.ANY, P2pEngine.ANY, 0, expected, true), null);
        }
    }

    @Override
    protected TuttiException blockingFailure() {
        final Inbound m = matched;
        return engine.failureAffecting(null != m ? m.source : sourceWorld);
    }

    @Override
    protected void onBlockingFailure() {
        engine.matcher().cancel(this);
    }

    @Override
    public String toString() {
        return "recv(source=" + sourceWorld + ", tag=" + tag + ", context=" + context + ", " + view.describe()
            + ")";
    }
}
