/*
 * One-way latency, as osu_latency and Tutti's `tutti bench pingpong`: the lower rank of each pair sends, the
 * higher one sends back; the latency is half the round trip. Both ranks time their loop; the row shows the
 * maximum over ranks of the per-rank means. Defaults: 10000 iterations after 1000 warm-up ones up to 8 KiB,
 * 1000 after 100 above. The received data is checked after timing.
 */
#include "common.h"

#define DATA_TAG 1

int main(int argc, char **argv) {
    bench_init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const options_t o = parse_options(argc, argv, 0);
    const defaults_t d = {10000, 1000, 1000, 100};
    if (size < 2) {
        die("pingpong needs at least 2 ranks", NULL);
    }
    const int peer = peer_of(rank, size);
    const int initiator = peer > rank;
    unsigned char *sbuf = alloc_bytes(o.max_bytes);
    unsigned char *rbuf = alloc_bytes(o.max_bytes);
    report_t report;
    if (0 == rank) {
        report = report_open(&o, "pingpong", "one-way latency", size, 0);
    }
    for (long bytes = o.min_bytes; bytes <= o.max_bytes; bytes = next_size(bytes)) {
        const int iters = iterations_for(&o, &d, bytes);
        const int warmup = warmup_for(&o, &d, bytes);
        if (peer >= 0) {
            pattern_fill(sbuf, bytes, rank);
            pattern_poison(rbuf, bytes, peer);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double mean_us = -1.0;
        if (peer >= 0) {
            double start = 0;
            for (int i = 0; i < warmup + iters; i++) {
                if (i == warmup) {
                    start = MPI_Wtime();
                }
                if (initiator) {
                    MPI_Send(sbuf, (int) bytes, MPI_BYTE, peer, DATA_TAG, MPI_COMM_WORLD);
                    MPI_Recv(rbuf, (int) bytes, MPI_BYTE, peer, DATA_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(rbuf, (int) bytes, MPI_BYTE, peer, DATA_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(sbuf, (int) bytes, MPI_BYTE, peer, DATA_TAG, MPI_COMM_WORLD);
                }
            }
            mean_us = (MPI_Wtime() - start) * 1e6 / (2.0 * iters);
            pattern_check("pingpong", rank, rbuf, bytes, peer);
        }
        const double max_us = max_to_root(mean_us);
        if (0 == rank) {
            report_row(&report, bytes, max_us);
        }
    }
    if (0 == rank) {
        report_close(&report);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
