package dev.tutti;

import dev.tutti.internal.Errors;
import dev.tutti.internal.Provider;
import dev.tutti.internal.Settings;

import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * The entry point: one {@code Tutti} per rank. In a program started by {@code tutti run}, {@link #init()} joins
 * the job; started any other way it is a job of one rank. {@link #runLocal} runs a whole job as threads of this
 * JVM (the embedded mode, for tests, notebooks and single-node work).
 *
 * <pre>{@code
 * try (Tutti tutti = Tutti.init()) {
 *     Communicator world = tutti.world();
 *     System.out.println("rank " + world.rank() + " of " + world.size());
 * }
 * }</pre>
 */
public interface Tutti extends AutoCloseable {
    /**
     * Joins the job this process was launched into (by {@code tutti run}, {@code srun}, {@code mpirun}, MPICH's
     * {@code mpiexec}, torchrun or a Kubernetes indexed Job: see the user guide's
     * {@code docs/slurm-and-mpirun.md}), or starts a job of one rank.
     *
     * @return this rank's handle; close it when done
     * @throws TuttiException if the launch environment is inconsistent or the peers cannot be reached
     */
    static Tutti init() {
        return init(Options.defaults());
    }

    /**
     * Joins the job with options.
     *
     * @param options the options
     * @return this rank's handle
     * @throws TuttiException if the launch environment is inconsistent or the peers cannot be reached
     */
    static Tutti init(final Options options) {
        return Provider.get().init(options);
    }

    /**
     * Runs a job of {@code n} ranks as threads of this JVM and returns when every rank has returned.
     *
     * @param n    the number of ranks, at least 1
     * @param body what each rank runs
     * @throws TuttiException if a rank threw: the message names the first rank that failed and why, the cause
     *                        is its exception, and other ranks' failures are suppressed
     */
    static void runLocal(final int n, final RankBody body) {
        runLocal(n, Options.defaults(), body);
    }

    /**
     * Runs a job of {@code n} ranks as threads of this JVM with options (for example a timeout).
     *
     * @param n       the number of ranks, at least 1
     * @param options the options
     * @param body    what each rank runs
     * @throws TuttiException if a rank threw, or of class {@link ErrorClass#TIMEOUT} if the job ran longer than
     *                        the options' timeout (the message holds each unfinished rank's stack)
     */
    static void runLocal(final int n, final Options options, final RankBody body) {
        Provider.get().runLocal(n, options, body);
    }

    /**
     * Allocates a buffer in this rank's shared-memory arena when the job runs over the shm transport: a send from
     * such a buffer ({@code Buf.of(segment, type)}) to a rank on this host is copied once, by the receiver, straight
     * out of it (no pipelining through chunks). Without shm (embedded jobs, tcp only) it returns ordinary memory
     * that any thread may access, and sends from it work as from any buffer.
     *
     * @param bytes the size
     * @return the segment, zeroed; release it with {@link #freeShared}
     * @throws TuttiException of class {@link ErrorClass#ARG} if bytes is negative or the arena is exhausted
     */
    MemorySegment allocShared(long bytes);

    /**
     * Returns a buffer from {@link #allocShared} to the arena (without shm, the memory is left to the garbage
     * collector).
     *
     * @param segment the buffer
     * @throws TuttiException of class {@link ErrorClass#ARG} if the job runs over shm and the segment is not a live
     *                        block of this rank's arena
     */
    void freeShared(MemorySegment segment);

    /** @return the world communicator: every rank of the job */
    Communicator world();

    /**
     * Leaves the job. In a rank of an embedded job this does nothing (the job ends when its threads return, and a
     * rank that returns counts as closed). In a multi-process job it says goodbye to every peer after what this
     * rank sent, and waits until the peers have read it (over tcp their I/O threads answer at once; bounded by the
     * setting {@code tutti.tcp.closeTimeoutMs}, 10 s, for a peer that does not answer), so that a normal exit is
     * never mistaken for a failure. From then on, every operation of another rank that can only complete with this
     * rank (a receive from it, a send to it, a collective that still waits for it) fails with
     * {@link ErrorClass#PROC_FAILED} naming it, within about 100 ms, instead of hanging. Unlike
     * {@code MPI_Finalize} it does not block until every rank has finished, so a rank that failed (threw) still
     * leaves promptly; {@link #abort(Throwable)} leaves without goodbye.
     *
     * <p>Last, it looks for collective messages that its peers sent and no call of this rank received: each proves
     * that the ranks called different collectives or roots in a way no receive saw (two ranks that each named
     * themselves the root of a bcast), and the first is thrown ({@link ErrorClass#ROOT} or {@link ErrorClass#ARG},
     * naming the sender's call and this rank's call of the same number).
     *
     * @throws TuttiException      for such a mismatch, after the rank has left
     * @throws CheckFailedException with the checker on (not {@code --check=warn}), once the rank has left, if the
     *                              checker reported a finding on this rank (its report is on standard error): so that
     *                              the rank's process ends with a non-zero status
     */
    @Override
    void close();

    /**
     * Leaves the job at once because this rank failed (like {@code MPI_Abort}, but the process goes on: end it
     * yourself). Unlike {@link #close()} there is no goodbye: every peer learns at once that this rank failed, so
     * its operations that need this rank fail with {@link ErrorClass#PROC_FAILED} naming it (over tcp an ABORT
     * frame, over shared memory the rank's aborted state), and this rank's own pending and later operations fail
     * with {@code cause}. In an embedded job the whole job fails with this rank's {@code cause}, as if the rank had
     * thrown it. Does nothing after {@link #close()} or a first abort.
     *
     * <pre>{@code
     * try { solve(world); } catch (final RuntimeException e) { tutti.abort(e); throw e; }
     * }</pre>
     *
     * @param cause why this rank gives up
     */
    void abort(Throwable cause);

    /**
     * Options of a job. Immutable; {@code with}-style methods return a copy.
     *
     * @param serializer the serializer of object messages
     * @param timeout    for {@link #runLocal}: the longest the job may run, or {@link Duration#ZERO} for no limit
     * @param algorithms forced collective algorithms, operation name to algorithm name
     * @param check      whether the correctness checker is on (see {@link #check(boolean)})
     * @param strict     whether it checks strictly (see {@link #strict(boolean)}); implies {@code check}
     * @param warn       whether the checker's reported findings leave the job's outcome alone (see
     *                   {@link #warn(boolean)})
     * @param hostLayout fake hosts of the ranks for node-aware collectives (see {@link #hosts(String)}), or ""
     */
    record Options(ObjectSerializer serializer, Duration timeout, java.util.Map<String, String> algorithms,
        boolean check, boolean strict, boolean warn, String hostLayout) {

        /**
         * Returns the defaults: Java serialization with the default allow-list, no timeout, automatic selection, the
         * checker as the setting {@code tutti.check} says (off unless set).
         *
         * @return the defaults
         * @throws TuttiException of class {@link ErrorClass#ARG} if the setting {@code tutti.check} is not on, strict
         *                        or off
         */
        public static Options defaults() {
            final String mode;
            try {
                mode = Settings.CHECK.choice();
            } catch (final IllegalArgumentException e) {
                throw Errors.argument("Options.defaults", null, e);
            }
            final boolean strict = "strict".equals(mode);
            final boolean warn = "warn".equals(mode);
            return new Options(ObjectSerializer.java(null), Duration.ZERO, java.util.Map.of(), strict || warn
                || "on".equals(mode), strict, warn, Settings.HOST_LAYOUT.text());
        }

        /**
         * Returns a copy with the correctness checker on or off. With it on, every collective call is compared with
         * its peers' calls before its data moves, and a call that does not match throws
         * {@link CollectiveMismatchException} on every rank involved, naming each rank's call and call site; a
         * checked call that waits longer than the setting {@code tutti.check.timeoutMs} for a peer that waits in
         * another collective fails the same way. Off, the checker costs nothing. Every rank must use the same.
         *
         * @param on whether to check
         * @return the copy
         */
        public Options check(final boolean on) {
            return new Options(serializer, timeout, algorithms, on, on && strict, on && warn, hostLayout);
        }

        /**
         * Returns a copy with the correctness checker on in strict mode ({@code --check=strict}), or with strict mode
         * off (the checker stays as it was). Strict, a program is checked as if MPI used none of its freedoms to
         * buffer: every blocking send returns only once its destination has received it, and every collective
         * synchronizes (a checked one always does), so a program that works only because sends are buffered (two
         * ranks that each send to the other before they receive) is reported as a deadlock, with the same report,
         * instead of hanging on another MPI or at another message size.
         *
         * @param on whether to check strictly
         * @return the copy
         */
        public Options strict(final boolean on) {
            return new Options(serializer, timeout, algorithms, check || on, on, warn, hostLayout);
        }

        /**
         * Returns a copy whose checker only warns ({@code --check=warn}), or fails the job (the default). The checker
         * reports some findings without throwing where they happen: what a rank leaves behind at close (requests never
         * completed, persistent requests left active or never freed, communicators never freed, messages never
         * received) and a buffer written while an operation owned it. By default a rank with such a finding fails at
         * close with {@link CheckFailedException} once its report is written ({@link #runLocal} throws; a rank's
         * {@link Tutti#close()} throws, so its process exits 1); warning, the report is all. Turns the checker on when
         * {@code on}. Findings that stop a call (a mismatch, a deadlock) fail it either way.
         *
         * @param on whether findings only warn
         * @return the copy
         */
        public Options warn(final boolean on) {
            return new Options(serializer, timeout, algorithms, check || on, strict, on, hostLayout);
        }


        /**
         * Returns a copy with another serializer.
         *
         * @param s the serializer
         * @return the copy
         */
        public Options serializer(final ObjectSerializer s) {
            return new Options(s, timeout, algorithms, check, strict, warn, hostLayout);
        }

        /**
         * Returns a copy with another timeout.
         *
         * @param t the timeout
         * @return the copy
         */
        public Options timeout(final Duration t) {
            return new Options(serializer, t, algorithms, check, strict, warn, hostLayout);
        }

        /**
         * Returns a copy that forces one algorithm for one collective on every communicator of the job, e.g.
         * {@code algorithm("allreduce", "ring")}. Every rank must use the same options.
         *
         * @param operation the collective, as in MPI in lower case ({@code reduce_scatter_block})
         * @param algorithm the algorithm's name ({@code ring}, {@code binomial}, {@code hierarchical}, ...; {@code
         * auto}
         *                  to select; {@code flat} to select but never the node-aware algorithm)
         * @return the copy
         * @throws TuttiException of class {@link ErrorClass#ARG} naming the valid names if either is unknown
         */
        public Options algorithm(final String operation, final String algorithm) {
            try {
                Provider.get().checkAlgorithm(operation, algorithm);
            } catch (final IllegalArgumentException e) {
                throw Errors.argument("Options.algorithm", null, e);
            }
            final java.util.Map<String, String> next = new java.util.TreeMap<>(algorithms);
            next.put(operation, algorithm);
            return new Options(serializer, timeout, java.util.Collections.unmodifiableMap(next), check, strict,
                warn, hostLayout);
        }

        /**
         * Returns a copy that places the ranks on fake hosts, a testing and tuning aid for the node-aware
         * (hierarchical) collectives, which then run as if the job spanned hosts; the transports are not affected.
         * The default is the setting {@code tutti.host.layout}. Every rank must use the same.
         *
         * <pre>{@code
         * Tutti.runLocal(6, Tutti.Options.defaults().hosts("blocks:2"), world -> ...); // ranks 0-2, 3-5
         * }</pre>
         *
         * @param layout {@code blocks:N} (N hosts of consecutive ranks), {@code cyclic:N} (rank r on host r mod N),
         *               one host label per rank, comma-separated ({@code a,a,b}), or "" for the real hosts
         * @return the copy
         * @throws TuttiException of class {@link ErrorClass#ARG} if the layout is malformed (a label list of the
         *                        wrong length fails when the job starts)
         */
        public Options hosts(final String layout) {
            final String l = null == layout ? "" : layout.trim();
            if (l.startsWith("blocks:") || l.startsWith("cyclic:")) {
                try {
                    Provider.get().checkHostLayout(l);
                } catch (final IllegalArgumentException e) {
                    throw Errors.argument("Options.hosts", null, e);
                }
            }
            return new Options(serializer, timeout, algorithms, check, strict, warn, l);
        }

        /** @return the serializer */
        @Override
        public ObjectSerializer serializer() {
            return serializer;
        }

        /** @return the timeout */
        @Override
        public Duration timeout() {
            return timeout;
        }
    }
}
