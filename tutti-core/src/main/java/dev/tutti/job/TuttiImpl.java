package dev.tutti.job;

import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.ObjectSerializer;
import dev.tutti.RankBody;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.calls.CommunicatorImpl;
import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.CollLeftovers;
import dev.tutti.coll.HostMap;
import dev.tutti.coll.SelectionTable;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.internal.Settings;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.identity.Launch;
import dev.tutti.transport.Transport;
import dev.tutti.transport.shm.ShmTransport;
import dev.tutti.trace.RankRecording;
import dev.tutti.trace.Trace;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;

/**
 * A rank's {@link Tutti}: its engine, its world communicator and how it leaves the job. Made by
 * {@link JobProvider}: {@link #init} for a process (a job of one rank when no launcher started it), {@link #runLocal}
 * for the ranks of an embedded job, each bound to its thread so that a program's own {@code Tutti.init()} inside
 * the job returns that rank.
 *
 * <p>Implementation note. {@code close} and {@code abort} are idempotent ({@code closed} is volatile and set
 * before the engine closes); the world communicator and the checker are set up in the constructor, before the
 * handle is published to the rank's thread.
 */
public final class TuttiImpl implements Tutti {
    /** Context id of the world communicator's point-to-point traffic. */
    public static final int WORLD_P2P_CONTEXT = 0;

    private static final dev.tutti.runtime.Log LOG = dev.tutti.runtime.Log.of(TuttiImpl.class);
    /**
     * The rank an embedded job's thread belongs to, so that a program's own {@link #init()} inside
     * {@link #runLocal} (or {@code tutti run --embedded}) joins that job. Inherited by threads the rank starts.
     */
    private static final InheritableThreadLocal<Tutti> EMBEDDED_RANK = new InheritableThreadLocal<>();

    private final P2pEngine engine;
    private final CommunicatorImpl world;
    /** For a rank of an embedded job: how it fails the job ({@link #abort}); null for a process. */
    private final java.util.function.Consumer<Throwable> embeddedAbort;
    private volatile boolean closed;
    /** How this process joined its job: rank 0 under another launcher serves the rendezvous until close. */
    private Launch launch;
    /** This process's Flight Recorder recording, with Tutti's events on ({@code tutti.jfr}); else null. */
    private RankRecording recording;

    private TuttiImpl(final P2pEngine engine, final Options options,
        final java.util.function.Consumer<Throwable> embeddedAbort) {
        this(engine, options, embeddedAbort, null);
    }

    /** @param sharesMemory for a launched process, the world ranks it reaches by shared memory; else null */
    private TuttiImpl(final P2pEngine engine, final Options options,
        final java.util.function.Consumer<Throwable> embeddedAbort, final boolean[] sharesMemory) {
        this.engine = engine;
        this.embeddedAbort = embeddedAbort;
        this.world = new CommunicatorImpl(engine, "WORLD", WORLD_P2P_CONTEXT, null, options.serializer(),
            selection(options));
        if (null != sharesMemory) {
            engine.layout(HostDiscovery.of(world, layoutOf(options.hostLayout(), engine.worldSize()),
                sharesMemory));
            world.collComm().refreshLayout();
        }
        if (options.check()) {
            dev.tutti.check.Checker.install(engine, checkTimeoutMs(), options.strict(), options.warn());
        }
        if (null != sharesMemory) {
            // a launched process: its start is collective already (the layout above), so the world agrees its
            // on-host region here too; ranks that are threads of one JVM agree it at their first call that can
            world.agreeRegion();
        }
    }

    /**
     * Joins the job with options.
     *
     * @param options the options
     * @return this rank's handle
     * @throws TuttiException if the launch environment is inconsistent or the peers cannot be reached
     */
    public static Tutti init(final Options options) {
        final Tutti bound = EMBEDDED_RANK.get();
        if (null != bound) {
            return bound;
        }
        final Launch launch = Launch.join(System.getenv());
        if (null == launch) {
            final P2pEngine engine = TransportWiring.newEngine(0, 1);
            engine.connect(new Transport[] {TransportWiring.selfTransport(engine, 0, 1)});
            return new TuttiImpl(engine, options, null).recorded();
        }
        dev.tutti.runtime.Log.oneLinePerRecord(); // a rank of a job: its records name it, one line each
        dev.tutti.runtime.Log.rank(launch.info().rank()); // and threads started from here (transports) inherit it
        boolean ok = false;
        try {
            final LaunchInfo info = launch.info();
            final TransportWiring.HostIdle idle = new TransportWiring.HostIdle();
            final P2pEngine engine = new P2pEngine(info.rank(), info.size(), idle);
            final Transport[] routes = TransportWiring.wire(info, engine, idle);
            final boolean[] sharesMemory = new boolean[routes.length];
            for (int r = 0; r < routes.length; r++) {
                sharesMemory[r] = r == info.rank() || routes[r] instanceof ShmTransport;
            }
            final TuttiImpl tutti = new TuttiImpl(engine, options, null, sharesMemory);
            tutti.launch = launch;
            LOG.log(System.Logger.Level.DEBUG, () -> "joined as rank " + info.rank() + " of " + info.size()
                + " (pid " + ProcessHandle.current().pid() + "), peers " + routesOf(routes, info.rank())
                + ", checker " + (options.check() ? "on" : "off"));
            tutti.recorded();
            ok = true;
            return tutti;
        } finally {
            if (!ok) {
                launch.close();
            }
        }
    }

