package dev.tutti.job;

import dev.tutti.CheckFailedException;
import dev.tutti.ErrorClass;
import dev.tutti.RankBody;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.calls.CommunicatorImpl;
import dev.tutti.coll.CollLeftovers;
import dev.tutti.internal.Failures;
import dev.tutti.p2p.P2pEngine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * Runs the ranks of an embedded job as threads and turns their outcome into one result.
 *
 * <p>Implementation notes. Each rank runs on its own daemon thread. A rank that returns tells every other engine
 * that it left ({@code peerLeft}), so operations still waiting for it fail; the checker's failure at its close (a
 * finding it only reported, {@link CheckFailedException}) is kept and thrown once every rank has returned, so that
 * it fails the job without cutting short the ranks still running. The first rank to throw aborts every
 * engine: all current and future waits on any rank then fail with a {@link ErrorClass#PROC_FAILED} exception naming
 * that rank, so no rank hangs waiting for a dead one. The job's exception names the first failure (by time; a rank
 * that failed on its own before one that failed only because a peer left) and carries the rest as suppressed
 * exceptions. Once every rank has returned, a collective message that no rank's call received fails the job as a
 * mismatch ({@link CollLeftovers}). On timeout the engines are aborted with the stacks of the ranks still running,
 * and their threads are interrupted.
 */
public final class LocalJob {
    private static final long GRACE_MS = 5_000;

    private final P2pEngine[] engines;
    /** Each rank's handle, set before its thread starts. */
    private final Tutti[] handles;
    private final Tutti.Options options;
    private final IntFunction<Tutti> ranks;
    private final AtomicReferenceArray<Throwable> failures;
    private final AtomicInteger firstFailed = new AtomicInteger(-1);
    /** Per rank: the checker's failure at its close (a finding it only reported), or null. */
    private final AtomicReferenceArray<CheckFailedException> checkFailures;

    public LocalJob(final P2pEngine[] engines, final Tutti.Options options, final IntFunction<Tutti> ranks) {
        this.engines = engines;
        this.options = options;
        this.ranks = ranks;
        this.failures = new AtomicReferenceArray<>(engines.length);
        this.handles = new Tutti[engines.length];
        this.checkFailures = new AtomicReferenceArray<>(engines.length);
    }

