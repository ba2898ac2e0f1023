/*
 * Bandwidth, as osu_bw and Tutti's `tutti bench bandwidth`: per iteration the lower rank of each pair starts a
 * window of 64 nonblocking sends, waits, and waits for a 4-byte acknowledgement; the higher rank posts 64 receives
 * into one buffer, waits, and acknowledges. avg_us is the time per message (iteration time / 64); the table shows
 * bytes / avg_us = MB/s (MB = 10^6 bytes). Defaults: 100 iterations after 10 warm-up ones up to 8 KiB, 20 after
 * 2 above. The received data is checked after timing.
 */
#include "common.h"

#define DATA_TAG 1
#define ACK_TAG 2
#define WINDOW 64

int main(int argc, char **argv) {
    bench_init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const options_t o = parse_options(argc, argv, 0);
    const defaults_t d = {100, 10, 20, 2};
    if (size < 2) {
        die("bandwidth needs at least 2 ranks", NULL);
    }
    const int peer = peer_of(rank, size);
    const int sender = peer > rank;
    unsigned char *sbuf = alloc_bytes(o.max_bytes);
    unsigned char *rbuf = alloc_bytes(o.max_bytes);
    unsigned char ack[4] = {0};
    MPI_Request requests[WINDOW];
    report_t report;
    if (0 == rank) {
        report = report_open(&o, "bandwidth", "bandwidth, window 64", size, 1);
    }
    for (long bytes = o.min_bytes; bytes <= o.max_bytes; bytes = next_size(bytes)) {
        const int iters = iterations_for(&o, &d, bytes);
        const int warmup = warmup_for(&o, &d, bytes);
        if (peer >= 0) {
            pattern_fill(sbuf, bytes, rank);
            if (!sender) {
                pattern_poison(rbuf, bytes, peer);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double mean_us = -1.0;
        if (peer >= 0) {
            double start = 0;
            for (int i = 0; i < warmup + iters; i++) {
                if (i == warmup) {
                    start = MPI_Wtime();
                }
                if (sender) {
                    for (int j = 0; j < WINDOW; j++) {
                        MPI_Isend(sbuf, (int) bytes, MPI_BYTE, peer, DATA_TAG, MPI_COMM_WORLD, &requests[j]);
                    }
                    MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
                    MPI_Recv(ack, 4, MPI_BYTE, peer, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    for (int j = 0; j < WINDOW; j++) {
                        MPI_Irecv(rbuf, (int) bytes, MPI_BYTE, peer, DATA_TAG, MPI_COMM_WORLD, &requests[j]);
                    }
                    MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
                    MPI_Send(ack, 4, MPI_BYTE, peer, ACK_TAG, MPI_COMM_WORLD);
                }
            }
            mean_us = (MPI_Wtime() - start) * 1e6 / ((double) iters * WINDOW);
            if (!sender) {
                pattern_check("bandwidth", rank, rbuf, bytes, peer);
            }
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