    /**
     * Starts this process's recording and measures its clock against rank 0's, when Tutti records its events.
     *
     * @return this
     */
    private TuttiImpl recorded() {
        if (Trace.ON) {
            recording = RankRecording.start(engine.worldRank());
            ClockSync.measure(engine, WORLD_P2P_CONTEXT, world.view());
        }
        return this;
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
    public static void runLocal(final int n, final Options options, final RankBody body) {
        if (n < 1) {
            throw Errors.argument(ErrorClass.ARG, "runLocal", null, "n", n, "n >= 1");
        }
        final P2pEngine[] engines = TransportWiring.embedded(n, layoutOf(options.hostLayout(), n));
        final LocalJob[] job = new LocalJob[1];
        job[0] = new LocalJob(engines, options, rank -> new TuttiImpl(engines[rank], options,
            cause -> job[0].fail(rank, cause)));
        job[0].run(body);
    }

    @Override
    public MemorySegment allocShared(final long bytes) {
        for (final Transport t : engine.transports()) {
            if (t instanceof ShmTransport shm) {
                return shm.allocShared(bytes);
            }
        }
        if (bytes < 0) {
            throw Errors.argument(ErrorClass.ARG, "allocShared", null, "bytes", bytes, ">= 0");
        }
        return Arena.ofAuto().allocate(bytes, 64);
    }

    @Override
    public void freeShared(final MemorySegment segment) {
        for (final Transport t : engine.transports()) {
            if (t instanceof ShmTransport shm) {
                shm.freeShared(segment);
                return;
            }
        }
    }

    @Override
    public Communicator world() {
        return world;
    }

    /**
     * Binds the calling thread (and threads it starts) to this rank of an embedded job.
     */
    void bindToThread() {
        EMBEDDED_RANK.set(this);
        dev.tutti.runtime.Log.rank(engine.worldRank());
    }

    @Override
    public void close() {
        if (closed || null != embeddedAbort) {
            return;
        }
        closed = true;
        final TuttiException found = engine.closing();
        try {
            engine.close();
        } finally {
            if (null != launch) {
                launch.close();
            }
            if (null != recording) {
                recording.close();
            }
        }
        world.contexts().reapAtClose(); // every peer said goodbye: its FINs are in
        LOG.log(System.Logger.Level.DEBUG, () -> "left the job: every peer said goodbye");
        final TuttiException leftover = CollLeftovers.check(engine);
        if (null != leftover) {
            if (null != found) {
                leftover.addSuppressed(found);
            }
            throw leftover;
        }
        if (null != found) {
            throw found;
        }
    }

    @Override
    public void abort(final Throwable cause) {
        if (null != embeddedAbort) {
            embeddedAbort.accept(cause);
            return;
        }
        if (closed) {
            return;
        }
        closed = true;
        engine.abortRank(Failures.aborted(engine.worldRank(), cause));
    }


    /**
     * @param routes the transport to each world rank
     * @param self   this rank
     * @return which ranks each transport reaches, e.g. {@code shm: 1, 2; tcp: 3}
     */
    static String routesOf(final Transport[] routes, final int self) {
        final Map<String, java.util.List<Integer>> by = new java.util.TreeMap<>();
        for (int r = 0; r < routes.length; r++) {
            if (r != self) {
                final String name = routes[r].getClass().getSimpleName().replace("Transport", "")
                    .toLowerCase(java.util.Locale.ROOT);
                by.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(r);
            }
        }
        if (by.isEmpty()) {
            return "none";
        }
        final StringBuilder sb = new StringBuilder();
        by.forEach((name, ranks) -> sb.append(sb.isEmpty() ? "" : "; ").append(name).append(": ")
            .append(ranks.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))));
        return sb.toString();
    }

    /**
     * @param layout a layout as {@link Options#hosts(String)} takes it
     * @param size   the job size
     * @return the host of each world rank, or null if the layout is empty
     * @throws TuttiException of class {@link ErrorClass#ARG} if the layout is malformed
     */
    static int[] layoutOf(final String layout, final int size) {
        try {
            return HostMap.layout(layout, size);
        } catch (final IllegalArgumentException e) {
            throw Errors.argument("Options.hosts", null, e);
        }
    }

    /**
     * @param options the job's options
     * @return the selection table: configuration overrides, then the options' forced algorithms
     */
    static SelectionTable selection(final Options options) {
        SelectionTable t = SelectionTable.fromConfiguration();
        for (final Map.Entry<String, String> e : options.algorithms().entrySet()) {
            final CollKind kind = CollKind.fromMpiName(e.getKey());
            if (SelectionTable.FLAT.equalsIgnoreCase(e.getValue())) {
                t = t.withFlat(kind);
            } else if (!"auto".equalsIgnoreCase(e.getValue())) {
                t = t.withOverride(AlgorithmId.parse(kind, e.getValue()));
            }
        }
        return t;
    }

    /** @return the checker's threshold: the setting {@code tutti.check.timeoutMs}, read now */
    static long checkTimeoutMs() {
        return Settings.CHECK_TIMEOUT_MS.intValue();
    }
}
