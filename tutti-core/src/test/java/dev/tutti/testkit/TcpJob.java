package dev.tutti.testkit;

import dev.tutti.Communicator;

import dev.tutti.runtime.Configuration;
import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.RendezvousServer;
import dev.tutti.transport.tcp.TcpTransport;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs the ranks of a multi-process job as threads of this JVM ({@link RankThreads}), each wired like a separate
 * process: every other rank over its own {@link TcpTransport} on loopback, through a real {@link RendezvousServer}.
 */
public final class TcpJob {
    /** A rank's body, given the world communicator and the rank's tcp transport. */
    @FunctionalInterface
    public interface Body {
        void run(Communicator world, TcpTransport tcp) throws Exception;
    }

    private TcpJob() {
    }

    /** Runs {@code body} on {@code n} ranks; each rank ends with the finalize agreement, as Tutti.close() does. */
    public static void run(final int n, final int eagerLimit, final Body body) {
        run(n, eagerLimit, true, body);
    }

    public static void run(final int n, final int eagerLimit, final boolean finalizeAtEnd, final Body body) {
        final String secret = HexFormat.of().formatHex(randomBytes(16));
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", n, secret)) {
            RankThreads.run("tcp", n, Configuration.idleStrategy(), eagerLimit, finalizeAtEnd, (rank, engine) ->
                TcpTransport.connect(new LaunchInfo(rank, n, "127.0.0.1:" + server.port(), secret, "test"), engine,
                    eagerLimit), body::run);
        }
    }

    public static byte[] randomBytes(final int n) {
        final byte[] b = new byte[n];
        ThreadLocalRandom.current().nextBytes(b);
        return b;
    }
}
