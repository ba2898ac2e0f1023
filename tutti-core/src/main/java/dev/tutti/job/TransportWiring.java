package dev.tutti.job;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RankLayout;
import dev.tutti.runtime.Configuration;
import dev.tutti.runtime.CpuBinding;
import dev.tutti.runtime.IdleStrategy;
import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.RendezvousClient;
import dev.tutti.internal.Settings;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Transport;
import dev.tutti.transport.inproc.InprocFabric;
import dev.tutti.transport.inproc.InprocTransport;
import dev.tutti.transport.shm.ShmConfig;
import dev.tutti.transport.shm.ShmTransport;
import dev.tutti.transport.tcp.TcpTransport;

import java.util.Arrays;

/**
 * How a rank's engine reaches its peers: the transports of a launched rank ({@link #wire}: shared memory on its
 * host, tcp to the others, as {@code tutti.transport} says), of a job of one rank ({@link #selfTransport}), and of
 * an embedded job's ranks ({@link #embedded}); and the idle strategy a launched rank settles on once it knows its
 * host ({@link HostIdle}).
 */
public final class TransportWiring {
    private TransportWiring() {
    }

    /*
     * Transport selection (setting tutti.transport): "tcp" wires every peer over tcp. "auto" maps the job's shm file
     * and registers in it first, then wires tcp, whose rendezvous is the job's fence: after it every rank of this
     * host has registered, so the ranks found in the file are exactly this host's, and both ends of a pair agree to
     * use shm; the others go over tcp (a hybrid job). A rank that cannot map the file stays out of it and uses tcp
     * with everyone. "shm" needs every rank on this host and no tcp at all: the rendezvous is only the fence.
     * When this machine has more ranks than cores (this host's, and those of other hosts that tcp's rendezvous shows
     * on the same kernel: network namespaces, containers), waits do not spin (see HostIdle). A rank with shm peers
     * binds its init thread to one CPU (CpuBinding, setting tutti.bind), as Open MPI binds ranks to cores; with more
     * ranks than CPUs, round-robin. The engine is connected here: its routes, and the tcp transport it keeps when
     * shm serves every peer (see P2pEngine.connect).
     */
    public static Transport[] wire(final LaunchInfo info, final P2pEngine engine, final HostIdle idle) {
        final int rank = info.rank();
        final int size = info.size();
        final String mode;
        final boolean bind;
        try {
            mode = Settings.TRANSPORT.choice();
            bind = Configuration.bindToCore();
        } catch (final IllegalArgumentException e) {
            throw Errors.argument("init", null, e);
        }
        final Transport[] routes = new Transport[size];
        routes[rank] = selfTransport(engine, rank, size);
        ShmTransport shm = null;
        if (!"tcp".equals(mode) && size > 1) {
            try {
                shm = ShmTransport.join(Configuration.shmFile(info.jobId(), info.secret()), info.jobId(), rank, size,
                    engine, ShmConfig.fromConfiguration());
            } catch (final TuttiException e) {
                if ("shm".equals(mode)) {
                    throw e;
                }
                dev.tutti.runtime.Log.of(TransportWiring.class).log(System.Logger.Level.WARNING,
                    "init (rank={0}): shared memory unavailable, using tcp with every peer: {1}", rank, e.getMessage());
            }
        }
        boolean ok = false;
        TcpTransport tcp = null;
        try {
            final boolean[] local;
            if ("shm".equals(mode) && size > 1) {
                RendezvousClient.exchange(info, "shm"); // the fence
                local = shm.ranksOnHost();
                final java.util.List<Integer> away = new java.util.ArrayList<>();
                for (int r = 0; r < size; r++) {
                    if (!local[r]) {
                        away.add(r);
                    }
                }
                if (!away.isEmpty()) {
                    throw Errors.expected(ErrorClass.ARG, "init", "rank=" + rank, Settings.TRANSPORT.name()
                        + "=shm but ranks " + away + " are not on this host", "auto or tcp");
                }
            } else {
                tcp = size > 1 ? TcpTransport.connect(info, engine, Settings.EAGER_LIMIT.intValue()) : null;
                for (int r = 0; r < size; r++) {
                    if (r != rank) {
                        routes[r] = tcp;
                    }
                }
                local = null != shm ? shm.ranksOnHost() : new boolean[size];
            }
            int onHost = 1;
            if (null != shm) {
                final boolean[] served = local.clone();
                served[rank] = false;
                for (int r = 0; r < size; r++) {
                    if (served[r]) {
                        routes[r] = shm;
                        onHost++;
                    }
                }
                shm.start(served);
                if (null != tcp) {
                    tcp.routedElsewhere(served);
                }
                if (1 == onHost) {
                    shm.close();
                }
            }
            // Ranks of other hosts on this machine (network namespaces, containers) share its CPUs too.
            final boolean oversubscribed = Configuration.oversubscribed(
                Math.max(onHost, null != tcp ? tcp.ranksOnMachine() : 1));
            idle.choose(oversubscribed, onHost > 1);
            if (onHost > 1 && bind) {
                // With more ranks than CPUs too: the i-th rank of the host goes to CPU i mod CPUs, so that every
                // CPU has the same number of ranks. Left alone, this VM's scheduler kept three of four yielding
                // ranks on one CPU and the fourth alone on the other for 10-35 ms at a time.
                int index = 0;
                for (int r = 0; r < rank; r++) {
                    index += local[r] ? 1 : 0;
                }
                CpuBinding.bind(index);
            }
            engine.connect(routes, tcp);
            ok = true;
            return routes;
        } finally {
            if (!ok && null != shm) {
                shm.abort();
            }
            if (!ok && null != tcp) {
                tcp.abort();
            }
        }
    }

