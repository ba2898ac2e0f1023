package mpjsuite;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Matching and completion: Sendrecv, Sendrecv_replace round a ring, Probe and Iprobe with wildcards, message order,
 * Waitany, Testany, Waitsome, Testsome, Testall with their indexes, the null request, Cancel and Test_cancelled,
 * synchronous sends, buffered sends sized by Pack_size.
 */
public class Pt2ptMatching {
    public static void main(final String[] args) throws Exception {
        new Pt2ptMatching(args);
    }

    public Pt2ptMatching(final String[] args) throws Exception {
        MPI.Init(args);
        final Intracomm w = MPI.COMM_WORLD;
        final int me = w.Rank();
        final int n = w.Size();
        ring(w, me, n);
        final int peer = me ^ 1;
        if (peer < n) {
            probes(w, me < peer, peer);
            completions(w, me < peer, peer);
            cancel(w);
            cancelSent(w, me < peer, peer);
            synchronous(w, me < peer, peer);
            buffered(w, me < peer, peer);
        }
        final Status none = MPI.REQUEST_NULL.Wait();
        Check.that(MPI.REQUEST_NULL.Is_null(), "MPI.REQUEST_NULL.Is_null()");
        Check.equal(MPI.ANY_SOURCE, none.source, "Wait on MPI.REQUEST_NULL: source");
        Check.equal(MPI.ANY_TAG, none.tag, "Wait on MPI.REQUEST_NULL: tag");
        Check.complete("Pt2ptMatching");
        MPI.Finalize();
    }

    private static void ring(final Intracomm w, final int me, final int n) {
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final long[] out = {-1, me, me * 10L, -1};
        final long[] in = new long[5];
        final Status s = w.Sendrecv(out, 1, 2, MPI.LONG, right, 3, in, 2, 3, MPI.LONG, left, 3);
        Check.equal(left, s.source, "Sendrecv source");
        Check.equal(2, s.Get_count(MPI.LONG), "Sendrecv count");
        Check.equal(new long[] {0, 0, left, left * 10L, 0}, in, "Sendrecv data");
        final double[] buf = {-1, me, me + 0.5, -1};
        final Status r = w.Sendrecv_replace(buf, 1, 2, MPI.DOUBLE, right, 4, MPI.ANY_SOURCE, MPI.ANY_TAG);
        Check.equal(left, r.source, "Sendrecv_replace source");
        Check.equal(4, r.tag, "Sendrecv_replace tag");
        Check.equal(new double[] {-1, left, left + 0.5, -1}, buf, "Sendrecv_replace data");
        final String[] objs = {"x", "from " + me, null};
        w.Sendrecv_replace(objs, 1, 2, MPI.OBJECT, right, 5, left, 5);
        Check.equal(new Object[] {"x", "from " + left, null}, objs, "Sendrecv_replace of objects");
    }

    private static void probes(final Intracomm w, final boolean low, final int peer) {
        if (low) {
            for (int i = 0; i < 10; i++) {
                w.Send(new int[] {i, i, i, i, i}, 0, 1 + i % 5, MPI.INT, peer, i);
            }
            w.Send(new char[] {'p', 'q'}, 0, 2, MPI.CHAR, peer, 50);
        } else {
            Check.that(null == w.Iprobe(peer, 77), "Iprobe of a tag never sent answers null");
            for (int i = 0; i < 10; i++) {
                final Status p = w.Probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                Check.equal(peer, p.source, "Probe source");
                Check.equal(i, p.tag, "Probe tag (messages of one sender arrive in order)");
                Check.equal(1 + i % 5, p.Get_count(MPI.INT), "Probe count");
                final int[] in = new int[5];
                final Status r = w.Recv(in, 0, 5, MPI.INT, p.source, p.tag);
                Check.equal(1 + i % 5, r.Get_count(MPI.INT), "Recv count");
                Check.equal(i, in[0], "Recv data");
            }
            Status q;
            do {
                q = w.Iprobe(MPI.ANY_SOURCE, 50);
            } while (null == q);
            Check.equal(2, q.Get_count(MPI.CHAR), "Iprobe count");
            final char[] c = new char[2];
            w.Recv(c, 0, 2, MPI.CHAR, peer, 50);
            Check.equal(new char[] {'p', 'q'}, c, "Recv after Iprobe");
        }
    }

