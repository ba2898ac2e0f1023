package mpjsuite;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Point-to-point calls from several threads of a rank at once, as MPJ Express's thread tests make them: each of a
 * few threads exchanges its own tag's messages with the partner rank, blocking and nonblocking.
 */
public class Threads {
    private static final int THREADS = 3;
    private static final int ROUNDS = 50;

    public static void main(final String[] args) throws Exception {
        new Threads(args);
    }

    public Threads(final String[] args) throws Exception {
        MPI.Init(args);
        final Intracomm w = MPI.COMM_WORLD;
        Check.equal(MPI.THREAD_MULTIPLE, MPI.queryThread(), "queryThread");
        final int me = w.Rank();
        final int peer = me ^ 1;
        if (peer < w.Size()) {
            final AtomicReference<Throwable> failed = new AtomicReference<>();
            final List<Thread> threads = new ArrayList<>();
            for (int k = 0; k < THREADS; k++) {
                final int tag = 300 + k;
                threads.add(Thread.ofPlatform().name("mpjsuite-rank" + me + "-" + k).start(() -> {
                    try {
                        exchange(w, me, peer, tag);
                    } catch (final Throwable t) {
                        failed.compareAndSet(null, t);
                    }
                }));
            }
            for (final Thread t : threads) {
                t.join();
            }
            if (null != failed.get()) {
                throw new IllegalStateException("rank " + me + ": a thread failed", failed.get());
            }
        }
        Check.complete("Threads");
        MPI.Finalize();
    }

    private static void exchange(final Intracomm w, final int me, final int peer, final int tag) {
        for (int i = 0; i < ROUNDS; i++) {
            final long[] out = {me, tag, i};
            final long[] in = new long[3];
            if (0 == i % 2) {
                final Status s = w.Sendrecv(out, 0, 3, MPI.LONG, peer, tag, in, 0, 3, MPI.LONG, peer, tag);
                Check.equal(tag, s.tag, "Sendrecv tag from a thread");
            } else {
                final Request r = w.Irecv(in, 0, 3, MPI.LONG, peer, tag);
                w.Send(out, 0, 3, MPI.LONG, peer, tag);
                r.Wait();
            }
            Check.equal(new long[] {peer, tag, i}, in, "data of thread tag " + tag + " round " + i);
        }
    }
}
