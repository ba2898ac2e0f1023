#!/bin/sh
# check-overhead.sh: the correctness checker's overhead: each collective with the checker off and on,
# over shared memory, runs interleaved (off, on, off, on, ...), and the ratio on/off of the best time per size.
#
#   bench/check-overhead.sh                       # barrier allreduce alltoall, 2 ranks, 8 B .. 1 MiB, 2 runs each
#   RUNS=3 RANKS=4 bench/check-overhead.sh allreduce
#   BENCH_OPTS='-i 500 -x 50' bench/check-overhead.sh  # fewer iterations per size (options of tutti bench)
#
# Runs through bin/tutti (which finds a JDK 25 and builds tutti.jar if it is missing). Prints the load average
# before and after: numbers from a busy machine say little.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd -P)
ranks=${RANKS:-2}
runs=${RUNS:-2}
sizes=${SIZES:-8:1048576}
extra=${BENCH_OPTS:-}
ops=${*:-barrier allreduce alltoall}
out=$(mktemp -d)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for op in $ops; do
    r=1
    while [ "$r" -le "$runs" ]; do
        for mode in off on; do
            TUTTI_CHECK=$mode "$root/bin/tutti" bench "$op" -n "$ranks" \
                --transport shm -m "$sizes" $extra --csv "$out/$op-$mode-$r.csv" >/dev/null
        done
        r=$((r + 1))
    done
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "op,bytes,off_us,on_us,ratio"
for op in $ops; do
    for f in "$out/$op"-off-*.csv "$out/$op"-on-*.csv; do
        case $f in *-off-*) m=off ;; *) m=on ;; esac
        awk -F, -v op="$op" -v m="$m" '$2 == op { print m "," $4 "," $5 }' "$f"
    done | awk -F, -v op="$op" '
        { k = $2; if (!((($1) SUBSEP k) in b) || $3 < b[$1, k]) b[$1, k] = $3; sizes[k] = 1 }
        END { for (k in sizes) if (((("off") SUBSEP k) in b) && ((("on") SUBSEP k) in b))
                  printf "%s,%s,%.2f,%.2f,%.2f\n", op, k, b["off", k], b["on", k], b["on", k] / b["off", k] }' |
        sort -t, -k2,2n
done
rm -rf "$out"
