package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * MPI's ports (MPI_Open_port, MPI_Comm_accept, MPI_Comm_connect) between groups of one running job. A port name is
 * {@code tutti-port:<job key>:<world rank>:<number>}: the job (a random number rank 0 draws at Init), the world
 * rank of the opener and a number unique in that process.
 *
 * <p>Implementation note: the connecting group's root sends its world rank to the port's owner over a private
 * duplicate of the world ({@link Env#ports()}, tag {@code 2 * number}); the accepting root takes it, and both
 * groups then build the intercommunicator with Tutti's {@code createIntercomm}, the world as peer communicator
 * and tag {@code 2 * number + 1}, which is the tag of the leaders' handshake. Each root first tells its group
 * whether the port name is valid, so that a bad name fails every member instead of leaving them waiting. A port
 * of another job cannot be reached (Tutti's jobs do not share a rendezvous): it fails with {@code ERR_PORT}.
 */
final class Ports {
    private static final String PREFIX = "tutti-port:";
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static final Set<String> OPEN = new HashSet<>();

    /** A parsed port name. */
    private record Port(long job, int worldRank, int number) {
    }

    private Ports() {
    }

    /** @return a new port name of the calling process */
    static String open(final Env e) {
        final String name = PREFIX + Long.toHexString(e.jobKey()) + ":" + e.world().rank() + ":"
            + NEXT.getAndIncrement();
        synchronized (OPEN) {
            OPEN.add(name);
        }
        return name;
    }

    /** Closes a port of the calling process. */
    static void close(final String name) {
        synchronized (OPEN) {
            if (!OPEN.remove(name)) {
                throw MpiErrors.error(MPI.ERR_PORT, "closePort: port '" + name + "' is not open here");
            }
        }
    }

    /** The body of {@link Intracomm#accept}. */
    static Intercomm accept(final Intracomm comm, final String port, final int root) {
        return join(comm, port, root, true);
    }

    /** The body of {@link Intracomm#connect}. */
    static Intercomm connect(final Intracomm comm, final String port, final int root) {
        return join(comm, port, root, false);
    }

    /**
     * Builds the intercommunicator of an accept or a connect. The root checks the port and does the handshake,
     * then tells its group the outcome and the tag; every member fails if the root found the port bad.
     */
    private static Intercomm join(final Intracomm comm, final String port, final int root, final boolean accept) {
        final String what = accept ? "accept" : "connect";
        final Env e = Env.current();
        final Communicator local = (Communicator) comm.tc();
        final int[] agreed = new int[2]; // {error class, tag}
        int remoteLeader = 0;
        MpiErrors.MpiError failure = null;
        if (local.rank() == root) {
            try {
                final Port p = parse(what, port, e);
                if (accept) {
                    checkOwn(p, port, e);
                    final int[] who = new int[1];
                    e.ports().recv(Buf.of(who), Communicator.ANY_SOURCE, 2 * p.number());
                    remoteLeader = who[0];
                } else {
                    e.ports().send(Buf.of(new int[] {e.world().rank()}), p.worldRank(), 2 * p.number());
                    remoteLeader = p.worldRank();
                }
                agreed[1] = 2 * p.number() + 1;
            } catch (final MpiErrors.MpiError x) {
                failure = x;
                agreed[0] = x.errorClass();
            }
        }
        local.bcast(Buf.of(agreed), root);
        if (null != failure) {
            throw failure;
        }
        if (MPI.SUCCESS != agreed[0]) {
            throw MpiErrors.error(agreed[0], what + ": the root found port '" + port + "' bad");
        }
        return new Intercomm(local.createIntercomm(root, e.world(), remoteLeader, agreed[1]),
            comm.state().derive(what + "(" + port + ")"));
    }

    private static void checkOwn(final Port p, final String port, final Env e) {
        final boolean open;
        synchronized (OPEN) {
            open = OPEN.contains(port);
        }
        if (p.worldRank() != e.world().rank() || !open) {
            throw MpiErrors.error(MPI.ERR_PORT, "accept: port '" + port + "' is not an open port of this process");
        }
    }

    /** Parses a port name; a name of another job, or no port name at all, fails with ERR_PORT at once. */
    private static Port parse(final String what, final String port, final Env e) {
        final String[] f = null == port || !port.startsWith(PREFIX) ? new String[0]
            : port.substring(PREFIX.length()).split(":");
        final Port p;
        try {
            p = 3 == f.length ? new Port(Long.parseUnsignedLong(f[0], 16), Integer.parseInt(f[1]),
                Integer.parseInt(f[2])) : null;
        } catch (final NumberFormatException x) {
            throw MpiErrors.error(MPI.ERR_PORT, what + ": port='" + port + "' is not a port name: " + x.getMessage());
        }
        if (null == p || p.worldRank() < 0 || p.worldRank() >= e.world().size() || p.number() < 0) {
            throw MpiErrors.error(MPI.ERR_PORT, what + ": port='" + port + "', expected a name from openPort");
        }
        if (p.job() != e.jobKey()) {
            throw MpiErrors.error(MPI.ERR_PORT, what + ": port '" + port + "' belongs to another job; Tutti connects "
                + "groups of one job only");
        }
        return p;
    }
}
