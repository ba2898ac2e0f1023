package dev.tutti.transport.tcp;

import dev.tutti.transport.Inbound;
import dev.tutti.transport.InboundSink;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * A sink for transport tests: delivers every arrival at once into a destination chosen per message (by default a
 * fresh byte[] of the message's size) and queues the completed result.
 */
class RecordingSink implements InboundSink {
    /** A delivered message. */
    record Arrival(Inbound envelope, MemorySegment data, Throwable failure) {
    }

    final BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
    final BlockingQueue<Integer> failedPeers = new LinkedBlockingQueue<>();
    final BlockingQueue<Throwable> peerFailures = new LinkedBlockingQueue<>();
    private final Function<Inbound, MemorySegment> destinations;

    RecordingSink() {
        this(m -> MemorySegment.ofArray(new byte[(int) m.lengthBytes]));
    }

    RecordingSink(final Function<Inbound, MemorySegment> destinations) {
        this.destinations = destinations;
    }

    @Override
    public void arrive(final Inbound message) {
        final MemorySegment dst = destinations.apply(message);
        message.deliver(dst, failure -> arrivals.add(new Arrival(message, dst, failure)));
    }

    @Override
    public void peerFailed(final int worldRank, final Throwable cause) {
        peerFailures.add(cause);
        failedPeers.add(worldRank);
    }

    @Override
    public void peerLeft(final int worldRank) {
        // A goodbye is not a failure; the tests only record failures.
    }
}
