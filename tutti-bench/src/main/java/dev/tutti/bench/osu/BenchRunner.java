package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * What every rank runs: the benchmark over all sizes, with OSU's method.
 *
 * <p>Per size: {@link OsuBenchmark#prepare} (patterns into the buffers), a barrier (the library's
 * {@link Communicator#barrier()}), {@link OsuBenchmark#measure} (warm-up, then the timed iterations: this rank's
 * mean), a barrier (no rank runs new code while another is still timing), {@link OsuBenchmark#verify} (the
 * received data, checked after timing so the check costs nothing in the loop), then the maximum of the means over
 * ranks, and at rank 0 the row. Before the first size an untimed JIT warm-up runs (its iterations, and at least a
 * minimum time, then {@link #wakeInTurn} and {@link #compileMeasure}), and after every size's {@code prepare}, the
 * first size's too, a shorter one (until two chunks of iterations take the same time and the JVM's own threads were
 * quiet during the last one, within a maximum time), unless {@code --jit-warmup 0} was given: each size's own code paths are
 * compiled before they are timed, as they would be in a long-running job. Then the timed call is rehearsed until
 * the JVM stays quiet ({@link #rehearse}, {@link JvmActivity}), after a young collection, and a timed loop during
 * which the JIT compilers were busy runs again ({@link #timedLoop}). A rank whose check fails throws, which fails
 * the job. Before all of it, a communicator is freed ({@link #freeOnce}). How long the untimed phases may last:
 * {@link Pacing}.
 */
final class BenchRunner {
    /**
     * After a rehearsal the ranks sleep in steps of this long (ms) until a step was quiet ({@link JvmActivity}), at
     * most for the pacing's {@link Pacing#quietMaxMs}.
     */
    static final long QUIET_MS = 50;
    /**
     * Rehearsals end once those since the last busy one ran this many iterations, HotSpot's count of calls after
     * which a method still at the profiling tier is compiled at the top tier ({@code Tier4InvocationThreshold}):
     * a method called once per iteration that some earlier deoptimisation left at that tier then gets compiled
     * during a rehearsal, not during the timed loop that follows a rehearsal that happened to stay quiet (as
     * {@code -XX:+LogCompilation} shows C2 compiling {@code Collectives.run} inside 4 ranks' timed barrier loop)...
     */
    static final long QUIET_STREAK_ITERATIONS = 5_000;
    /** A timed loop during which some rank's JIT compiler threads ran longer than this (ns)... */
    static final long COMPILER_BUSY_NS = 250_000;
    /** ...and longer than this share (percent) of the loop's time runs again... */
    static final int COMPILER_BUSY_PERCENT = 2;
    /** ...at most this many times ({@link #timedLoop}). */
    static final int MAX_RERUNS = 5;
    /** {@link #wakeInTurn}: rounds, the sleep of every rank (about a quiet wait's), how much later the last wakes. */
    static final int WAKE_ROUNDS = 3;
    static final long WAKE_SLEEP_NS = 50_000_000L;
    static final long WAKE_LATE_NS = 10_000_000L;
    /** Two warm-up chunks whose times differ by at most this share (percent) end the warm-up. */
    static final int STABLE_PERCENT = 10;
    /** Calls of one iteration that get {@code measure} compiled at the top tier ({@link #compileMeasure}). */
    static final int MEASURE_CALLS = 2_000;

    private BenchRunner() {
    }

    /**
     * Runs the benchmark on this rank.
     *
     * @param world  the communicator of all ranks
     * @param spec   the run
     * @param bench  this rank's benchmark instance
     * @param report the report, at rank 0; null at other ranks
     * @throws BenchmarkException if the data this rank received is wrong
     */
    static void run(final Communicator world, final BenchSpec spec, final OsuBenchmark bench, final Report report) {
        run(world, spec, bench, report, new JvmActivity(), Pacing.STANDARD);
    }

    /**
     * Runs the benchmark on this rank, watching the JVM through {@code jvm} and pacing its untimed phases with
     * {@code pacing} (tests pass what they need).
     *
     * @param world  the communicator of all ranks
     * @param spec   the run
     * @param bench  this rank's benchmark instance
     * @param report the report, at rank 0; null at other ranks
     * @param jvm    this rank's view of its JVM's own threads
     * @param pacing how long the untimed phases may last
     * @throws BenchmarkException if the data this rank received is wrong
     */
    static void run(final Communicator world, final BenchSpec spec, final OsuBenchmark bench, final Report report,
        final JvmActivity jvm, final Pacing pacing) {
        final int[] sizes = bench.sizes(spec.sizes().sizes(), world.size());
        if (0 == sizes.length) {
            throw new BenchmarkException(spec.op() + " (rank=" + world.rank() + "): none of the sizes -m "
                + spec.sizes() + " applies, expected at least " + bench.op() + "'s smallest size");
        }
        final IterationDefaults defaults = bench.defaults();
        if (spec.backToBack() && bench instanceof CollectiveBenchmark c) {
            c.backToBack();
        }
        bench.allocate(world, sizes[sizes.length - 1]);
        // The header first, before any warm-up: the first line a rank prints wakes the launcher, which forwards it
        // with code it has never run (class loading, compilation); printed between the warm-up and the first timed
        // loop, that would take a core from a busy-polling rank and cost the first size many times its steady time.
        if (null != report) {
            report.begin();
        }
        final int jit = spec.jitWarmup(defaults);
        if (jit > 0) {
            jvm.compileCompilerWatch();
            freeOnce(world);
            bench.prepare(world, sizes[0]);
            world.barrier();
            warmUp(world, bench, jvm, sizes[0], jit, Math.max(1, spec.warmup(sizes[0], defaults)),
                pacing.firstWarmupMinNs(), pacing.firstWarmupMaxNs(), spec.percentiles());
            wakeInTurn(world);
            compileMeasure(world, bench, sizes[0], spec.percentiles());
        }
        for (int i = 0; i < sizes.length; i++) {
            final int bytes = sizes[i];
            if (null != report) {
                report.measuring(bytes, i, sizes.length);
            }
            bench.prepare(world, bytes);
            world.barrier();
            // The first size too: its timed loop runs on what this prepare made (a new persistent request, a new
            // channel), whose first calls take paths the warm-up never took; their traps must not recompile in it.
            if (jit > 0) {
                warmUp(world, bench, jvm, bytes, jit, Math.max(1, spec.warmup(bytes, defaults)), 0,
                    pacing.sizeWarmupMaxNs(), spec.percentiles());
            }
            final int iterations = spec.iterations(bytes, defaults);
            final int warmup = spec.warmup(bytes, defaults);
            if (jit > 0) {
                rehearse(world, bench, jvm, pacing, bytes, iterations, warmup, spec.percentiles());
            }
            final Timed timed = timedLoop(world, bench, jvm, pacing, bytes, iterations, warmup, spec.percentiles(),
                jit > 0 ? MAX_RERUNS : 0);
            bench.verify(world, bytes);
            final double maxUs = Control.maxToRoot(world, timed.meanUs());
            final Histogram all = null == timed.histogram() ? null : Control.mergeToRoot(world, timed.histogram());
            if (null != report) {
                if (!timed.discardedCompilerUs().isEmpty() || timed.keptCompilerUs() > 0) {
                    report.note(bytes, compilerNote(timed));
                }
                report.row(bytes, maxUs, all);
            }
        }
    }

    /**
     * Runs the timed loop, and runs it again (at most {@value #MAX_RERUNS} times) while the JIT compiler threads of
     * some rank were busy during it ({@link #busy}): a compilation during the loop is warm-up that the warm-ups and
     * rehearsals did not catch, not the steady state the table reports. HotSpot compiles a method when its counters
     * cross a threshold, whenever that is; at large sizes a path first taken at this size can cross it inside the timed
     * loop even after seconds of warm-up (4 ranks on 2 cores, the channel at 512 KiB, its first size on the arena path:
     * C2 compiles {@code ShmRendezvousInbound.deliver} in the loop, and the exchanges it overlaps take many times as
     * long as the others). A collection does not make a loop run again: what a loop allocates, it pays for. Every rank
     * runs the same number of loops (rank 0 decides). Without the JIT warm-up ({@code --jit-warmup 0}, {@code --quick})
     * the timed loops include compilation, as asked, run once, and nobody looks at the compilers.
     *
     * @param reruns the most loops run again
     * @return the kept loop's mean and histogram, and what the compilers did (meaningful at rank 0)
     */
    private static Timed timedLoop(final Communicator world, final OsuBenchmark bench, final JvmActivity jvm,
        final Pacing pacing, final int bytes, final int iterations, final int warmup, final boolean percentiles, final int reruns) {
        final List<Double> discarded = new ArrayList<>();
        while (true) {
            final Histogram histogram = percentiles ? new Histogram(3) : null;
            if (reruns > 0) {
                jvm.markCompilers();
            }
            final long start = System.nanoTime();
            final double meanUs = bench.measure(world, bytes, iterations, warmup, histogram);
            // Every rank leaves the timed loop before any runs the code after it: that code (the check, the
            // report) compiles anew, and with 4 ranks on 2 cores those compilations would take the cores for
            // milliseconds from a rank still in its last timed barrier (perf sched, -XX:+LogCompilation).
            world.barrier();
            if (0 == reruns) {
                return new Timed(meanUs, histogram, discarded, 0);
            }
            final long compilerNs = jvm.compilerNsSinceMark();
            final boolean busy = Control.maxToRoot(world, busy(compilerNs, System.nanoTime() - start) ? 1 : 0) > 0;
            final double compilerUs = Control.maxToRoot(world, compilerNs / 1e3); // busy, compilerUs: at rank 0
            if (!Control.fromRoot(world, busy && discarded.size() < reruns)) {
                return new Timed(meanUs, histogram, discarded, busy ? compilerUs : 0);
            }
            discarded.add(compilerUs);
            jvm.awaitQuiet(QUIET_MS, pacing.quietMaxMs()); // the compilation finishes before the loop runs again
            world.barrier();
        }
    }

    /**
     * Tells whether this rank's JIT compiler threads ran, during a loop, more than {@value #COMPILER_BUSY_NS} ns and
     * more than {@value #COMPILER_BUSY_PERCENT}% of the loop's time (a JVM's compilers finish some small compilation
     * every few hundred ms long after warm-up, which costs a long loop little).
     *
     * @param compilerNs the compiler threads' CPU time during the loop
     * @param loopNs     the loop's wall time
     * @return the answer
     */
    static boolean busy(final long compilerNs, final long loopNs) {
        return compilerNs > Math.max(COMPILER_BUSY_NS, loopNs / 100 * COMPILER_BUSY_PERCENT);
    }

    /** @return the table's note on the timed loops {@link #timedLoop} ran again, and the one it kept if busy */
    private static String compilerNote(final Timed timed) {
        return compilerNote(timed.discardedCompilerUs(), timed.keptCompilerUs());
    }

    /**
     * @param discardedUs per timed part run again, the most a rank's compiler threads ran in it (µs)
     * @param keptUs      the same for the part kept if its compilers were busy, else 0
     * @return the table's note on timed parts run again because the JIT compilers were busy, empty if none
     */
    static String compilerNote(final List<Double> discardedUs, final double keptUs) {
        final StringBuilder b = new StringBuilder();
        if (!discardedUs.isEmpty()) {
            b.append(discardedUs.size()).append(" timed loop(s) run again: JIT compiler threads ran ")
                .append(discardedUs.stream().map(BenchRunner::ms).collect(Collectors.joining(", ")))
                .append(" during them at one rank");
        }
        if (keptUs > 0) {
            b.append(b.isEmpty() ? "" : "; ").append("JIT compiler threads ran ").append(ms(keptUs))
                .append(" during the loop kept, at one rank");
        }
        return b.toString();
    }

    private static String ms(final double us) {
        return String.format(Locale.ROOT, "%.2f ms", us / 1e3);
    }

    /**
     * A size's timed loop.
     *
     * @param meanUs              this rank's mean time per call
     * @param histogram           this rank's per-call times, or null without percentiles
     * @param discardedCompilerUs per loop run again, the most a rank's compiler threads ran in it (µs)
     * @param keptCompilerUs      the same for the loop kept if its compilers were busy, else 0
     */
    private record Timed(double meanUs, Histogram histogram, List<Double> discardedCompilerUs,
        double keptCompilerUs) {
    }

    /**
     * Rehearses the timed call, untimed, until the JVM's own threads were quiet at every rank ({@link JvmActivity})
     * for {@value #QUIET_STREAK_ITERATIONS} iterations or the pacing's {@link Pacing#quietStreakMs} of rehearsals
     * in a row, at most for its {@link Pacing#rehearsalMaxMs}; after each one every rank sleeps until they are. A rehearsal has the
     * timed call's trip counts and branches, so that whatever the compiler does only for them (on-stack
     * replacement, recompilation, methods that cross a compile threshold only now) happens before timing. One
     * rehearsal is not enough with more ranks than cores: C2 compiler threads then run millisecond slices on the
     * ranks' cores during the timed loop ({@code perf sched timehist}), and a 4-rank 32 KiB bcast measures several
     * times slower than its steady state. Every rank runs the same number of rehearsals (rank 0 decides). Each
     * rehearsal ends with a call of one iteration: HotSpot compiles a method at the entry that follows an on-stack
     * compilation of its loop, and that entry would otherwise be the timed call's ({@code -XX:+LogCompilation} shows
     * C2 compiling {@code measure} inside 4 ranks' timed barrier loop).
     *
     * <p>First every rank has its young generation collected ({@link JvmActivity#collectYoung}): what the warm-up
     * and the harness left there would otherwise fill it at some call of the timed loop, and a young collection
     * stalls every rank for milliseconds (with 4 ranks on 2 cores the first one comes seconds into a run). What the
     * timed calls allocate themselves still fills the young generation during the timed loop, and its collections
     * are measured.
     */
    private static void rehearse(final Communicator world, final OsuBenchmark bench, final JvmActivity jvm,
        final Pacing pacing, final int bytes, final int iterations, final int warmup, final boolean percentiles) {
        jvm.collectYoung(pacing.collectMaxMs());
        jvm.awaitQuiet(QUIET_MS, pacing.quietMaxMs());
        world.barrier();
        final long start = System.nanoTime();
        long quietIterations = 0; // of the rehearsals since the last busy one (meaningful at rank 0)
        long quietSince = start;
        boolean again;
        do {
            final long compiledBefore = jvm.compileMs();
            jvm.mark();
            bench.measure(world, bytes, iterations, warmup, percentiles ? new Histogram(3) : null);
            // And a call of one iteration: once a loop of measure has been compiled on stack (OSR) at the top tier,
            // HotSpot compiles the whole method at the next call's entry, which must not be the timed call.
            bench.measure(world, bytes, 1, 0, percentiles ? new Histogram(3) : null);
            final boolean busy = !jvm.quiet();
            jvm.awaitQuiet(QUIET_MS, pacing.quietMaxMs());
            final double anyBusy = Control.maxToRoot(world, busy || jvm.compileMs() != compiledBefore ? 1 : 0);
            final long now = System.nanoTime();
            if (anyBusy > 0) {
                quietIterations = 0;
                quietSince = now;
            } else {
                quietIterations += iterations + warmup + 1;
            }
            final boolean settled = quietIterations >= QUIET_STREAK_ITERATIONS
                || (quietIterations > 0 && now - quietSince >= pacing.quietStreakMs() * 1_000_000L);
            again = Control.fromRoot(world, !settled && now - start < pacing.rehearsalMaxMs() * 1_000_000L);
        } while (again);
        world.barrier();
    }

    /**
     * Runs the harness's own calls (a reduction and a broadcast of the control values, a barrier) after every rank has
     * slept, as they run after each quiet wait of a rehearsal, with each rank in turn waking last. Their message paths
     * after a sleep (a message that reaches a rank still asleep, a receive posted after its message arrived) are then
     * taken here, in the warm-up. Otherwise the first of them runs at the end of the rehearsal, in code compiled while
     * the warm-up's lockstep never took them: the uncommon trap sends the compilers to work for milliseconds on the
     * cores the ranks spin on, into the timed loop that follows ({@code -Xlog:deoptimization,jit+compilation}:
     * {@code unstable_if} traps in {@code Matcher.takePosted}, {@code Matcher.post} and
     * {@code ShmTransport.drainInbox} just before it), and the small sizes of the build-once forms at 2 ranks come out
     * several times slower than their steady state far more often.
     */
    private static void wakeInTurn(final Communicator world) {
        for (int round = 0; round < WAKE_ROUNDS; round++) {
            for (int last = 0; last < world.size(); last++) {
                LockSupport.parkNanos(last == world.rank() ? WAKE_SLEEP_NS + WAKE_LATE_NS : WAKE_SLEEP_NS);
                Control.fromRoot(world, Control.maxToRoot(world, 0) > 0);
                world.barrier();
            }
        }
    }

    /**
     * Frees a communicator before the warm-up, so that the warm-up takes the paths of a rank's first free: a free
     * adds housekeeping to the rank's progress loop (returning the context ids once every member has freed), and the
     * channel benchmark closes its previous channel, and with it the channel's communicator, at each size's prepare.
     * Otherwise the first size's second prepare is the job's first free: the progress loop meets its new work inside
     * the rehearsals or the timed loop, where the uncommon traps send the compilers to work
     * ({@code -Xlog:deoptimization}: traps in {@code ContextIdAllocator.reap} and {@code P2pEngine.progress} inside
     * the timed loop), and 4 ranks' 8-byte channel exchange stalls in many runs; with this and the first size's own
     * warm-up it does not.
     */
    private static void freeOnce(final Communicator world) {
        final Communicator scratch = world.dup();
        scratch.barrier();
        scratch.free();
    }

    /**
     * Calls {@link OsuBenchmark#measure} {@value #MEASURE_CALLS} times with one iteration, so that HotSpot compiles
     * the method itself at the top tier now: it counts calls and loop iterations apart, and the warm-up's few long
     * calls leave it at the profiling tier with a loop that crosses its on-stack compilation threshold at some
     * later call, such as 4 ranks' timed barrier loop ({@code -XX:+LogCompilation} shows C2 compiling
     * {@code measure} there). One iteration at the smallest size costs little.
     */
    private static void compileMeasure(final Communicator world, final OsuBenchmark bench, final int bytes,
        final boolean percentiles) {
        final Histogram scratch = percentiles ? new Histogram(3) : null;
        for (int i = 0; i < MEASURE_CALLS; i++) {
            bench.measure(world, bytes, 1, 0, scratch);
        }
        world.barrier();
    }

    /**
     * Untimed iterations at a size before it is measured, so that the code paths of this size (other algorithms,
     * the rendezvous protocol, larger kernels) are compiled before timing: chunks of {@code chunk} iterations
     * until {@code limit} iterations and {@code minNs} have passed, two successive chunks took the same time
     * within {@value #STABLE_PERCENT}% (at rank 0) and the JVM's own threads were quiet during the last chunk at
     * every rank ({@link JvmActivity}), or until {@code maxNs} has passed; rank 0 decides after each
     * chunk, so every rank runs the same number of iterations. The JIT compiles on background threads, which
     * compete with ranks that busy-poll: a warm-up that ends as soon as the loop has run often enough leaves the
     * first timed iterations of each size to code that is still being compiled.
     */
    private static void warmUp(final Communicator world, final OsuBenchmark bench, final JvmActivity jvm,
        final int bytes, final int limit, final int chunk, final long minNs, final long maxNs,
        final boolean percentiles) {
        // One untimed iteration per chunk and, with percentiles, a histogram: the timed loop's branches are then
        // taken during the warm-up too, so the compiled loop does not deoptimise at the first timed call.
        final Histogram scratch = percentiles ? new Histogram(3) : null;
        final long start = System.nanoTime();
        int done = 0;
        double previous = Double.NaN;
        boolean more = true;
        while (more) {
            jvm.mark();
            final double mean = bench.measure(world, bytes, chunk, 1, scratch);
            final double anyBusy = Control.maxToRoot(world, jvm.quiet() ? 0 : 1);
            done += chunk;
            final long elapsed = System.nanoTime() - start;
            final boolean stable = Math.abs(mean - previous) <= previous * STABLE_PERCENT / 100.0;
            previous = mean;
            more = Control.fromRoot(world, elapsed < maxNs
                && (done < limit || elapsed < minNs || !stable || anyBusy > 0));
        }
    }
}
