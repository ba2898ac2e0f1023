package dev.tutti;

import dev.tutti.p2p.P2pEngine;

/**
 * Package-private factories that build API objects over an engine wired by hand (tests of transports that run
 * several ranks of a multi-process job inside one JVM).
 */
final class Worlds {
    private Worlds() {
    }

    /**
     * Builds the world communicator of an engine.
     *
     * @param engine the rank's engine, already connected to its transports
     * @return the world communicator
     */
    static Communicator world(final P2pEngine engine) {
        return new Communicator(engine, "WORLD", Tutti.WORLD_P2P_CONTEXT, null, ObjectSerializer.java(null));
    }

    /**
     * Leaves the job as {@link Tutti#close()} does for a multi-process job: the engine's transports say goodbye
     * and close, and a collective message that no call received fails the rank.
     *
     * @param world the world communicator built by {@link #world}
     */
    static void finish(final Communicator world) {
        world.engine().close();
        final TuttiException leftover = dev.tutti.coll.CollLeftovers.check(world.engine());
        if (null != leftover) {
            throw leftover;
        }
    }
}
