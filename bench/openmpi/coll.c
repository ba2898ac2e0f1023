/*
 * Collective latency, as OSU's collective benchmarks and Tutti's `tutti bench <op>` (CollectiveBenchmark):
 *   coll OP [-m [MIN:]MAX] [-i ITERS] [-x WARMUP] [--csv FILE] [--impl NAME]
 * with OP one of barrier, bcast, reduce, allreduce, gather, allgather, alltoall, scan, exscan, reduce_scatter,
 * reduce_scatter_block, the vector forms gatherv, allgatherv, alltoallv and scatterv (every count the same, as OSU's
 * osu_gatherv, osu_allgatherv, osu_alltoallv and osu_scatterv), and the persistent allreduce_init and alltoall_init
 * (Open MPI 4.1 has MPI-4's persistent collectives as the extension MPIX_..._init, mpi-ext.h): the request is built
 * once per size, outside the timing, and each timed call is MPI_Start + MPI_Wait.
 *
 * Method: per size a barrier, then each call is timed on its own and followed by an untimed barrier (except for
 * barrier itself, timed call after call); each rank averages its timed calls, and rank 0 gets the maximum over
 * ranks (MPI_Reduce MAX). Defaults: 1000 iterations after 100 warm-up ones up to 8 KiB, 100 after 10 above.
 * After timing each rank checks its result of the last call (the inputs do not change between calls).
 *
 * What "bytes" means, as in OSU: bcast the message (root 0); reduce/allreduce the vector of floats summed with
 * MPI_SUM (count = bytes / 4; sizes below 4 bytes are skipped; reduce to root 0), and so scan, exscan,
 * reduce_scatter (rank r's share count / p, plus one for the first count % p ranks: OSU's split) and
 * reduce_scatter_block (each rank's share count / p, below one float a rank skipped); gather (to root 0) and
 * allgather the block each rank contributes; alltoall the block each rank sends to each other rank; scatterv the
 * block each rank receives from root 0; barrier runs one row, bytes = 0.
 */
#include "common.h"

#include <mpi-ext.h>

typedef enum {
    BARRIER, BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, ALLREDUCE_INIT, ALLTOALL_INIT, ALLGATHERV, ALLTOALLV,
    SCATTERV, SCAN, EXSCAN, REDUCE_SCATTER_BLOCK, GATHER, GATHERV, REDUCE_SCATTER
} op_t;

static const char *const OP_NAMES[] = {"barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
                                       "allreduce_init", "alltoall_init", "allgatherv", "alltoallv", "scatterv",
                                       "scan", "exscan", "reduce_scatter_block", "gather", "gatherv",
                                       "reduce_scatter"};

/* The reductions: vectors of floats summed, count = bytes / 4 (reduce_scatter_block: each rank's share of it). */
static int reduces(op_t op) {
    return REDUCE == op || ALLREDUCE == op || ALLREDUCE_INIT == op || SCAN == op || EXSCAN == op
           || REDUCE_SCATTER_BLOCK == op || REDUCE_SCATTER == op;
}

/* The counts and displacements of the vector forms: every block `bytes` long, one behind the other. */
static int *vcounts;
static int *vdispls;
/* A reduce_scatter's counts of floats per rank (OSU's split of bytes / 4), and where each rank's share starts. */
static int *rcounts;
static int *rstarts;
/* The group's size. */
static int vsize;

static void vector_shape(int size, long bytes) {
    const int count = (int) (bytes / 4);
    int at = 0;
    for (int r = 0; r < size; r++) {
        vcounts[r] = (int) bytes;
        vdispls[r] = (int) (r * bytes);
        rcounts[r] = count / size + (r < count % size ? 1 : 0);
        rstarts[r] = at;
        at += rcounts[r];
    }
}

static op_t parse_op(const char *name) {
    for (int i = 0; i < (int) (sizeof OP_NAMES / sizeof OP_NAMES[0]); i++) {
        if (NULL != name && 0 == strcmp(name, OP_NAMES[i])) {
            return (op_t) i;
        }
    }
    die("coll: expected OP barrier, bcast, reduce, allreduce, allgather, alltoall, allreduce_init, alltoall_init, "
        "allgatherv, alltoallv, scatterv, scan, exscan, reduce_scatter_block, gather, gatherv or reduce_scatter, got ",
        name ? name : "none");
    return BARRIER;
}

/* Input element i of `rank` for reduce/allreduce; small integers, so float sums are exact. */
static float reduce_input(int rank, long i) {
    return (float) (i % 97 + rank + 1);
}

