/*
 * Shared by the Open MPI comparison programs (pingpong.c, bandwidth.c, coll.c): options, sizes, data patterns,
 * the OSU table and the CSV rows impl,op,ranks,bytes,avg_us. The method and defaults mirror Tutti's
 * `tutti bench` (dev.tutti.bench.osu) so that the rows compare like with like.
 *
 * Options: -m [MIN:]MAX (bytes, powers of two, default 1:4194304), -i ITERS, -x WARMUP (per size, for every
 * size; default: the program's OSU defaults, small <= 8 KiB and large above), --csv FILE (overwritten),
 * --impl NAME (CSV impl column, default "openmpi"), --thread-multiple (initialize with MPI_THREAD_MULTIPLE, the
 * guarantee every Tutti rank gives: any thread may call at any time; without it, MPI_Init's single-thread level,
 * under which Open MPI takes no locks).
 */
#ifndef TUTTI_BENCH_COMMON_H
#define TUTTI_BENCH_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LARGE_MESSAGE_BYTES 8192
#define DEFAULT_MAX_BYTES (1 << 22)
#define LIMIT_BYTES (1 << 30)

typedef struct {
    long min_bytes;
    long max_bytes;
    int iterations; /* -1: default */
    int warmup;     /* -1: default */
    const char *csv;
    const char *impl;
    const char *op; /* coll.c only: the collective */
} options_t;

typedef struct {
    int small_iterations, small_warmup, large_iterations, large_warmup;
} defaults_t;