    private static void completions(final Intracomm w, final boolean low, final int peer) {
        if (low) {
            for (final int tag : new int[] {2, 0, 3, 1}) {
                w.Send(new int[] {tag}, 0, 1, MPI.INT, peer, tag);
            }
            for (int round = 0; round < 3; round++) {
                for (int tag = 0; tag < 4; tag++) {
                    w.Send(new int[] {tag}, 0, 1, MPI.INT, peer, 10 + tag);
                }
            }
            return;
        }
        final int[][] in = new int[4][1];
        final Request[] r = new Request[5];
        for (int i = 0; i < 4; i++) {
            r[i] = w.Irecv(in[i], 0, 1, MPI.INT, peer, i);
        }
        r[4] = MPI.REQUEST_NULL;
        final boolean[] seen = new boolean[4];
        for (int k = 0; k < 4; k++) {
            final Status s = Request.Waitany(r);
            Check.that(s.index >= 0 && s.index < 4 && !seen[s.index], "Waitany index " + s.index);
            seen[s.index] = true;
            Check.equal(s.index, s.tag, "Waitany: the status of the request at index");
            Check.equal(s.index, in[s.index][0], "Waitany data");
            Check.that(r[s.index].Is_null(), "the completed request is null");
        }
        // Testany, Testsome, Waitsome, Testall: one round each over tags 10..13
        final Request[] t = post(w, peer, in);
        int got = 0;
        while (got < 4) {
            final Status s = Request.Testany(t);
            if (null != s) {
                Check.equal(10 + s.index, s.tag, "Testany index and tag");
                got++;
            }
        }
        Check.that(null == Request.Testany(t), "Testany over null requests answers null");
        final Request[] u = post(w, peer, in);
        got = 0;
        while (got < 4) {
            for (final Status s : Request.Testsome(u)) {
                Check.equal(10 + s.index, s.tag, "Testsome index and tag");
                got++;
            }
        }
        final Request[] v = post(w, peer, in);
        got = 0;
        while (got < 4) {
            final Status[] some = Request.Waitsome(v);
            Check.that(some.length > 0, "Waitsome completes at least one");
            for (final Status s : some) {
                Check.equal(10 + s.index, s.tag, "Waitsome index and tag");
                got++;
            }
        }
        Check.equal(4, got, "Waitsome completions");
        Check.that(null == Request.Testany(v), "all done");
        final Status[] all = Request.Testall(v);
        Check.that(null != all && 4 == all.length, "Testall over null requests is complete");
        final Request[] x = new Request[2];
        final int[] late = new int[1];
        x[0] = w.Irecv(late, 0, 1, MPI.INT, w.Rank(), 31);
        x[1] = null;
        Check.that(null == Request.Testall(x), "Testall answers null while a request is pending");
        Check.that(!x[0].Is_null(), "Testall leaves pending requests alone");
        w.Send(new int[] {31}, 0, 1, MPI.INT, w.Rank(), 31);
        Status[] done;
        do {
            done = Request.Testall(x);
        } while (null == done);
        Check.that(null == done[1], "Waitall/Testall: null for a null element");
        Check.equal(31, done[0].tag, "Testall status");
    }

    private static Request[] post(final Intracomm w, final int peer, final int[][] in) {
        final Request[] r = new Request[4];
        for (int i = 0; i < 4; i++) {
            r[i] = w.Irecv(in[i], 0, 1, MPI.INT, peer, 10 + i);
        }
        return r;
    }

    private static void cancel(final Intracomm w) {
        final Request r = w.Irecv(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, 12345);
        r.Cancel();
        final Status s = r.Wait();
        Check.that(s.Test_cancelled(), "a cancelled receive reports Test_cancelled");
        final Status plain = w.Sendrecv(new int[] {1}, 0, 1, MPI.INT, w.Rank(), 7, new int[1], 0, 1, MPI.INT,
            w.Rank(), 7);
        Check.that(!plain.Test_cancelled(), "a received message is not cancelled");
    }

    /** Cancelling a send under way, or a receive that completed, changes nothing: both complete normally. */
    private static void cancelSent(final Intracomm w, final boolean low, final int peer) {
        if (low) {
            final Request r = w.Isend(new int[] {7}, 0, 1, MPI.INT, peer, 80);
            r.Cancel();
            Check.that(!r.Wait().Test_cancelled(), "a send under way is not cancelled");
        } else {
            final int[] in = new int[1];
            final Request r = w.Irecv(in, 0, 1, MPI.INT, peer, 80);
            Status s;
            do {
                s = r.Test();
            } while (null == s);
            r.Cancel(); // completed already: nothing to cancel
            Check.that(!s.Test_cancelled(), "a receive that matched is not cancelled");
            Check.that(r.Is_null() && !r.Wait().Test_cancelled(), "a completed request stays complete");
            Check.equal(7, in[0], "the data of a send that was cancelled under way");
        }
    }

    /** An Issend is not complete before its receive is posted, which waits for a message sent after the test. */
    private static void synchronous(final Intracomm w, final boolean low, final int peer) {
        if (low) {
            final Request s = w.Issend(new int[] {42}, 0, 1, MPI.INT, peer, 60);
            Check.that(null == s.Test(), "Issend completed before its receive was posted");
            w.Send(new int[0], 0, 0, MPI.INT, peer, 61);
            s.Wait();
        } else {
            w.Recv(new int[0], 0, 0, MPI.INT, peer, 61);
            final int[] in = new int[1];
            w.Recv(in, 0, 1, MPI.INT, peer, 60);
            Check.equal(42, in[0], "Ssend data");
        }
    }

    private static void buffered(final Intracomm w, final boolean low, final int peer) {
        MPI.Buffer_detach(); // nothing attached yet: a no-op
        if (low) {
            final int n = 50_000;
            final int[] data = new int[n];
            Arrays.setAll(data, i -> i);
            MPI.Buffer_attach(ByteBuffer.allocateDirect(w.Pack_size(n, MPI.INT) + MPI.BSEND_OVERHEAD));
            final Request r = w.Ibsend(data, 0, n, MPI.INT, peer, 70);
            Arrays.fill(data, -1); // the message was copied out
            r.Wait();
            MPI.Buffer_detach();
        } else {
            final int[] in = new int[50_000];
            w.Recv(in, 0, in.length, MPI.INT, peer, 70);
            for (int i = 0; i < in.length; i++) {
                if (in[i] != i) {
                    Check.equal(i, in[i], "Ibsend data at " + i);
                }
            }
        }
    }
}
