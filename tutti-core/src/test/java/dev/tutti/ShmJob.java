package dev.tutti;

import dev.tutti.p2p.P2pEngine;
import dev.tutti.runtime.Configuration;
import dev.tutti.runtime.IdleStrategy;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Transport;
import dev.tutti.transport.inproc.InprocFabric;
import dev.tutti.transport.inproc.InprocTransport;
import dev.tutti.transport.shm.ShmConfig;
import dev.tutti.transport.shm.ShmTransport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Runs the ranks of a multi-process job as threads of this JVM, each wired like a separate process over shm: its
 * own engine and its own {@link ShmTransport} mapping the same job file in /dev/shm, self traffic over a sparse
 * inproc fabric. A barrier stands in for the rendezvous fence. The first rank to fail aborts every engine; the job
 * then throws the first failure with the others suppressed. The job file must be gone afterwards.
 */
final class ShmJob {
    /** A rank's body, given the world communicator and the rank's shm transport. */
    @FunctionalInterface
    interface Body {
        void run(Communicator world, ShmTransport shm) throws Exception;
    }

    private ShmJob() {
    }

    static ShmConfig config() {
        return ShmConfig.fromConfiguration().withArena(16L << 20);
    }

    static void run(final int n, final Body body) {
        run(n, config(), true, body);
    }

    static void run(final int n, final ShmConfig config, final boolean finalizeAtEnd, final Body body) {
        run(n, config, finalizeAtEnd, Configuration.idleStrategy(), body);
    }

    static void run(final int n, final ShmConfig config, final boolean finalizeAtEnd, final IdleStrategy idle,
        final Body body) {
        final String secret = HexFormat.of().formatHex(TcpJob.randomBytes(16));
        final String jobId = "test-" + ProcessHandle.current().pid();
        final Path file = Configuration.shmFile(jobId, secret);
        final AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(n);
        final AtomicInteger first = new AtomicInteger(-1);
        final P2pEngine[] engines = new P2pEngine[n];
        for (int r = 0; r < n; r++) {
            engines[r] = new P2pEngine(r, n, idle);
        }
        final CyclicBarrier fence = new CyclicBarrier(n);
        final Thread[] threads = new Thread[n];
        for (int r = 0; r < n; r++) {
            final int rank = r;
            threads[r] = Thread.ofPlatform().name("shm-rank-" + r).daemon(true).start(() -> {
                try {
                    final P2pEngine engine = engines[rank];
                    final ShmTransport shm = ShmTransport.join(file, jobId, rank, n, engine, config);
                    fence.await(30, TimeUnit.SECONDS);
                    final boolean[] local = shm.ranksOnHost();
                    local[rank] = false;
                    shm.start(local);
                    final InboundSink[] sinks = new InboundSink[n];
                    sinks[rank] = engine;
                    final Transport[] routes = new Transport[n];
                    Arrays.fill(routes, shm);
                    routes[rank] = new InprocTransport(new InprocFabric(sinks), 64 * 1024);
                    engine.connect(routes);
                    final Communicator world = Worlds.world(engine);
                    try {
                        body.run(world, shm);
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
        if (Files.exists(file)) {
            throw new AssertionError("the job file " + file + " is still there after every rank closed");
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
