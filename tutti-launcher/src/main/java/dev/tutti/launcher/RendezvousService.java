package dev.tutti.launcher;

import dev.tutti.runtime.RendezvousServer;

/**
 * The rendezvous a job's ranks meet at (the PMI-style exchange of endpoints), as the launcher sees it: it is started
 * before the ranks, its port is handed to them in {@code TUTTI_RENDEZVOUS}, and it is closed when the job ends.
 * {@link #tutti()} is the real one ({@link RendezvousServer}); embedders and tests may supply another.
 */
public interface RendezvousService extends AutoCloseable {
    /** @return the port ranks connect to */
    int port();

    /** Stops the service; idempotent. */
    @Override
    void close();

    /** Starts a rendezvous service for one job. */
    @FunctionalInterface
    interface Factory {
        /**
         * Starts the service.
         *
         * @param bindHost the address to listen on: loopback when every rank is local, {@code 0.0.0.0} otherwise
         * @param size     the number of ranks that will register
         * @param secret   the job secret (hex) the ranks must prove
         * @return the running service
         */
        RendezvousService start(String bindHost, int size, String secret);
    }

    /**
     * The rendezvous of {@code tutti-core}: {@link RendezvousServer#start(String, int, String)}.
     *
     * @return the factory
     */
    static Factory tutti() {
        return (bindHost, size, secret) -> {
            final RendezvousServer server = RendezvousServer.start(bindHost, size, secret);
            return new RendezvousService() {
                @Override
                public int port() {
                    return server.port();
                }

                @Override
                public void close() {
                    server.close();
                }
            };
        };
    }
}
