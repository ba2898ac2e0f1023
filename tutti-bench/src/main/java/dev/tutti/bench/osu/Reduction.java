package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;

import java.util.Arrays;

/**
 * The reducing collectives, as OSU's {@code osu_reduce}, {@code osu_allreduce}, {@code osu_reduce_scatter},
 * {@code osu_reduce_scatter_block}, {@code osu_scan} and {@code osu_exscan}, and MPI-4's persistent allreduce
 * ({@code allreduce_init}: built once per size, then started and waited for per iteration): vectors of floats summed with
 * {@link Op#SUM} (as {@code bench/openmpi/coll.c} does). {@code bytes} is the size of each rank's input vector,
 * {@code count = bytes / 4} floats; sizes below one float are skipped. reduce goes to root 0. reduce_scatter gives
 * rank {@code r} {@code count / p} elements plus one for the first {@code count % p} ranks (OSU's split);
 * reduce_scatter_block gives every rank {@code count / p} elements (the vector is rounded down to a multiple of
 * the group size; sizes below one float per rank are skipped).
 *
 * <p>Data: element {@code i} of rank {@code r}'s input is {@code i % 97 + r + 1}, small integers, so every sum is
 * exact in float whatever the order of the additions. After timing each rank checks its result element by
 * element: the total, its inclusive prefix (scan) or its exclusive prefix (exscan; rank 0's result is undefined
 * in MPI and not checked). Result buffers start at -1, which no correct result equals.
 */
public class Reduction extends CollectiveBenchmark {
    /** The six operations. */
    enum Kind {
        /** MPI_Reduce. */
        REDUCE("reduce"),
        /** MPI_Allreduce. */
        ALLREDUCE("allreduce"),
        /** MPI_Reduce_scatter. */
        REDUCE_SCATTER("reduce_scatter"),
        /** MPI_Reduce_scatter_block. */
        REDUCE_SCATTER_BLOCK("reduce_scatter_block"),
        /** MPI_Scan. */
        SCAN("scan"),
        /** MPI_Exscan. */
        EXSCAN("exscan"),
        /** MPI-4's MPI_Allreduce_init, started and waited for per iteration (the request is built per size). */
        ALLREDUCE_INIT("allreduce_init");

        private final String op;

        Kind(final String op) {
            this.op = op;
        }

        /** @return the operation name */
        String op() {
            return op;
        }
    }

    private static final float POISON = -1.0f;
    private static final int PERIOD = 97;

    private final Kind kind;
    float[] in;
    float[] out;
    private Buf inBuf;
    private Buf outBuf;
    private int[] recvCounts;
    /** The persistent request of allreduce_init, built for the current size. */
    private PersistentRequest persistent;
    /** First global element of this rank's part of the result (reduce_scatter family), else 0. */
    private int firstElement;

    /**
     * Creates the benchmark of one of the operations.
     *
     * @param kind the operation
     */
    Reduction(final Kind kind) {
        this.kind = kind;
    }

    @Override
    public String op() {
        return kind.op;
    }

    @Override
    public String algorithmOp() {
        return Kind.ALLREDUCE_INIT == kind ? Kind.ALLREDUCE.op : kind.op;
    }

    @Override
    public String title() {
        return "collective latency, float sum" + (Kind.REDUCE == kind ? ", root 0" : "") + ", bytes per vector";
    }

    @Override
    public int[] sizes(final int[] requested, final int ranks) {
        final int minBytes = Float.BYTES * (Kind.REDUCE_SCATTER_BLOCK == kind ? ranks : 1);
        return Arrays.stream(requested).filter(b -> b >= minBytes).toArray();
    }

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        final int count = maxBytes / Float.BYTES;
        in = new float[count];
        out = new float[count];
        recvCounts = new int[world.size()];
    }

    @Override
    public void prepare(final Communicator world, final int bytes) {
        final int p = world.size();
        final int rank = world.rank();
        final int count = bytes / Float.BYTES;
        int inCount = count;
        int outCount = count;
        firstElement = 0;
        if (Kind.REDUCE_SCATTER == kind) {
            for (int r = 0; r < p; r++) {
                recvCounts[r] = count / p + (r < count % p ? 1 : 0);
                if (r < rank) {
                    firstElement += recvCounts[r];
                }
            }
            outCount = recvCounts[rank];
        } else if (Kind.REDUCE_SCATTER_BLOCK == kind) {
            outCount = count / p;
            inCount = outCount * p;
            firstElement = rank * outCount;
        }
        for (int i = 0; i < inCount; i++) {
            in[i] = input(rank, i);
        }
        Arrays.fill(out, 0, outCount, POISON);
        inBuf = Buf.of(in, 0, inCount);
        outBuf = Kind.REDUCE == kind && ROOT != rank ? null : Buf.of(out, 0, outCount);
        if (Kind.ALLREDUCE_INIT == kind) {
            if (null != persistent) {
                persistent.free();
            }
            persistent = world.allreduceInit(inBuf, outBuf, Op.SUM);
        }
    }

    private static float input(final int rank, final int i) {
        return i % PERIOD + rank + 1;
    }

    @Override
    protected void invoke(final Communicator world, final int bytes) {
        switch (kind) {
            case REDUCE -> world.reduce(inBuf, outBuf, Op.SUM, ROOT);
            case ALLREDUCE -> world.allreduce(inBuf, outBuf, Op.SUM);
            case ALLREDUCE_INIT -> {
                persistent.start();
                persistent.waitFor();
            }
            case REDUCE_SCATTER -> world.reduceScatter(inBuf, outBuf, recvCounts, Op.SUM);
            case REDUCE_SCATTER_BLOCK -> world.reduceScatterBlock(inBuf, outBuf, Op.SUM);
            case SCAN -> world.scan(inBuf, outBuf, Op.SUM);
            case EXSCAN -> world.exscan(inBuf, outBuf, Op.SUM);
            default -> throw new IllegalStateException("unreachable: " + kind);
        }
    }

    @Override
    public void verify(final Communicator world, final int bytes) {
        final int rank = world.rank();
        if (null == outBuf || (Kind.EXSCAN == kind && 0 == rank)) {
            return;
        }
        // The result sums the inputs of ranks [0, contributors): all of them, or a prefix for scan/exscan.
        final int contributors = switch (kind) {
            case SCAN -> rank + 1;
            case EXSCAN -> rank;
            default -> world.size();
        };
        final int n = outBuf.count();
        for (int j = 0; j < n; j++) {
            final int i = firstElement + j;
            final float expected = (float) contributors * (i % PERIOD + 1)
                + (float) contributors * (contributors - 1) / 2;
            if (out[j] != expected) {
                throw new BenchmarkException(kind.op + " verify failed (rank=" + rank + ", bytes=" + bytes
                    + "): element " + j + " (element " + i + " of the vector) is " + out[j] + ", expected "
                    + expected + " (the sum over ranks 0.." + (contributors - 1) + ")");
            }
        }
    }
}
