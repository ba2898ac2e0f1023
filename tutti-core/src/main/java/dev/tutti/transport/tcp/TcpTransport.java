package dev.tutti.transport.tcp;

import dev.tutti.runtime.LaunchInfo;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Outbound;
import dev.tutti.transport.Transport;

/** TCP transport (placeholder until implemented). */
public final class TcpTransport implements Transport {
    private TcpTransport() {
    }

    /**
     * Wires this rank to every peer through the rendezvous and returns when all connections are up.
     *
     * @param info       the launch information
     * @param sink       where arrivals go
     * @param eagerLimit largest eager message in bytes
     * @return the transport
     */
    public static TcpTransport connect(final LaunchInfo info, final InboundSink sink, final int eagerLimit) {
        throw new UnsupportedOperationException("tcp transport not implemented yet");
    }

    @Override
    public void send(final int destWorldRank, final Outbound message) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
    }
}
