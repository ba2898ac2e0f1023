package dev.tutti.transport.tcp;

/**
 * The tcp transport's protocol sizes, for tests outside this package that aim at its boundaries (so they follow
 * the constants if those change).
 */
public final class TcpLimits {
    private TcpLimits() {
    }

    /** @return the frame header's length: the payload of a frame starts this far in */
    public static int headerBytes() {
        return FrameDescriptor.HEADER_LENGTH;
    }

    /** @return the size of the I/O thread's shared read buffer */
    public static int readBufferBytes() {
        return TcpIoLoop.READ_BUFFER_BYTES;
    }

    /** @return the smallest DATA chunk worth a frame when the staging buffer is nearly full */
    public static int minChunkBytes() {
        return StreamedSend.MIN_CHUNK;
    }

    /** @return the bytes of a rendezvous message that its RTS carries, as the setting says now */
    public static int rendezvousPrefix() {
        return dev.tutti.internal.Settings.TCP_RENDEZVOUS_PREFIX.intValue();
    }

    /** @return the largest DATA chunk */
    public static int maxChunkBytes() {
        return StreamedSend.MAX_CHUNK;
    }

    /**
     * Largest eager payload that can go straight into an empty staging buffer; larger eager frames are queued
     * through the heap backlog.
     *
     * @param eagerLimit the transport's eager limit
     * @return the payload bytes that fit with a header in the staging buffer
     */
    public static int stagedEagerBytes(final int eagerLimit) {
        return Math.min(TcpTransport.MAX_STAGING_BYTES, Math.max(TcpTransport.MIN_STAGING_BYTES, eagerLimit));
    }
}
