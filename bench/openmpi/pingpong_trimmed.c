/*
 * pingpong (2 ranks) timed per iteration, for a machine that other processes load: rank 0 records half of each
 * round trip and prints, per size, the mean of the iterations at or below the 90th percentile and the median, in
 * µs. A preempted iteration takes milliseconds where the others take a tenth of a microsecond, so the plain mean of
 * a loaded run says little; the trimmed mean keeps the iterations that ran with both ranks on a core. Tutti's
 * side: `BenchCommand pingpong --percentiles` records the same values (half of each round trip, HdrHistogram).
 * Not part of compare.sh.
 *
 *   make -C bench/openmpi build/pingpong_trimmed
 *   mpirun -n 2 --mca btl self,vader bench/openmpi/build/pingpong_trimmed [ITERS]     # sizes 4 B .. 8 KiB
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    const long x = *(const long *) a;
    const long y = *(const long *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int iters = argc > 1 ? atoi(argv[1]) : 20000;
    const int warmup = iters;
    if (2 != size || iters < 10) {
        fprintf(stderr, "pingpong_trimmed: 2 ranks and at least 10 iterations\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    unsigned char *sbuf = calloc(8192, 1);
    unsigned char *rbuf = calloc(8192, 1);
    long *half = malloc(sizeof(long) * (size_t) iters);
    if (0 == rank) {
        printf("# bytes  trimmed mean <= P90 (us)  median (us)\n");
    }
    for (int bytes = 4; bytes <= 8192; bytes *= 2) {
        MPI_Barrier(MPI_COMM_WORLD);
        long last = 0;
        for (int i = 0; i < warmup + iters; i++) {
            if (i == warmup) {
                last = now_ns();
            }
            if (0 == rank) {
                MPI_Send(sbuf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(rbuf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(rbuf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(sbuf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
            if (i >= warmup) {
                const long t = now_ns();
                half[i - warmup] = (t - last) / 2;
                last = t;
            }
        }
        if (0 == rank) {
            qsort(half, (size_t) iters, sizeof(long), by_value);
            const long cut = half[iters * 9 / 10 - 1];
            double sum = 0;
            long n = 0;
            for (int i = 0; i < iters && half[i] <= cut; i++) {
                sum += (double) half[i];
                n++;
            }
            printf("%7d  %.4f  %.3f\n", bytes, sum / (double) n / 1e3, (double) half[iters / 2] / 1e3);
        }
    }
    free(sbuf);
    free(rbuf);
    free(half);
    MPI_Finalize();
    return 0;
}