static void prepare(op_t op, int rank, int size, long bytes, unsigned char *sbuf, unsigned char *rbuf) {
    switch (op) {
    case BARRIER:
        break;
    case BCAST:
        if (0 == rank) {
            pattern_fill(sbuf, bytes, 0);
        } else {
            pattern_poison(sbuf, bytes, 0);
        }
        break;
    case REDUCE:
    case ALLREDUCE:
    case ALLREDUCE_INIT:
    case SCAN:
    case EXSCAN:
    case REDUCE_SCATTER:
    case REDUCE_SCATTER_BLOCK: {
        float *in = (float *) sbuf;
        float *out = (float *) rbuf;
        for (long i = 0; i < bytes / 4; i++) {
            in[i] = reduce_input(rank, i);
            out[i] = -1.0f;
        }
        break;
    }
    case GATHER:
    case GATHERV:
    case ALLGATHER:
    case ALLGATHERV:
        pattern_fill(sbuf, bytes, rank);
        for (int r = 0; r < size; r++) {
            pattern_poison(rbuf + (long) r * bytes, bytes, r);
        }
        break;
    case ALLTOALL:
    case ALLTOALL_INIT:
    case ALLTOALLV:
        for (int r = 0; r < size; r++) {
            pattern_fill(sbuf + (long) r * bytes, bytes, rank * size + r);
            pattern_poison(rbuf + (long) r * bytes, bytes, r * size + rank);
        }
        break;
    case SCATTERV:
        for (int r = 0; r < size; r++) {
            if (0 == rank) {
                pattern_fill(sbuf + (long) r * bytes, bytes, r);
            }
        }
        pattern_poison(rbuf, bytes, rank);
        break;
    }
}

/* The persistent request of allreduce_init / alltoall_init for the current size. */
static MPI_Request persistent = MPI_REQUEST_NULL;

static void build_persistent(op_t op, long bytes, unsigned char *sbuf, unsigned char *rbuf) {
    if (MPI_REQUEST_NULL != persistent) {
        MPI_Request_free(&persistent);
    }
    if (ALLREDUCE_INIT == op) {
        MPIX_Allreduce_init(sbuf, rbuf, (int) (bytes / 4), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                            &persistent);
    } else if (ALLTOALL_INIT == op) {
        MPIX_Alltoall_init(sbuf, (int) bytes, MPI_BYTE, rbuf, (int) bytes, MPI_BYTE, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &persistent);
    }
}

