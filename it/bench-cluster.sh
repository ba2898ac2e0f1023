#!/usr/bin/env bash
# Node-aware collectives across hosts: Tutti's hierarchical algorithms against its flat ones and against Open MPI,
# on the namespace cluster of it/cluster.sh (2 hosts x 2 ranks: shared memory within a host, TCP across the bridge),
# in one run, printed as a table of ratios. Needs root (the cluster) and Open MPI (mpicc, mpirun).
#
#   it/bench-cluster.sh [--quick] [-i ITERS] [-x WARMUP] [--ops "allreduce bcast"] [--sizes "8 65536 4194304"]
#                       [--out DIR] [--no-build] [--down]
#
# For each op and size, three runs of 4 ranks, each a separate job:
#   tutti-hier  bin/tutti run -n 4 -H h1:2,h2:2 --rsh "ssh -F ..." ... BenchWorker OP --transport auto
#               --algorithm hierarchical       (the setting tutti.coll.OP=hierarchical)
#   tutti-flat  the same with --algorithm flat  (the default choice without the node-aware algorithms)
#               (Tutti sees that the two hosts are one machine, their ranks' kernels having one boot id, and that its
#               4 ranks outnumber the 2 cores: its waits yield rather than spin, as Open MPI's below are told to)
#   openmpi     mpirun --host h1:2,h2:2 --mca btl tcp,self,vader --mca mpi_yield_when_idle 1 ... bench/openmpi coll OP
#               (as bench/compare.sh; the namespace hosts share this machine's cores, so the 4 ranks oversubscribe it;
#               --mca rtc_hwloc_vmhole none: a remote orted otherwise maps its hwloc topology into a hole it guesses in
#               its address space, and sometimes crashed there (SIGSEGV in hwloc_shmem_topology_write), so that
#               mpirun reported "ORTE was unable to reliably start one or more daemons")
# Ratios: hier/flat, hier/openmpi, flat/openmpi of avg_us (below 1: the first is faster).
# Defaults: the benchmarks' OSU iterations (1000 after 100 up to 8 KiB, 100 after 10 above); --quick: 50 after 5.
# The cluster is TUTTI_CLUSTER_ID (default 0), brought up with 2 hosts if it is not; --down removes it after.
# Results: DIR (default bench/results/cluster-<date-time>): one CSV and log per run, summary.txt.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ID="${TUTTI_CLUSTER_ID:-0}"
STATE="${TUTTI_CLUSTER_DIR:-/tmp/tutti-cluster$ID}"
PREFIX="10.77.$ID"
OPS="allreduce bcast"
SIZES="8 65536 4194304"
ITERS=""
WARMUP=""
OUT=""
BUILD=1
DOWN=0

usage() { sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
die() { echo "bench-cluster.sh: $*" >&2; exit 1; }
log() { printf '== %s\n' "$*" >&2; }

while (($#)); do
    case "$1" in
        --quick) ITERS="${ITERS:-50}"; WARMUP="${WARMUP:-5}"; shift ;;
        -i) ITERS="$2"; shift 2 ;;
        -x) WARMUP="$2"; shift 2 ;;
        --ops) OPS="$2"; shift 2 ;;
        --sizes) SIZES="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --down) DOWN=1; shift ;;
        -h|--help) usage 0 ;;
        *) echo "bench-cluster.sh: unknown argument '$1'" >&2; usage 2 ;;
    esac
done
for op in $OPS; do
    case "$op" in barrier|bcast|reduce|allreduce|allgather) ;; *) die "--ops: $op, expected barrier, bcast, reduce, allreduce or allgather" ;; esac
done
for s in $SIZES; do
    [[ "$s" =~ ^[0-9]+$ ]] && (( s > 0 && (s & (s - 1)) == 0 )) || die "--sizes: $s, expected powers of two"
done
[ "$(id -u)" = 0 ] || die "needs root (the namespace cluster)"
command -v mpirun >/dev/null && command -v mpicc >/dev/null \
    || die "needs Open MPI: apt-get install openmpi-bin libopenmpi-dev"

OUT="${OUT:-$ROOT/bench/results/cluster-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
BIN="$OUT/openmpi-bin"
COMMON=()
[[ -z "$ITERS" ]] || COMMON+=(-i "$ITERS")
[[ -z "$WARMUP" ]] || COMMON+=(-x "$WARMUP")

