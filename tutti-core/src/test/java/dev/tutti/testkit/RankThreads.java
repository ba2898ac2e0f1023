package dev.tutti.testkit;

import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;

import dev.tutti.p2p.P2pEngine;
import dev.tutti.runtime.IdleStrategy;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Transport;
import dev.tutti.transport.inproc.InprocFabric;
import dev.tutti.transport.inproc.InprocTransport;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The part of {@link ShmJob} and {@link TcpJob} that does not depend on the transport: runs the ranks of a
 * multi-process job as threads of this JVM, each with its own engine, its peers over the transport the caller
 * wires, self traffic over a sparse inproc fabric. The first rank to fail aborts every engine (so the others' waits
 * fail rather than hang); the job then throws the first failure with the others suppressed. Every rank thread must
 * end within 120 s.
 */
public final class RankThreads {
    /** Makes rank {@code rank}'s transport to its peers (on the rank's thread). */
    @FunctionalInterface
    public interface Wiring<T extends Transport> {
        T connect(int rank, P2pEngine engine) throws Exception;
    }

    /** A rank's body, given the world communicator and the rank's transport. */
    @FunctionalInterface
    public interface Body<T extends Transport> {
        void run(Communicator world, T transport) throws Exception;
    }

    private RankThreads() {
    }

    /**
     * Runs {@code body} on {@code n} ranks.
     *
     * @param name           thread name prefix
     * @param n              ranks
     * @param idle           every engine's idle strategy
     * @param selfEager      eager limit of the self (inproc) route
     * @param finalizeAtEnd  whether a rank that succeeded ends with the finalize agreement, as Tutti.close() does
     * @param wiring         each rank's transport
     * @param body           each rank's work
     * @param <T>            the transport
     * @throws AssertionError naming the first rank that failed
     */
    public static <T extends Transport> void run(final String name, final int n, final IdleStrategy idle, final int selfEager,
        final boolean finalizeAtEnd, final Wiring<T> wiring, final Body<T> body) {
        final AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(n);
        final AtomicInteger first = new AtomicInteger(-1);
        final P2pEngine[] engines = new P2pEngine[n];
        for (int r = 0; r < n; r++) {
            engines[r] = new P2pEngine(r, n, idle);
        }
        final Thread[] threads = new Thread[n];
        for (int r = 0; r < n; r++) {
            final int rank = r;
            threads[r] = Thread.ofPlatform().name(name + "-rank-" + r).daemon(true).start(() -> {
                try {
                    final P2pEngine engine = engines[rank];
                    final T transport = wiring.connect(rank, engine);
                    final InboundSink[] sinks = new InboundSink[n];
                    sinks[rank] = engine;
                    final Transport[] routes = new Transport[n];
                    Arrays.fill(routes, transport);
                    routes[rank] = new InprocTransport(new InprocFabric(sinks), selfEager);
                    engine.connect(routes);
                    final Communicator world = Worlds.world(engine);
                    try {
                        body.run(world, transport);
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
}