static void invoke(op_t op, long bytes, unsigned char *sbuf, unsigned char *rbuf) {
    switch (op) {
    case ALLREDUCE_INIT:
    case ALLTOALL_INIT:
        MPI_Start(&persistent);
        MPI_Wait(&persistent, MPI_STATUS_IGNORE);
        break;
    case BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    case BCAST:
        MPI_Bcast(sbuf, (int) bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case REDUCE:
        MPI_Reduce(sbuf, rbuf, (int) (bytes / 4), MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case ALLREDUCE:
        MPI_Allreduce(sbuf, rbuf, (int) (bytes / 4), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLGATHER:
        MPI_Allgather(sbuf, (int) bytes, MPI_BYTE, rbuf, (int) bytes, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case ALLTOALL:
        MPI_Alltoall(sbuf, (int) bytes, MPI_BYTE, rbuf, (int) bytes, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case GATHER:
        MPI_Gather(sbuf, (int) bytes, MPI_BYTE, rbuf, (int) bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case GATHERV:
        MPI_Gatherv(sbuf, (int) bytes, MPI_BYTE, rbuf, vcounts, vdispls, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case ALLGATHERV:
        MPI_Allgatherv(sbuf, (int) bytes, MPI_BYTE, rbuf, vcounts, vdispls, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case ALLTOALLV:
        MPI_Alltoallv(sbuf, vcounts, vdispls, MPI_BYTE, rbuf, vcounts, vdispls, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case SCAN:
        MPI_Scan(sbuf, rbuf, (int) (bytes / 4), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case EXSCAN:
        MPI_Exscan(sbuf, rbuf, (int) (bytes / 4), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case REDUCE_SCATTER_BLOCK:
        MPI_Reduce_scatter_block(sbuf, rbuf, (int) (bytes / 4 / vsize), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case REDUCE_SCATTER:
        MPI_Reduce_scatter(sbuf, rbuf, rcounts, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case SCATTERV:
        MPI_Scatterv(sbuf, vcounts, vdispls, MPI_BYTE, rbuf, (int) bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    }
}

static void verify(op_t op, int rank, int size, long bytes, const unsigned char *sbuf, const unsigned char *rbuf) {
    const char *name = OP_NAMES[op];
    switch (op) {
    case BARRIER:
        break;
    case BCAST:
        pattern_check(name, rank, sbuf, bytes, 0);
        break;
    case REDUCE:
    case ALLREDUCE:
    case ALLREDUCE_INIT:
    case SCAN:
    case EXSCAN:
    case REDUCE_SCATTER:
    case REDUCE_SCATTER_BLOCK: {
        if ((REDUCE == op && 0 != rank) || (EXSCAN == op && 0 == rank)) {
            break; /* a reduce's non-roots, an exscan's rank 0: nothing to check */
        }
        /* the result sums the inputs of ranks [0, n): every rank, or a prefix for scan and exscan */
        const int n = SCAN == op ? rank + 1 : EXSCAN == op ? rank : size;
        const long count = REDUCE_SCATTER_BLOCK == op ? bytes / 4 / size
                           : REDUCE_SCATTER == op ? rcounts[rank] : bytes / 4;
        const long first = REDUCE_SCATTER_BLOCK == op ? rank * count : REDUCE_SCATTER == op ? rstarts[rank] : 0;
        for (long j = 0; j < count; j++) {
            const long i = first + j;
            const float expected = (float) (n * (i % 97 + 1) + (long) n * (n - 1) / 2);
            if (((const float *) rbuf)[j] != expected) {
                fprintf(stderr, "%s verify failed (rank=%d, bytes=%ld): element %ld is %g, expected %g\n", name,
                        rank, bytes, j, ((const float *) rbuf)[j], expected);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        break;
    }
    case GATHER:
    case GATHERV:
        if (0 != rank) {
            break; /* a gather's non-roots: nothing to check */
        }
        /* fall through */
    case ALLGATHER:
    case ALLGATHERV:
        for (int r = 0; r < size; r++) {
            pattern_check(name, rank, rbuf + (long) r * bytes, bytes, r);
        }
        break;
    case ALLTOALL:
    case ALLTOALL_INIT:
    case ALLTOALLV:
        for (int r = 0; r < size; r++) {
            pattern_check(name, rank, rbuf + (long) r * bytes, bytes, r * size + rank);
        }
        break;
    case SCATTERV:
        pattern_check(name, rank, rbuf, bytes, rank);
        break;
    }
}

int main(int argc, char **argv) {
    bench_init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const options_t o = parse_options(argc, argv, 1);
    const op_t op = parse_op(o.op);
    const defaults_t d = {1000, 100, 100, 10};
    const long per_rank = (ALLGATHER == op || ALLTOALL == op || ALLTOALL_INIT == op || ALLGATHERV == op
                           || ALLTOALLV == op || SCATTERV == op) ? size : 1;
    vsize = size;
    vcounts = malloc(sizeof(int) * (size_t) size);
    vdispls = malloc(sizeof(int) * (size_t) size);
    rcounts = malloc(sizeof(int) * (size_t) size);
    rstarts = malloc(sizeof(int) * (size_t) size);
    if (NULL == vcounts || NULL == vdispls || NULL == rcounts || NULL == rstarts) {
        die("coll: out of memory for ", "the vector counts");
    }
    unsigned char *sbuf = alloc_bytes(o.max_bytes * per_rank);
    unsigned char *rbuf = alloc_bytes(o.max_bytes * size);
    report_t report;
    if (0 == rank) {
        report = report_open(&o, OP_NAMES[op], "collective latency", size, 0);
    }
    for (long bytes = BARRIER == op ? 0 : o.min_bytes; bytes <= o.max_bytes; bytes = next_size(bytes)) {
        if (reduces(op) && bytes < 4L * (REDUCE_SCATTER_BLOCK == op ? size : 1)) {
            continue;
        }
        const int iters = iterations_for(&o, &d, bytes);
        const int warmup = warmup_for(&o, &d, bytes);
        vector_shape(size, bytes);
        prepare(op, rank, size, bytes, sbuf, rbuf);
        build_persistent(op, bytes, sbuf, rbuf);
        MPI_Barrier(MPI_COMM_WORLD);
        double sum = 0;
        for (int i = 0; i < warmup + iters; i++) {
            const double t0 = MPI_Wtime();
            invoke(op, bytes, sbuf, rbuf);
            const double t = MPI_Wtime() - t0;
            if (i >= warmup) {
                sum += t;
            }
            if (BARRIER != op) {
                MPI_Barrier(MPI_COMM_WORLD);
            }
        }
        verify(op, rank, size, bytes, sbuf, rbuf);
        const double max_us = max_to_root(sum * 1e6 / iters);
        if (0 == rank) {
            report_row(&report, bytes, max_us);
        }
        if (BARRIER == op) {
            break;
        }
    }
    if (MPI_REQUEST_NULL != persistent) {
        MPI_Request_free(&persistent);
    }
    if (0 == rank) {
        report_close(&report);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