if ((BUILD)); then
    log "building tutti.jar (mvn package) and the Open MPI programs into $BIN"
    (cd "$ROOT" && { mvn -o -B -q -DskipTests package >&2 || mvn -B -q -DskipTests package >&2; })
fi
make -s -C "$ROOT/bench/openmpi" OUT="$BIN" >&2
JAR="$ROOT/tutti-cli/target/tutti.jar"
[ -f "$JAR" ] || die "$JAR is missing; run without --no-build"

TUTTI_CLUSTER_ID="$ID" "$ROOT/it/cluster.sh" up 2 >&2
H1="$PREFIX.2"
H2="$PREFIX.3"
SSH="ssh -F $STATE/ssh_config"
if ((DOWN)); then
    trap 'TUTTI_CLUSTER_ID="$ID" "$ROOT/it/cluster.sh" down' EXIT
fi

FAILED=()
# run NAME COMMAND...: one job, its output in NAME.log; a failure is noted and the run goes on.
run() {
    local name="$1"
    shift
    log "$name: $*"
    if ! { echo "# $(date -u +%H:%M:%SZ) load $(cut -d' ' -f1-3 /proc/loadavg)"; timeout 900 "$@"; } \
        >"$OUT/$name.log" 2>&1; then
        log "$name FAILED, see $OUT/$name.log"
        tail -n 5 "$OUT/$name.log" >&2
        FAILED+=("$name")
    fi
}

for op in $OPS; do
    for s in $SIZES; do
        for mode in hierarchical flat; do
            name="tutti-${mode:0:4}-$op-$s"
            run "$name" "$ROOT/bin/tutti" run -n 4 -H "$H1:2,$H2:2" --rsh "$SSH" --timeout 800 \
                -cp "$JAR" dev.tutti.bench.osu.BenchWorker "$op" -n 4 --transport auto --algorithm "$mode" \
                -m "$s:$s" ${COMMON[@]+"${COMMON[@]}"} --csv "$OUT/$name.csv"
        done
        name="openmpi-$op-$s"
        run "$name" mpirun --allow-run-as-root --oversubscribe -n 4 --host "$H1:2,$H2:2" \
            --mca plm_rsh_agent "$SSH" --mca btl tcp,self,vader --mca mpi_yield_when_idle 1 --mca rtc_hwloc_vmhole none \
            --mca btl_tcp_if_include "$PREFIX.0/24" --mca oob_tcp_if_include "$PREFIX.0/24" \
            "$BIN/coll" "$op" -m "$s:$s" ${COMMON[@]+"${COMMON[@]}"} --impl openmpi --csv "$OUT/$name.csv"
    done
done

{
    echo "# finished $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# 2 namespace hosts ($H1, $H2) x 2 ranks; ${COMMON[*]:-OSU default iterations}"
    echo "# $(mpirun --version 2>&1 | head -n 1)"
    python3 - "$OUT" "$OPS" "$SIZES" <<'PY'
import csv, os, sys
out, ops, sizes = sys.argv[1], sys.argv[2].split(), [int(s) for s in sys.argv[3].split()]
def avg(name):
    path = os.path.join(out, name + ".csv")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        rows = [r for r in csv.DictReader(f)]
    return float(rows[-1]["avg_us"]) if rows else None
def fmt(x):
    return "-" if x is None else f"{x:.1f}"
def ratio(a, b):
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}"
print(f"{'op':<10}{'bytes':>9}{'hier us':>11}{'flat us':>11}{'openmpi us':>12}{'hier/flat':>11}"
      f"{'hier/ompi':>11}{'flat/ompi':>11}")
for op in ops:
    for s in sizes:
        h, f, o = avg(f"tutti-hier-{op}-{s}"), avg(f"tutti-flat-{op}-{s}"), avg(f"openmpi-{op}-{s}")
        print(f"{op:<10}{s:>9}{fmt(h):>11}{fmt(f):>11}{fmt(o):>12}{ratio(h, f):>11}{ratio(h, o):>11}"
              f"{ratio(f, o):>11}")
PY
    if ((${#FAILED[@]})); then
        echo
        echo "failed runs (shown as -): ${FAILED[*]}"
    fi
} | tee "$OUT/summary.txt"
