package dev.tutti.transport.tcp;

import dev.tutti.transport.Outbound;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/** An outbound message for transport tests; {@link #sent} completes a future. */
final class TestOutbound implements Outbound {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    private final int source;
    private final int tag;
    private final MemorySegment payload;

    TestOutbound(final int source, final int tag, final MemorySegment payload) {
        this.source = source;
        this.tag = tag;
        this.payload = payload;
    }

    @Override
    public int context() {
        return 0;
    }

    @Override
    public int source() {
        return source;
    }

    @Override
    public int tag() {
        return tag;
    }

    @Override
    public int typeCode() {
        return 0;
    }

    @Override
    public MemorySegment payload() {
        return payload;
    }

    @Override
    public void sent(final Throwable failure) {
        if (null == failure) {
            done.complete(null);
        } else {
            done.completeExceptionally(failure);
        }
    }
}
