package dev.tutti;

import dev.tutti.p2p.P2pEngine;
import dev.tutti.runtime.Configuration;
import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.RendezvousServer;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Transport;
import dev.tutti.transport.inproc.InprocFabric;
import dev.tutti.transport.inproc.InprocTransport;
import dev.tutti.transport.tcp.TcpTransport;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Runs the ranks of a multi-process job as threads of this JVM, each wired like a separate process: its own engine,
 * self traffic over a sparse inproc fabric, every other rank over its own {@link TcpTransport} on loopback, through
 * a real {@link RendezvousServer}. The first rank to fail aborts every engine (so the others' waits fail rather
 * than hang); the job then throws the first failure with the others suppressed.
 */
final class TcpJob {
    /** A rank's body, given the world communicator and the rank's tcp transport. */
    @FunctionalInterface
    interface Body {
        void run(Communicator world, TcpTransport tcp) throws Exception;
    }

    private TcpJob() {
    }

    /** Runs {@code body} on {@code n} ranks; each rank ends with the finalize agreement, as Tutti.close() does. */
    static void run(final int n, final int eagerLimit, final Body body) {
        run(n, eagerLimit, true, body);
    }

    static void run(final int n, final int eagerLimit, final boolean finalizeAtEnd, final Body body) {
        final String secret = HexFormat.of().formatHex(randomBytes(16));
        final AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(n);
        final AtomicInteger first = new AtomicInteger(-1);
        final P2pEngine[] engines = new P2pEngine[n];
        for (int r = 0; r < n; r++) {
            engines[r] = new P2pEngine(r, n, Configuration.idleStrategy());
        }
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", n, secret)) {
            final Thread[] threads = new Thread[n];
            for (int r = 0; r < n; r++) {
                final int rank = r;
                threads[r] = Thread.ofPlatform().name("tcp-rank-" + r).daemon(true).start(() -> {
                    try {
                        final P2pEngine engine = engines[rank];
                        final LaunchInfo info = new LaunchInfo(rank, n, "127.0.0.1:" + server.port(), secret, "test");
                        final TcpTransport tcp = TcpTransport.connect(info, engine, eagerLimit);
                        final InboundSink[] sinks = new InboundSink[n];
                        sinks[rank] = engine;
                        final Transport[] routes = new Transport[n];
                        Arrays.fill(routes, tcp);
                        routes[rank] = new InprocTransport(new InprocFabric(sinks), eagerLimit);
                        engine.connect(routes);
                        final Communicator world = Worlds.world(engine);
                        try {
                            body.run(world, tcp);
                        } finally {
                            if (finalizeAtEnd && null == failures.get(rank) && first.get() < 0) {
                                Worlds.finish(world);
                            } else {
                                engine.close();
                            }
                        }
                    } catch (final Throwable t) {
                        failures.set(rank, t);
                        if (first.compareAndSet(-1, rank)) {
                            final TuttiException cause = new TuttiException(ErrorClass.PROC_FAILED, "job aborted: rank "
                                + rank + " failed: " + t, t);
                            for (final P2pEngine e : engines) {
                                e.abort(cause);
                            }
                        }
                    }
                });
            }
            for (final Thread t : threads) {
                join(t);
            }
        }
        final int f = first.get();
        if (f >= 0) {
            final AssertionError job = new AssertionError("rank " + f + " failed: " + failures.get(f),
                failures.get(f));
            for (int r = 0; r < n; r++) {
                if (r != f && null != failures.get(r)) {
                    job.addSuppressed(failures.get(r));
                }
            }
            throw job;
        }
    }

    private static void join(final Thread t) {
        try {
            t.join(TimeUnit.SECONDS.toMillis(120));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        if (t.isAlive()) {
            throw new AssertionError(t.getName() + " did not finish: " + Arrays.toString(t.getStackTrace()));
        }
    }

    static byte[] randomBytes(final int n) {
        final byte[] b = new byte[n];
        ThreadLocalRandom.current().nextBytes(b);
        return b;
    }
}
