/*
 * The floor of a two-rank exchange on this machine: two processes, each with one 64-byte line in shared memory
 * holding a sequence word and 8 bytes of data. Exchange k: write the data and k into the own line, then spin
 * until the peer's line reads k. Also a ping-pong on the same lines (half the round trip). No library, no fence
 * beyond release/acquire: what a collective of two ranks cannot beat.
 *
 *   cc -O2 -o /tmp/exchange bench/floor/exchange.c && /tmp/exchange 2000000
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    uint64_t seq;
    char data[56];
} __attribute__((aligned(64))) line_t;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void await_seq(line_t *l, uint64_t k) {
    while (__atomic_load_n(&l->seq, __ATOMIC_ACQUIRE) < k) {
        __builtin_ia32_pause();
    }
}

int main(int argc, char **argv) {
    const uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    line_t *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (MAP_FAILED == shared) {
        perror("mmap");
        return 1;
    }
    const int me = 0 == fork();
    line_t *mine = &shared[me * 4];
    line_t *peer = &shared[(1 - me) * 4];
    char block[8];
    memset(block, me, sizeof block);
    uint64_t k = 0;
    for (int rep = 0; rep < 3; rep++) {
        const double t0 = now_ns();
        for (uint64_t i = 0; i < n; i++) {
            k++;
            memcpy(mine->data, block, sizeof block);
            __atomic_store_n(&mine->seq, k, __ATOMIC_RELEASE);
            await_seq(peer, k);
            memcpy(block, peer->data, sizeof block);
        }
        const double t1 = now_ns();
        for (uint64_t i = 0; i < n; i++) {
            k++;
            if (0 == me) {
                __atomic_store_n(&mine->seq, k, __ATOMIC_RELEASE);
                await_seq(peer, k);
            } else {
                await_seq(peer, k);
                __atomic_store_n(&mine->seq, k, __ATOMIC_RELEASE);
            }
        }
        const double t2 = now_ns();
        if (0 == me) {
            printf("exchange %.3f us, ping-pong one way %.3f us\n", (t1 - t0) / n / 1e3, (t2 - t1) / n / 2e3);
        }
    }
    if (0 == me) {
        wait(NULL);
    }
    return 0;
}
