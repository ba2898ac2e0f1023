/*
 * The speed of `rep movsb` (the instruction the kernel copies user memory with on processors that report FSRM) by the
 * distance between destination and source modulo 4 KiB: 32 KiB copied 20,000 times for each pair of offsets, one
 * line each. On the AMD EPYC host of bench/RESULTS.md ("tcp", the slow level of large exchanges) a distance of 1-15
 * bytes modulo 4,096 runs at a sixteenth of the speed of any other.
 *
 *   gcc -O2 -o /tmp/rep_movsb bench/repro/rep_movsb.c && /tmp/rep_movsb
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void rep_movsb(char *d, const char *s, size_t n) {
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

int main(void) {
    const size_t n = 32768;
    const int rounds = 20000;
    char *src = aligned_alloc(4096, 1 << 22);
    char *dst = aligned_alloc(4096, 1 << 22);
    memset(src, 1, 1 << 22);
    memset(dst, 0, 1 << 22);
    const int src_off[] = {0, 1, 8, 48};
    const int dst_off[] = {0, 1, 8, 15, 16, 24, 48, 63};
    for (size_t a = 0; a < sizeof src_off / sizeof src_off[0]; a++) {
        for (size_t b = 0; b < sizeof dst_off / sizeof dst_off[0]; b++) {
            for (int far = 0; far < 2; far++) {
                char *s = src + src_off[a];
                char *d = dst + dst_off[b] + (far ? 2048 : 0);
                const double t0 = now();
                for (int i = 0; i < rounds; i++) {
                    rep_movsb(d, s, n);
                }
                const double dt = now() - t0;
                printf("src %% 64 = %2d  dst %% 64 = %2d  (dst - src) %% 4096 = %4ld  %6.1f GB/s\n", src_off[a],
                    dst_off[b], (long) ((d - s) & 4095), (double) rounds * n / dt / 1e9);
            }
        }
    }
    return 0;
}