static void die(const char *msg, const char *arg) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (0 == rank) {
        fprintf(stderr, "%s%s\n", msg, arg ? arg : "");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* MPI_Init, or MPI_Init_thread at MPI_THREAD_MULTIPLE when the command line says --thread-multiple. */
static void bench_init(int *argc, char ***argv) {
    int multiple = 0;
    for (int i = 1; i < *argc; i++) {
        multiple |= 0 == strcmp((*argv)[i], "--thread-multiple");
    }
    if (!multiple) {
        MPI_Init(argc, argv);
        return;
    }
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    if (MPI_THREAD_MULTIPLE != provided) {
        die("--thread-multiple: this Open MPI does not provide MPI_THREAD_MULTIPLE", NULL);
    }
}

static long parse_long(const char *s, const char *whole) {
    char *end = NULL;
    const long v = strtol(s, &end, 10);
    if (end == s || '\0' != *end) {
        die("-m: not a byte count, expected MAX, MIN:MAX or MIN: in ", whole);
    }
    return v;
}

static void parse_sizes(options_t *o, const char *text) {
    const char *colon = strchr(text, ':');
    if (NULL == colon) {
        o->max_bytes = parse_long(text, text);
        o->min_bytes = o->max_bytes < 1 ? o->max_bytes : 1;
    } else {
        char min[32];
        const size_t n = (size_t) (colon - text);
        if (n >= sizeof min) {
            die("-m: too long: ", text);
        }
        memcpy(min, text, n);
        min[n] = '\0';
        o->min_bytes = parse_long(min, text);
        o->max_bytes = '\0' == colon[1] ? (o->min_bytes > DEFAULT_MAX_BYTES ? o->min_bytes : DEFAULT_MAX_BYTES)
                                        : parse_long(colon + 1, text);
    }
    if (o->min_bytes < 0 || o->max_bytes < o->min_bytes || o->max_bytes > LIMIT_BYTES) {
        die("-m: expected 0 <= MIN <= MAX <= 1073741824, got ", text);
    }
}

/* Parses argv; with want_op, the first non-option argument is the collective's name. */
static options_t parse_options(int argc, char **argv, int want_op) {
    options_t o = {1, DEFAULT_MAX_BYTES, -1, -1, NULL, "openmpi", NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int has_value = i + 1 < argc;
        if (0 == strcmp(a, "-m") && has_value) {
            parse_sizes(&o, argv[++i]);
        } else if (0 == strcmp(a, "-i") && has_value) {
            o.iterations = atoi(argv[++i]);
            if (o.iterations < 1) {
                die("-i: expected ITERS >= 1, got ", argv[i]);
            }
        } else if (0 == strcmp(a, "-x") && has_value) {
            o.warmup = atoi(argv[++i]);
            if (o.warmup < 0) {
                die("-x: expected WARMUP >= 0, got ", argv[i]);
            }
        } else if (0 == strcmp(a, "--csv") && has_value) {
            o.csv = argv[++i];
        } else if (0 == strcmp(a, "--impl") && has_value) {
            o.impl = argv[++i];
        } else if (0 == strcmp(a, "--thread-multiple")) {
            /* bench_init's */
        } else if (want_op && NULL == o.op && '-' != a[0]) {
            o.op = a;
        } else {
            die("unknown or incomplete option: ", a);
        }
    }
    return o;
}

static int iterations_for(const options_t *o, const defaults_t *d, long bytes) {
    if (o->iterations >= 0) {
        return o->iterations;
    }
    return bytes > LARGE_MESSAGE_BYTES ? d->large_iterations : d->small_iterations;
}

static int warmup_for(const options_t *o, const defaults_t *d, long bytes) {
    if (o->warmup >= 0) {
        return o->warmup;
    }
    return bytes > LARGE_MESSAGE_BYTES ? d->large_warmup : d->small_warmup;
}

/* The next size after s: doubling, and 0 is followed by 1 (as OSU). */
static long next_size(long s) {
    return 0 == s ? 1 : 2 * s;
}

/* Byte i of what `sender` sends at size `bytes`: the same function as Tutti's Patterns.at. */
static unsigned char pattern_at(long bytes, int sender, long i) {
    return (unsigned char) (i * 31 + (i >> 8) + bytes * 7 + (long) sender * 13 + 1);
}

static void pattern_fill(unsigned char *a, long bytes, int sender) {
    for (long i = 0; i < bytes; i++) {
        a[i] = pattern_at(bytes, sender, i);
    }
}

static void pattern_poison(unsigned char *a, long bytes, int sender) {
    for (long i = 0; i < bytes; i++) {
        a[i] = (unsigned char) ~pattern_at(bytes, sender, i);
    }
}

/* Aborts the job, loudly, if a[0..bytes) is not what `sender` sends. */
static void pattern_check(const char *op, int rank, const unsigned char *a, long bytes, int sender) {
    long wrong = 0, first = -1;
    for (long i = 0; i < bytes; i++) {
        if (a[i] != pattern_at(bytes, sender, i)) {
            if (0 == wrong) {
                first = i;
            }
            wrong++;
        }
    }
    if (0 != wrong) {
        fprintf(stderr, "%s verify failed (rank=%d, bytes=%ld): %ld of %ld bytes from rank %d are wrong, first at "
                        "index=%ld: got 0x%02x, expected 0x%02x\n",
                op, rank, bytes, wrong, bytes, sender, first, a[first], pattern_at(bytes, sender, first));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void *alloc_bytes(long bytes) {
    void *p = NULL;
    if (0 != posix_memalign(&p, 4096, bytes > 0 ? (size_t) bytes : 1)) {
        die("out of memory", NULL);
    }
    memset(p, 0, bytes > 0 ? (size_t) bytes : 1);
    return p;
}

/* Rank 0's output: the OSU table on stdout and the CSV file. */
typedef struct {
    FILE *csv;
    const options_t *o;
    const char *op;
    int ranks;
    int bandwidth; /* value column: bytes / avg_us instead of avg_us */
} report_t;

static report_t report_open(const options_t *o, const char *op, const char *title, int ranks, int bandwidth) {
    report_t r = {NULL, o, op, ranks, bandwidth};
    printf("# Open MPI %s (%s): impl=%s ranks=%d\n", op, title, o->impl, ranks);
    printf("%-10s%18s\n", "# Size", bandwidth ? "Bandwidth (MB/s)" : "Latency (us)");
    fflush(stdout);
    if (NULL != o->csv) {
        r.csv = fopen(o->csv, "w");
        if (NULL == r.csv) {
            die("--csv: cannot write ", o->csv);
        }
        fprintf(r.csv, "impl,op,ranks,bytes,avg_us\n");
    }
    return r;
}

static void report_row(report_t *r, long bytes, double avg_us) {
    const double value = r->bandwidth ? (avg_us > 0 ? bytes / avg_us : 0.0) : avg_us;
    printf("%-10ld%18.2f\n", bytes, value);
    fflush(stdout);
    if (NULL != r->csv) {
        fprintf(r->csv, "%s,%s,%d,%ld,%.3f\n", r->o->impl, r->op, r->ranks, bytes, avg_us);
        fflush(r->csv);
    }
}

static void report_close(report_t *r) {
    if (NULL != r->csv) {
        fclose(r->csv);
    }
}

/* Rank 0 gets the maximum over ranks of the per-rank means; ranks that took no part pass a negative value. */
static double max_to_root(double mean_us) {
    double max = 0;
    MPI_Reduce(&mean_us, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return max;
}

/* OSU multi-pair layout: rank r < n/2 pairs with r + n/2; the last rank of an odd job takes no part (-1). */
static inline int peer_of(int rank, int size) {
    const int half = size / 2;
    if (rank < half) {
        return rank + half;
    }
    return rank < 2 * half ? rank - half : -1;
}

#endif
