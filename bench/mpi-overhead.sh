#!/bin/sh
# mpi-overhead.sh: the overhead of the mpi layer (tutti-mpi, Open MPI's Java API on Tutti) over Tutti's own API:
# `tutti bench pingpong|allreduce` against `tutti bench mpi-pingpong|mpi-allreduce` (the same method,
# buffers and checks, the timed calls made through mpi.MPI.COMM_WORLD), both over the same transport: by default
# shm, one JVM per rank over shared memory (the bench worker joins its job and its MPI.Init uses that handle, see
# dev.tutti.mpi.JoinedRank); TRANSPORT=inproc runs the ranks as threads of one JVM, TRANSPORT=tcp over loopback.
# Runs are interleaved (tutti, mpi, tutti, mpi, ...), and the ratio mpi/tutti is of the best time per size. When
# bench/openmpi/build holds the Open MPI C programs (make -C bench/openmpi), each round runs them too (shared
# memory, vader) and the table adds mpi/vader. Then bench/merge.py prints the medians.
#
#   bench/mpi-overhead.sh                         # pingpong allreduce, 2 ranks, shm, 8 B .. 1 MiB, 3 rounds
#   RUNS=5 RANKS=4 bench/mpi-overhead.sh allreduce
#   TRANSPORT=inproc bench/mpi-overhead.sh pingpong
#   SIZES=8:64 RUNS=1 BENCH_OPTS='-i 100 -x 10 --jit-warmup 0' bench/mpi-overhead.sh   # a smoke run
#   STEADY=300000 SIZES=8:1024 bench/mpi-overhead.sh   # steady state: 300,000 timed iterations per size after
#                                                      # 100,000 warm-up ones, every size
#
# Runs through bin/tutti (which finds a JDK 25 and builds tutti.jar if it is missing). Prints the load average
# before and after: numbers from a busy machine say little.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd -P)
ranks=${RANKS:-2}
runs=${RUNS:-3}
sizes=${SIZES:-8:1048576}
extra=${BENCH_OPTS:-}
steady=${STEADY:-}
cprog_opts=""
if [ -n "$steady" ]; then
    case $steady in
        *[!0-9]*|0) echo "mpi-overhead.sh: STEADY=$steady, expected a number of iterations > 0" >&2; exit 2 ;;
    esac
    extra="-i $steady -x $((steady / 3)) $extra"
    cprog_opts="-i $steady -x $((steady / 3))"
fi
transport=${TRANSPORT:-shm}
case $transport in
    inproc|shm|tcp) ;;
    *) echo "mpi-overhead.sh: TRANSPORT=$transport, expected inproc, shm or tcp" >&2; exit 2 ;;
esac
ops=${*:-pingpong allreduce}
bin=$root/bench/openmpi/build
out=$(mktemp -d)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for op in $ops; do
    case $op in
        pingpong|allreduce) ;;
        *) echo "mpi-overhead.sh: op=$op, expected pingpong or allreduce" >&2; exit 2 ;;
    esac
    r=1
    while [ "$r" -le "$runs" ]; do
        for api in tutti mpi; do
            name=$op
            [ "$api" = tutti ] || name=mpi-$op
            "$root/bin/tutti" bench "$name" -n "$ranks" --transport "$transport" \
                -m "$sizes" $extra --csv "$out/$op-$api-$r.csv" >/dev/null
        done
        if [ -x "$bin/pingpong" ] && command -v mpirun >/dev/null; then
            if [ "$op" = pingpong ]; then prog="$bin/pingpong"; else prog="$bin/coll allreduce"; fi
            # shellcheck disable=SC2086
            mpirun --allow-run-as-root --oversubscribe -n "$ranks" --mca btl self,vader $prog -m "$sizes" \
                $cprog_opts --impl openmpi-vader --csv "$out/$op-ompi-$r.csv" >/dev/null
        fi
        r=$((r + 1))
    done
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "op,bytes,tutti_us,mpi_us,mpi/tutti,openmpi_us,mpi/openmpi (transport $transport, best of $runs)"
for op in $ops; do
    for f in "$out/$op"-*.csv; do
        awk -F, -v op="$op" 'NR > 1 && $2 == op { print $1 "," $4 "," $5 }' "$f"
    done | awk -F, -v op="$op" -v tr="$transport" '
        { k = $2; if (!((($1) SUBSEP k) in b) || $3 < b[$1, k]) b[$1, k] = $3; sizes[k] = 1 }
        END { for (k in sizes) {
                  t = b["tutti-" tr, k]; m = b["tutti-mpi-" tr, k]; o = b["openmpi-vader", k]
                  if (t == "" || m == "") continue
                  printf "%s,%s,%.2f,%.2f,%.3f,%s,%s\n", op, k, t, m, m / t, (o == "" ? "-" : sprintf("%.2f", o)),
                      (o == "" ? "-" : sprintf("%.3f", m / o)) } }' |
        sort -t, -k2,2n
done
echo
echo "medians (bench/merge.py):"
python3 "$root/bench/merge.py" "$out"/*.csv
rm -rf "$out"
