#!/usr/bin/env bash
# Steady-state small-message latency over shared memory: Open MPI (btl self,vader) and Tutti (shm) ping-pong at
# 4 B and 1 KiB, 300,000 round trips after 100,000 warm-up ones, alternating, 3 runs each; prints every run's
# one-way latency in microseconds. Needs the Open MPI programs built by compare.sh (bench/openmpi, or OMPI_BIN)
# and tutti-cli/target/tutti.jar (mvn package).
#
#   bench/steady-pingpong.sh [ITERATIONS]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
IT="${1:-300000}"
OMPI_BIN="${OMPI_BIN:-$ROOT/bench/openmpi/build}"
[[ -x "$OMPI_BIN/pingpong" ]] || make -s -C "$ROOT/bench/openmpi" OUT="$OMPI_BIN" >&2
JAVA=""
for candidate in ${JAVA_HOME:+"$JAVA_HOME/bin/java"} /usr/lib/jvm/*/bin/java; do
    major="$("$candidate" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)"
    if [[ -n "$major" ]] && ((major >= 25)); then JAVA="$candidate"; break; fi
done
[[ -n "$JAVA" ]] || { echo "steady-pingpong.sh: no JDK >= 25 found" >&2; exit 1; }
declare -A R
for rep in 1 2 3; do
    for size in 4 1024; do
        R["openmpi-vader $size"]+="$(mpirun --allow-run-as-root --oversubscribe -n 2 --mca btl self,vader \
            "$OMPI_BIN/pingpong" -m "$size:$size" -i "$IT" -x 100000 | tail -n 1 | awk '{print $2}') "
        R["tutti-shm $size"]+="$("$JAVA" -cp "$ROOT/tutti-cli/target/tutti.jar" dev.tutti.bench.osu.BenchCommand \
            pingpong --transport shm -m "$size:$size" -i "$IT" -x 100000 | tail -n 1 | awk '{print $2}') "
    done
done
for k in "${!R[@]}"; do echo "$k B: ${R[$k]}"; done | sort
