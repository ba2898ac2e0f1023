package dev.tutti.runtime;

/**
 * The job's rendezvous (placeholder API; implemented with the tcp transport): a PMI-style key-value service the
 * launcher runs. Each rank connects, proves it knows the job secret, publishes its endpoint, and receives the
 * endpoints of all ranks once every rank has published (a fence).
 */
public final class RendezvousServer implements AutoCloseable {
    private RendezvousServer() {
    }

    /**
     * Starts listening on an ephemeral port of {@code bindHost}.
     *
     * @param bindHost the address to listen on ({@code 0.0.0.0} for remote ranks, loopback for local jobs)
     * @param size     the number of ranks that will register
     * @param secret   the job secret (hex) that ranks must prove
     * @return the running server
     */
    public static RendezvousServer start(final String bindHost, final int size, final String secret) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** @return the port it listens on */
    public int port() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Stops listening and drops connections. */
    @Override
    public void close() {
    }
}
