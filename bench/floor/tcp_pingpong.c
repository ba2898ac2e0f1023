/*
 * The floor of a ping-pong over loopback tcp on this machine: two processes (fork), one TCP_NODELAY connection,
 * nothing else. Three ways to wait for the reply, each a way a library may take:
 *   blocking  a blocking read(): the thread sleeps in the kernel and is woken by the arrival
 *   spin      a non-blocking read() in a loop (MSG_DONTWAIT): no sleep, one system call per look
 *   epoll     epoll_wait() then read(): a sleep, and two system calls per message
 * Prints the one-way time (half a round trip, as OSU's latency test) in microseconds per size and mode, best of 5
 * rounds. Above 8 KiB the iterations shrink with the size (ITERATIONS * 8192 / size, at least 100). Large messages
 * are written and read straight from and into the program's buffer: the floor of a library with no user-space copy.
 *
 *   cc -O2 -o /tmp/tcp_pingpong bench/floor/tcp_pingpong.c && /tmp/tcp_pingpong [ITERATIONS]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { BLOCKING, SPIN, EPOLL, MODES };
static const char *const NAMES[MODES] = {"blocking", "spin", "epoll"};
static const int SIZES[] = {4, 64, 1024, 8192, 65536, 262144, 1048576, 4194304};
static char buf[1 << 22];

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void write_all(int fd, int n) {
    for (int done = 0; done < n;) {
        ssize_t k = write(fd, buf + done, n - done);
        if (k < 0 && errno != EAGAIN) die("write");
        if (k > 0) done += k;
    }
}

static void read_all(int fd, int ep, int mode, int n) {
    for (int done = 0; done < n;) {
        if (EPOLL == mode) {
            struct epoll_event ev;
            if (epoll_wait(ep, &ev, 1, -1) < 0 && errno != EINTR) die("epoll_wait");
        }
        ssize_t k = recv(fd, buf + done, n - done, BLOCKING == mode ? 0 : MSG_DONTWAIT);
        if (0 == k) die("peer closed");
        if (k < 0 && errno != EAGAIN) die("recv");
        if (k > 0) done += k;
    }
}

static void run(int fd, int first, long iterations) {
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) die("epoll");
    for (unsigned s = 0; s < sizeof SIZES / sizeof SIZES[0]; s++) {
        long n = SIZES[s] > 8192 ? iterations * 8192 / SIZES[s] : iterations;
        if (n < 100) n = 100;
        for (int mode = 0; mode < MODES; mode++) {
            double best = 1e30;
            for (int round = 0; round < 5; round++) {
                double start = 0;
                for (long i = -n / 10; i < n; i++) {
                    if (0 == i) start = now_us();
                    if (first) {
                        write_all(fd, SIZES[s]);
                        read_all(fd, ep, mode, SIZES[s]);
                    } else {
                        read_all(fd, ep, mode, SIZES[s]);
                        write_all(fd, SIZES[s]);
                    }
                }
                double t = (now_us() - start) / (2.0 * n);
                if (t < best) best = t;
            }
            if (first) printf("%-8s %8d B  %8.2f us\n", NAMES[mode], SIZES[s], best);
        }
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    long iterations = argc > 1 ? atol(argv[1]) : 20000;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (listener < 0 || bind(listener, (struct sockaddr *) &a, sizeof a) < 0 || listen(listener, 1) < 0
        || getsockname(listener, (struct sockaddr *) &a, &len) < 0) die("listen");
    int one = 1;
    pid_t child = fork();
    if (child < 0) die("fork");
    int fd;
    if (0 == child) {
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *) &a, sizeof a) < 0) die("connect");
    } else {
        fd = accept(listener, NULL, NULL);
        if (fd < 0) die("accept");
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    run(fd, 0 != child, iterations);
    close(fd);
    if (child > 0) waitpid(child, NULL, 0);
    return 0;
}
