package dev.tutti.transport;

import java.lang.foreign.MemorySegment;

/**
 * A message that has arrived, or been announced (rendezvous), and waits to be matched. The point-to-point layer
 * matches it to a receive and then calls {@link #deliver(MemorySegment, Delivery)} exactly once.
 *
 * <p>The envelope fields are read-only for everyone but the transport that made the message: it sets them before
 * it hands the message over (through the matcher's lock, which publishes them), and a transport that recycles its
 * messages ({@link #envelope}) sets them again only after the message was delivered or discarded, when nobody
 * holds it any more: so nobody reads an envelope field after {@code deliver} or {@code discard}. {@code deliver}
 * may complete synchronously (the data is here) or later (the transport fetches the data from the sender first).
 */
public abstract class Inbound {
    /** Context id. */
    public int context;
    /** Sender's world rank. */
    public int source;
    /** Message tag. */
    public int tag;
    /**
     * Type code of the sender's data: the {@link dev.tutti.Datatype} ordinal, and for a collective message its call's
     * header in the bits above (opaque to transports; the layout is {@code dev.tutti.type.TypeCode}'s).
     */
    public int typeCode;
    /** Full length of the message in bytes. */
    public long lengthBytes;

    /**
     * Creates the envelope.
     *
     * @param context     context id
     * @param source      sender's world rank
     * @param tag         tag
     * @param typeCode    type code
     * @param lengthBytes length in bytes
     */
    protected Inbound(final int context, final int source, final int tag, final int typeCode,
        final long lengthBytes) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.typeCode = typeCode;
        this.lengthBytes = lengthBytes;
    }

    /**
     * Sets the envelope of a recycled message (see the class notes), before the transport hands it over again.
     *
     * @param theContext     context id
     * @param theSource      sender's world rank
     * @param theTag         tag
     * @param theTypeCode    type code
     * @param theLengthBytes length in bytes
     */
    protected final void envelope(final int theContext, final int theSource, final int theTag, final int theTypeCode,
        final long theLengthBytes) {
        this.context = theContext;
        this.source = theSource;
        this.tag = theTag;
        this.typeCode = theTypeCode;
        this.lengthBytes = theLengthBytes;
    }

    /**
     * Moves the payload into {@code destination} and then calls {@code done}. If the message is longer than the
     * destination, only {@code destination.byteSize()} bytes are written and the rest is discarded; the caller
     * reports the truncation. Called at most once, outside any matching lock.
     *
     * @param destination where the bytes go
     * @param done        called once when the bytes are in place, or the transfer failed
     */
    public abstract void deliver(MemorySegment destination, Delivery done);

    /**
     * Discards the message without copying it anywhere (used when the matching receive was cancelled or failed);
     * the sender's side still completes. The default delivers into an empty segment.
     *
     * @param done called once when the message is gone
     */
    public void discard(final Delivery done) {
        deliver(MemorySegment.NULL, done);
    }

    /** Callback for {@link Inbound#deliver}. */
    @FunctionalInterface
    public interface Delivery {
        /**
         * Called once when the payload is in the destination or the transfer failed.
         *
         * @param failure null on success
         */
        void delivered(Throwable failure);
    }
}
