package mpi.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.nio.LongBuffer;

/**
 * The classic master/worker (task farm) in the Open MPI Java style. Rank 0 hands out tasks (task k: the sum of
 * i*i for i below k) one at a time to whichever worker reports back: it keeps one receive posted per worker
 * ({@code iRecv} with {@code ANY_TAG}) and serves completions as {@code Request.waitSomeStatus} returns them
 * (the worker from {@code Status.getSource}, result or not from {@code getTag}). Workers receive from rank 0
 * with {@code ANY_TAG} and stop at the stop tag. At the end each worker reports how many tasks it did; the master
 * polls {@code iProbe(ANY_SOURCE, ...)} and receives from the probed source, then {@code ANY_SOURCE} receives
 * the workers' goodbye. Rank 0 checks every result and the counts, and prints "master/worker OK"; a mismatch
 * aborts with 3. Needs at least 2 ranks; argument 0 is the number of tasks (default 40).
 */
public final class MasterWorker {
    private static final int WORK = 1;
    private static final int RESULT = 2;
    private static final int STOP = 3;
    private static final int COUNT = 4;
    private static final int BYE = 5;

    private MasterWorker() {
    }

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        if (0 == MPI.COMM_WORLD.getRank()) {
            master(tasks);
        } else {
            worker();
        }
        MPI.Finalize();
    }

    private static void master(final int tasks) throws MPIException {
        final int workers = MPI.COMM_WORLD.getSize() - 1;
        final long[] results = new long[tasks];
        final boolean[] seen = new boolean[tasks];
        final LongBuffer[] in = new LongBuffer[workers];
        final Request[] pending = new Request[workers];
        int next = 0;
        for (int w = 0; w < workers; w++) {
            in[w] = MPI.newLongBuffer(2);
            if (next < tasks) {
                pending[w] = MPI.COMM_WORLD.iRecv(in[w], 2, MPI.LONG, w + 1, MPI.ANY_TAG);
            }
            next = hand(next, tasks, w + 1);
        }
        Status[] done;
        while (null != (done = Request.waitSomeStatus(pending))) {
            for (final Status s : done) {
                final int w = s.getIndex();
                check(s.getSource() == w + 1 && s.getTag() == RESULT && 2 == s.getCount(MPI.LONG),
                    "status " + s.getSource() + "/" + s.getTag() + " at index " + w);
                check(pending[w].isNull(), "a completed request is not null");
                final int task = (int) in[w].get(0);
                check(!seen[task], "task " + task + " twice");
                seen[task] = true;
                results[task] = in[w].get(1);
                if (next < tasks) {
                    pending[w] = MPI.COMM_WORLD.iRecv(in[w], 2, MPI.LONG, w + 1, MPI.ANY_TAG);
                }
                next = hand(next, tasks, w + 1);
            }
        }
        for (int k = 0; k < tasks; k++) {
            check(seen[k] && results[k] == sumOfSquares(k), "result of task " + k + ": " + results[k]);
        }
        int counted = 0;
        final boolean[] reported = new boolean[workers + 1];
        for (int i = 0; i < workers; i++) {
            Status p;
            while (null == (p = MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, COUNT))) {
                Thread.onSpinWait();
            }
            final int[] count = new int[1];
            final Status s = MPI.COMM_WORLD.recv(count, 1, MPI.INT, p.getSource(), p.getTag());
            check(s.getSource() == p.getSource() && COUNT == s.getTag() && !reported[s.getSource()],
                "count from " + s.getSource());
            reported[s.getSource()] = true;
            counted += count[0];
        }
        check(counted == tasks, "workers counted " + counted + " tasks");
        final boolean[] left = new boolean[workers + 1];
        for (int i = 0; i < workers; i++) {
            final Status s = MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            check(BYE == s.getTag() && !left[s.getSource()] && s.getSource() > 0, "goodbye from " + s.getSource());
            left[s.getSource()] = true;
        }
        System.out.println("master/worker OK (" + tasks + " tasks, " + workers + " workers)");
    }

    /** Sends task {@code next} to worker w, or the stop tag when none is left. @return the next task */
    private static int hand(final int next, final int tasks, final int w) throws MPIException {
        if (next < tasks) {
            MPI.COMM_WORLD.send(new int[] {next}, 1, MPI.INT, w, WORK);
            return next + 1;
        }
        MPI.COMM_WORLD.send(new int[0], 0, MPI.INT, w, STOP);
        return next;
    }

    private static void worker() throws MPIException {
        final int[] task = new int[1];
        int count = 0;
        while (true) {
            final Status s = MPI.COMM_WORLD.recv(task, 1, MPI.INT, 0, MPI.ANY_TAG);
            if (STOP == s.getTag()) {
                check(0 == s.getCount(MPI.INT), "stop carries " + s.getCount(MPI.INT));
                break;
            }
            check(WORK == s.getTag() && 1 == s.getCount(MPI.INT), "task tag " + s.getTag());
            MPI.COMM_WORLD.send(new long[] {task[0], sumOfSquares(task[0])}, 2, MPI.LONG, 0, RESULT);
            count++;
        }
        MPI.COMM_WORLD.send(new int[] {count}, 1, MPI.INT, 0, COUNT);
        MPI.COMM_WORLD.send(new int[] {MPI.COMM_WORLD.getRank()}, 1, MPI.INT, 0, BYE);
    }

    private static long sumOfSquares(final int k) {
        long s = 0;
        for (long i = 0; i < k; i++) {
            s += i * i;
        }
        return s;
    }

    private static void check(final boolean ok, final String what) throws MPIException {
        if (!ok) {
            System.err.println("mismatch: " + what);
            MPI.COMM_WORLD.abort(3);
        }
    }
}