    /**
     * The idle strategy of a launched rank, chosen once the ranks on this host and machine are known: with shm
     * peers the shm one (bounded parks, since no process can unpark another; no spins when this machine has more
     * ranks than cores), else the configured one, or the oversubscribed one when this machine has more ranks than
     * cores (a spinning rank would take the core from the rank it waits for). Until then (during wiring) the
     * configured one.
     */
    public static final class HostIdle implements IdleStrategy {
        private volatile IdleStrategy delegate = Configuration.idleStrategy();

        void choose(final boolean oversubscribed, final boolean shm) {
            if (shm) {
                delegate = Configuration.shmIdleStrategy(oversubscribed);
            } else if (oversubscribed) {
                delegate = Configuration.oversubscribedIdleStrategy();
            }
        }

        @Override
        public void idle(final int iteration) {
            delegate.idle(iteration);
        }

        @Override
        public boolean mayPark(final int iteration) {
            return delegate.mayPark(iteration);
        }

        @Override
        public boolean spinsOnly(final int iteration) {
            return delegate.spinsOnly(iteration);
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }

    public static P2pEngine newEngine(final int rank, final int size) {
        return new P2pEngine(rank, size, Configuration.idleStrategy());
    }

    public static Transport selfTransport(final P2pEngine engine, final int rank, final int size) {
        final InboundSink[] sinks = new InboundSink[size];
        sinks[rank] = engine;
        return new InprocTransport(new InprocFabric(sinks), Settings.INPROC_EAGER_LIMIT.intValue());
    }

    /**
     * The engines of an embedded job of {@code n} ranks, each connected to every rank through one in-process fabric.
     *
     * @param n     the number of ranks
     * @param hosts the host of each rank (a fake layout, or all on one host)
     * @return the engines, by rank
     */
    public static P2pEngine[] embedded(final int n, final int[] hosts) {
        final P2pEngine[] engines = new P2pEngine[n];
        final IdleStrategy idle = Configuration.oversubscribed(n)
            ? Configuration.oversubscribedIdleStrategy() : Configuration.idleStrategy();
        for (int i = 0; i < n; i++) {
            engines[i] = new P2pEngine(i, n, idle);
        }
        for (final P2pEngine e : engines) {
            e.layout(new RankLayout(hosts, null));
        }
        final InprocFabric fabric = new InprocFabric(engines);
        for (final P2pEngine e : engines) {
            final Transport[] routes = new Transport[n];
            Arrays.fill(routes, new InprocTransport(fabric, Settings.INPROC_EAGER_LIMIT.intValue()));
            e.connect(routes);
        }
        return engines;
    }
}