    public void run(final RankBody body) {
        final int n = engines.length;
        final Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            final int rank = i;
            final Tutti tutti = ranks.apply(rank);
            handles[rank] = tutti;
            threads[i] = Thread.ofPlatform().name("tutti-rank-" + rank).daemon(true).unstarted(() -> {
                try {
                    ((TuttiImpl) tutti).bindToThread();
                    body.run(tutti.world());
                    final TuttiException found = engines[rank].closing();
                    left(rank);
                    if (null != found) {
                        checkFailures.set(rank, found instanceof CheckFailedException c ? c
                            : new CheckFailedException(found.getMessage()));
                    }
                } catch (final Throwable t) {
                    fail(rank, t);
                }
            });
        }
        for (final Thread t : threads) {
            t.start();
        }
        final long timeoutMs = options.timeout().toMillis();
        final long deadline = 0 == timeoutMs ? Long.MAX_VALUE : System.currentTimeMillis() + timeoutMs;
        boolean timedOut = false;
        for (final Thread t : threads) {
            if (!join(t, deadline)) {
                timedOut = true;
                break;
            }
        }
        if (timedOut) {
            timeout(threads);
        } else {
            checkLeftovers();
        }
        finish();
    }

    /**
     * Every rank has returned, so every message any rank sent has arrived: a collective message that no call
     * received shows a mismatch ({@link CollLeftovers}), which fails the job like a rank that threw it. A job whose
     * failures are all departures ({@link ErrorClass#PROC_FAILED}: a rank that returned early made its peers' calls
     * fail) is searched too, for a message that disagrees with the call of its number; found, it is the cause.
     */
    private void checkLeftovers() {
        final boolean failed = firstFailed.get() >= 0;
        if (failed && !departuresOnly()) {
            return;
        }
        for (int r = 0; r < engines.length; r++) {
            ((CommunicatorImpl) handles[r].world()).contexts().reapAtClose();
            if (!failed) {
                final TuttiException leftover = CollLeftovers.check(engines[r]);
                if (null != leftover) {
                    fail(r, leftover);
                }
                continue;
            }
            final TuttiException mismatch = CollLeftovers.disagreement(engines[r]);
            if (null != mismatch) {
                final Throwable symptom = failures.get(r);
                if (null != symptom) {
                    mismatch.addSuppressed(symptom);
                }
                failures.set(r, mismatch);
                return;
            }
        }
    }

    /** @return whether every rank that failed failed because a peer left or failed */
    private boolean departuresOnly() {
        for (int i = 0; i < failures.length(); i++) {
            final Throwable t = failures.get(i);
            if (null != t && !(t instanceof TuttiException e && ErrorClass.PROC_FAILED == e.errorClass())) {
                return false;
            }
        }
        return true;
    }

    private static boolean join(final Thread t, final long deadline) {
        try {
            while (t.isAlive()) {
                final long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return false;
                }
                t.join(Math.min(left, Long.MAX_VALUE / 2));
            }
            return true;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Failures.interrupted("runLocal", null, "waiting for the ranks", e);
        }
    }

    /**
     * A rank returned: as a process that closes says goodbye, its peers learn that nothing more will come from it,
     * so their operations that still wait for it fail instead of hanging.
     */
    private void left(final int rank) {
        for (int i = 0; i < engines.length; i++) {
            if (i != rank) {
                engines[i].peerLeft(rank);
            }
        }
    }

    /**
     * Fails the job with rank {@code rank}'s exception: the first failure aborts every engine.
     *
     * @param rank the rank
     * @param t    what it threw (or passed to {@link Tutti#abort})
     */
    public void fail(final int rank, final Throwable t) {
        failures.compareAndSet(rank, null, t); // the first: an abort, then the exception it threw
        if (firstFailed.compareAndSet(-1, rank)) {
            final TuttiException cause = Failures.failed(ErrorClass.PROC_FAILED, "job aborted", null, "rank " + rank
                + " failed", t);
            for (final P2pEngine e : engines) {
                e.abort(cause);
            }
        }
    }

    private void timeout(final Thread[] threads) {
        final StringBuilder stacks = new StringBuilder();
        for (int i = 0; i < threads.length; i++) {
            if (threads[i].isAlive()) {
                stacks.append("\n  rank ").append(i).append(" still running:");
                for (final StackTraceElement f : threads[i].getStackTrace()) {
                    stacks.append("\n    at ").append(f);
                }
            }
        }
        final TuttiException cause = Failures.timeout("runLocal", null, "the job did not end",
            options.timeout().toMillis(), stacks.isEmpty() ? "" : "the ranks still running:" + stacks, null);
        if (firstFailed.compareAndSet(-1, -2)) {
            for (final P2pEngine e : engines) {
                e.abort(cause);
            }
        }
        for (final Thread t : threads) {
            t.interrupt();
        }
        final long deadline = System.currentTimeMillis() + GRACE_MS;
        for (final Thread t : threads) {
            join(t, deadline);
        }
        if (-2 == firstFailed.get()) {
            throw cause;
        }
    }

    private void finish() {
        final int earliest = firstFailed.get();
        if (earliest < 0) {
            finishChecked();
            return;
        }
        final int first = cause(earliest);
        final Throwable root = failures.get(first);
        final TuttiException job = Failures.failed(root instanceof TuttiException te ? te.errorClass()
            : ErrorClass.PROC_FAILED, "runLocal", null, "rank " + first + " failed", root);
        for (int i = 0; i < failures.length(); i++) {
            final Throwable t = failures.get(i);
            if (i != first && null != t) {
                job.addSuppressed(t);
            }
        }
        throw job;
    }

    /**
     * The rank whose failure the job reports: the earliest, unless that rank failed only because a peer left or
     * failed ({@link ErrorClass#PROC_FAILED}) and another rank failed on its own (a peer that returned early after a
     * mismatched collective fails its partner's send before the partner sees the mismatch).
     */
    private int cause(final int earliest) {
        if (!(failures.get(earliest) instanceof TuttiException t) || ErrorClass.PROC_FAILED != t.errorClass()) {
            return earliest;
        }
        for (int i = 0; i < failures.length(); i++) {
            final Throwable f = failures.get(i);
            if (null != f && !(f instanceof TuttiException o && ErrorClass.PROC_FAILED == o.errorClass())) {
                return i;
            }
        }
        return earliest;
    }

    /**
     * Fails a job whose ranks all returned if the checker reported a finding on any (its report is on standard
     * error): the first such rank's {@link CheckFailedException} names it, the others are suppressed.
     */
    private void finishChecked() {
        CheckFailedException job = null;
        for (int i = 0; i < checkFailures.length(); i++) {
            final CheckFailedException t = checkFailures.get(i);
            if (null == t) {
                continue;
            }
            if (null == job) {
                job = new CheckFailedException("runLocal: " + t.getMessage(), t);
            } else {
                job.addSuppressed(t);
            }
        }
        if (null != job) {
            throw job;
        }
    }
}
