package mpjsuite;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

import java.nio.ByteBuffer;

/**
 * Every send mode (blocking, nonblocking, persistent) with every basic type and MPI.OBJECT, from and to offsets,
 * between the pairs of ranks (0,1), (2,3), ...; a rank without a partner only takes part in the barriers.
 */
public class Pt2ptModes {
    private static final String[] MODES = {"Send", "Ssend", "Bsend", "Rsend"};

    public static void main(final String[] args) throws Exception {
        new Pt2ptModes(args);
    }

    public Pt2ptModes(final String[] args) throws Exception {
        MPI.Init(args);
        final Intracomm w = MPI.COMM_WORLD;
        final int me = w.Rank();
        final int peer = me ^ 1;
        MPI.Buffer_attach(ByteBuffer.allocateDirect(1 << 16));
        if (peer < w.Size()) {
            final boolean low = me < peer;
            for (int mode = 0; mode < MODES.length; mode++) {
                for (int t = 0; t < Data.NAMES.length; t++) {
                    final int tag = 10 * mode + t;
                    if (low) {
                        send(w, mode, t, peer, tag);
                        receive(w, "blocking " + MODES[mode], t, peer, tag);
                    } else {
                        receive(w, "blocking " + MODES[mode], t, peer, tag);
                        send(w, mode, t, peer, tag);
                    }
                }
            }
            for (int mode = 0; mode < MODES.length; mode++) {
                nonblocking(w, mode, peer);
                persistent(w, mode, peer);
            }
        }
        MPI.Buffer_detach();
        Check.complete("Pt2ptModes");
        MPI.Finalize();
    }

    /** Sends elements 2..4 of an array of 6, in mode {@code mode}. */
    private static void send(final Intracomm w, final int mode, final int t, final int dest, final int tag) {
        final Object a = Data.array(t, 6, w.Rank());
        final Datatype d = Data.type(t);
        switch (mode) {
            case 0 -> w.Send(a, 2, 3, d, dest, tag);
            case 1 -> w.Ssend(a, 2, 3, d, dest, tag);
            case 2 -> w.Bsend(a, 2, 3, d, dest, tag);
            default -> w.Rsend(a, 2, 3, d, dest, tag);
        }
    }

    /** Receives 3 elements at offset 3 of an array of 8, with room for 4. */
    private static void receive(final Intracomm w, final String what, final int t, final int source, final int tag) {
        final Object into = Data.blank(t, 8);
        final Status s = w.Recv(into, 3, 4, Data.type(t), source, tag);
        check(what, t, into, s, source, tag);
    }

    private static void check(final String what, final int t, final Object into, final Status s, final int source,
        final int tag) {
        Check.equal(source, s.source, what + " status.source");
        Check.equal(tag, s.tag, what + " status.tag");
        Check.equal(3, s.Get_count(Data.type(t)), what + " Get_count");
        Data.untouched(t, into, 0, 3, what);
        Data.expect(t, into, 3, 3, source, 2, what);
        Data.untouched(t, into, 6, 2, what);
    }

    private static Request isend(final Intracomm w, final int mode, final int t, final int dest, final int tag) {
        final Object a = Data.array(t, 6, w.Rank());
        final Datatype d = Data.type(t);
        return switch (mode) {
            case 0 -> w.Isend(a, 2, 3, d, dest, tag);
            case 1 -> w.Issend(a, 2, 3, d, dest, tag);
            case 2 -> w.Ibsend(a, 2, 3, d, dest, tag);
            default -> w.Irsend(a, 2, 3, d, dest, tag);
        };
    }

    /** Every type at once: the receives are posted first, so that a ready send finds its receive. */
    private static void nonblocking(final Intracomm w, final int mode, final int peer) {
        final int n = Data.NAMES.length;
        final Object[] into = new Object[n];
        final Request[] recvs = new Request[n];
        for (int t = 0; t < n; t++) {
            into[t] = Data.blank(t, 8);
            recvs[t] = w.Irecv(into[t], 3, 4, Data.type(t), peer, 100 + t);
        }
        w.Sendrecv(new int[0], 0, 0, MPI.INT, peer, 99, new int[0], 0, 0, MPI.INT, peer, 99); // both posted
        final Request[] sends = new Request[n];
        for (int t = 0; t < n; t++) {
            sends[t] = isend(w, mode, t, peer, 100 + t);
        }
        final Status[] got = Request.Waitall(recvs);
        Request.Waitall(sends);
        for (int t = 0; t < n; t++) {
            check("nonblocking I" + MODES[mode].toLowerCase(), t, into[t], got[t], peer, 100 + t);
            Check.that(recvs[t].Is_null() && sends[t].Is_null(), "requests are null after Waitall");
        }
    }

    /** Persistent requests of every type, started twice (Start, then Startall). */
    private static void persistent(final Intracomm w, final int mode, final int peer) {
        final int n = Data.NAMES.length;
        final Object[] into = new Object[n];
        final Prequest[] all = new Prequest[2 * n];
        for (int t = 0; t < n; t++) {
            into[t] = Data.blank(t, 8);
            all[t] = w.Recv_init(into[t], 3, 4, Data.type(t), peer, 200 + t);
            final Object a = Data.array(t, 6, w.Rank());
            final Datatype d = Data.type(t);
            all[n + t] = switch (mode) {
                case 0 -> w.Send_init(a, 2, 3, d, peer, 200 + t);
                case 1 -> w.Ssend_init(a, 2, 3, d, peer, 200 + t);
                case 2 -> w.Bsend_init(a, 2, 3, d, peer, 200 + t);
                default -> w.Rsend_init(a, 2, 3, d, peer, 200 + t);
            };
        }
        for (int round = 0; round < 2; round++) {
            for (int t = 0; t < n; t++) {
                System.arraycopy(Data.blank(t, 8), 0, into[t], 0, 8); // the arrays Recv_init took, blank again
                all[t].Start();
            }
            w.Sendrecv(new int[0], 0, 0, MPI.INT, peer, 98, new int[0], 0, 0, MPI.INT, peer, 98);
            if (0 == round) {
                for (int t = n; t < 2 * n; t++) {
                    all[t].Start();
                }
            } else {
                final Prequest[] sends = new Prequest[n];
                System.arraycopy(all, n, sends, 0, n);
                Prequest.Startall(sends);
            }
            final Status[] s = Request.Waitall(all);
            for (int t = 0; t < n; t++) {
                check("persistent " + MODES[mode] + " round " + round, t, into[t], s[t], peer, 200 + t);
                Check.that(all[t].Is_null(), "a completed persistent request is inactive");
            }
        }
    }
}
