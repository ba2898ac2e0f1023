#!/bin/sh
# trace-overhead.sh: what Tutti's Flight Recorder events cost: ping-pong and allreduce over shared memory
# with the events off (no tutti.jfr) and on (TUTTI_JFR, every rank recording, stacks as TUTTI_JFR_STACKS says:
# sampled unless set), and, given BASE_JAR (a tutti.jar built from another commit, e.g. main's), that build too; runs
# interleaved (base, off, on, base, ...), and the ratios of the best time per size: off/base (the events' cost when
# off) and on/off. The allreduces run back to back (tutti bench --back-to-back), as a program's loop makes them:
# OSU's untimed barrier between two timed calls would be an event of its own per call, which such a loop has not.
#
#   bench/trace-overhead.sh                               # pingpong (2 ranks), allreduce (4 and 2 ranks); 8 B, 1 KiB
#   SIZES="8 65536" bench/trace-overhead.sh               # other sizes, one job each
#   SPECS="allreduce:4" bench/trace-overhead.sh           # operations:ranks (allreduce and pingpong)
#   TUTTI_JFR_STACKS=on bench/trace-overhead.sh           # on: every call with its stack
#   BACK_TO_BACK=0 BASE_JAR=... bench/trace-overhead.sh   # OSU's barriers, for a BASE_JAR without --back-to-back
#   BASE_JAR=/tmp/main/tutti-cli/target/tutti.jar RUNS=5 bench/trace-overhead.sh
#   BENCH_OPTS='-i 20000 -x 2000' bench/trace-overhead.sh # options of tutti bench
#
# Runs through bin/tutti (which finds a JDK 25 and builds tutti.jar if it is missing); BASE_JAR runs on JAVA (a JDK
# 25 java; default: java on the PATH). Prints the load average before and after: numbers from a busy machine say
# little. bench/TraceOverhead.java measures the same on one rank, where a shared machine's noise shows much less.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd -P)
runs=${RUNS:-3}
sizes=${SIZES:-8 1024}
extra=${BENCH_OPTS:--i 10000 -x 1000}
base=${BASE_JAR:-}
specs=${SPECS:-pingpong:2 allreduce:4 allreduce:2}
out=$(mktemp -d)
modes="off on"
[ -n "$base" ] && modes="base off on"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
r=1
while [ "$r" -le "$runs" ]; do
    for spec in $specs; do
      for size in $sizes; do
        op=${spec%%:*}
        n=${spec#*:}
        opts=$extra
        [ "$op" = allreduce ] && [ "${BACK_TO_BACK:-1}" != 0 ] && opts="$extra --back-to-back"
        for mode in $modes; do
            csv="$out/$op-$mode-$r-$n-$size.csv"
            m="$size:$size"
            case $mode in
                base) env -u TUTTI_JFR "${JAVA:-java}" -jar "$base" bench "$op" -n "$n" --transport shm -m "$m" \
                          $opts --csv "$csv" >/dev/null ;;
                off) env -u TUTTI_JFR "$root/bin/tutti" bench "$op" -n "$n" --transport shm -m "$m" $opts \
                         --csv "$csv" >/dev/null ;;
                on) rm -rf "$out/jfr"
                    TUTTI_JFR="$out/jfr" "$root/bin/tutti" bench "$op" -n "$n" --transport shm -m "$m" $opts \
                        --csv "$csv" >/dev/null ;;
            esac
        done
      done
    done
    r=$((r + 1))
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "op,ranks,bytes,base_us,off_us,on_us,off/base,on/off"
for op in pingpong allreduce; do
    for f in "$out/$op"-*.csv; do
        [ -e "$f" ] || continue
        m=$(basename "$f" | cut -d- -f2)
        awk -F, -v op="$op" -v m="$m" '$2 == op { print m "," $3 "," $4 "," $5 }' "$f"
    done | awk -F, -v op="$op" '
        { k = $2 "," $3; if (!((($1) SUBSEP k) in b) || $4 < b[$1, k]) b[$1, k] = $4; keys[k] = 1 }
        END { for (k in keys) {
                  base = (("base") SUBSEP k) in b ? b["base", k] : 0
                  printf "%s,%s,%s,%.2f,%.2f,%s,%.2f\n", op, k, base ? sprintf("%.2f", base) : "",
                      b["off", k], b["on", k], base ? sprintf("%.2f", b["off", k] / base) : "", b["on", k] / b["off", k]
              } }' | sort -t, -k2,2nr -k3,3n
done
rm -rf "$out"
