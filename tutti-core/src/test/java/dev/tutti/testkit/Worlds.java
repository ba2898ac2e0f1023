package dev.tutti.testkit;

import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.Intercommunicator;
import dev.tutti.ObjectSerializer;
import dev.tutti.TuttiException;

import dev.tutti.calls.CommImpl;
import dev.tutti.calls.CommunicatorImpl;
import dev.tutti.calls.IntercommunicatorImpl;
import dev.tutti.job.TuttiImpl;
import dev.tutti.p2p.P2pEngine;

/**
 * Package-private factories that build API objects over an engine wired by hand (tests of transports that run
 * several ranks of a multi-process job inside one JVM).
 */
public final class Worlds {
    private Worlds() {
    }

    /**
     * Builds the world communicator of an engine.
     *
     * @param engine the rank's engine, already connected to its transports
     * @return the world communicator
     */
    public static Communicator world(final P2pEngine engine) {
        return new CommunicatorImpl(engine, "WORLD", TuttiImpl.WORLD_P2P_CONTEXT, null, ObjectSerializer.java(null));
    }

    /**
     * Leaves the job as {@link Tutti#close()} does for a multi-process job: the engine's transports say goodbye
     * and close, and a collective message that no call received fails the rank.
     *
     * @param world the world communicator built by {@link #world}
     */
    public static void finish(final Communicator world) {
        impl(world).engine().close();
        final TuttiException leftover = dev.tutti.coll.CollLeftovers.check(impl(world).engine());
        if (null != leftover) {
            throw leftover;
        }
    }

    /**
     * @param comm a communicator of the library
     * @return its implementation, for tests that look at the engine behind it
     */
    public static CommImpl impl(final Comm comm) {
        return (CommImpl) comm;
    }

    /**
     * @param comm an intracommunicator of the library
     * @return its implementation
     */
    public static CommunicatorImpl impl(final Communicator comm) {
        return (CommunicatorImpl) comm;
    }

    /**
     * @param comm an intercommunicator of the library
     * @return its implementation
     */
    public static IntercommunicatorImpl impl(final Intercommunicator comm) {
        return (IntercommunicatorImpl) comm;
    }
}
