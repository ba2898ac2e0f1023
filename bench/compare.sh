#!/usr/bin/env bash
# Tutti vs Open MPI on this machine, in one go: builds the Open MPI programs (bench/openmpi) and the Tutti
# benchmark (Maven), runs each op with Open MPI over shared memory (btl vader) and tcp, and with Tutti shm (ranks as
# processes), inproc (ranks as threads of one JVM) and tcp, merges the CSVs (impl,op,ranks,bytes,avg_us) and prints
# one table per op with the ratios tutti/openmpi (shm vs vader, inproc vs vader, tcp vs tcp).
#
#   bench/compare.sh [-n RANKS] [-m [MIN:]MAX] [-i ITERS] [-x WARMUP] [--quick] [--repeat N] [--per-size]
#                    [--wait-idle SECONDS] [--impls LIST] [--out DIR] [--plot DIR] [--no-build] [OP...]
#
# OP: pingpong bandwidth barrier bcast reduce allreduce allgather alltoall, "p2p" (the first two), "coll" (the six
# collectives) or "all" (default); also the build-once forms allreduce_init, alltoall_init (Open MPI: MPIX_..._init)
# and alltoall_channel (Tutti only), compared with their per-call form in a table of their own; scan, exscan,
# reduce_scatter and reduce_scatter_block; gather; and the vector forms gatherv, allgatherv, alltoallv and scatterv
# (every count the same, as OSU's). -m/-i/-x are passed to both sides (default: each benchmark's OSU defaults).
# --quick: sizes 8 B .. 1 MiB with 200 iterations after 20 warm-up ones (unless -m/-i/-x say otherwise).
# --repeat N: runs every (impl, op) N times, round-robin, and reports the median per size. With more ranks than
# cores Open MPI gets --mca mpi_yield_when_idle 1 (as Tutti switches to its oversubscribed idle strategy).
# --per-size: every size of -m (MIN, then doubling up to MAX; MIN 1 when not given) in a job of its own, the
# implementations one after the other per size: a JVM's JIT then compiles the paths of that size alone (in a sweep,
# a size's compiled code is what the sizes before it left), and the two runs that a cell's ratio compares ran
# seconds apart, mostly at the same one of the host's speed levels. Needs -m; -i/-x apply per job.
# --wait-idle S: before each run, wait up to S seconds for the CPUs to be >= 90% idle over 2 s, and run again (at
# most twice) if other processes took > 10% of the CPU during the run; each log notes both shares.
# --impls: a comma-separated subset of openmpi-vader,openmpi-tcp,tutti-shm,tutti-inproc,tutti-tcp (default: these
# five), and of openmpi-vader-mt, openmpi-tcp-mt (only when named): Open MPI initialized at MPI_THREAD_MULTIPLE, the
# guarantee Tutti always gives (any thread may call at any time); the plain ones run at MPI_Init's single-thread level,
# under which Open MPI takes no locks.
# Results go to DIR (default bench/results/<date-time>): one CSV and one log per run, merged.csv and summary.txt.
# --plot DIR: also draws each op (per number of ranks) into DIR/OP-RANKS.png: one curve per implementation, log-log,
# and the time ratio Tutti / Open MPI per size below (tutti bench plot); --plot FILE.png or .svg: all in one grid.
# A run that fails is reported and shows as "-" in the table.
#
# Needs: mpicc/mpirun (Debian openmpi-bin, libopenmpi-dev), Maven, python3, and a JDK >= 25 (found in JAVA_HOME,
# /usr/lib/jvm or PATH; JAVA_HOME need not be set). Environment: TUTTI_CP overrides the Tutti class path,
# MPIRUN_ARGS adds mpirun options, TUTTI_JAVA_OPTS adds JVM options (e.g. -Dtutti.idle.spins=100000).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RANKS=2
OUT=""
BUILD=1
COMMON=()
OPS=()
COLLECTIVES=(barrier bcast reduce allreduce allgather alltoall)

usage() { sed -n '2,33p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

REPEAT=1
PER_SIZE=0
PLOT=""
WAIT_IDLE=0
IMPLS=",openmpi-vader,openmpi-tcp,tutti-shm,tutti-inproc,tutti-tcp,"
QUICK=0
SIZES=""
ITERS=""
WARMUP=""
while (($#)); do
    case "$1" in
        -n) RANKS="$2"; shift 2 ;;
        -m) SIZES="$2"; shift 2 ;;
        -i) ITERS="$2"; shift 2 ;;
        -x) WARMUP="$2"; shift 2 ;;
        --quick) QUICK=1; shift ;;
        --repeat) REPEAT="$2"; shift 2 ;;
        --per-size) PER_SIZE=1; shift ;;
        --wait-idle) WAIT_IDLE="$2"; shift 2 ;;
        --impls) IMPLS=",$2,"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        --plot) PLOT="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        -h|--help) usage 0 ;;
        p2p) OPS+=(pingpong bandwidth); shift ;;
        coll) OPS+=("${COLLECTIVES[@]}"); shift ;;
        all) OPS+=(pingpong bandwidth "${COLLECTIVES[@]}"); shift ;;
        pingpong|bandwidth|barrier|bcast|reduce|allreduce|allgather|alltoall) OPS+=("$1"); shift ;;
        allreduce_init|alltoall_init|alltoall_channel) OPS+=("$1"); shift ;;
        gather|gatherv|allgatherv|alltoallv|scatterv|scan|exscan|reduce_scatter|reduce_scatter_block)
            OPS+=("$1"); shift ;;
        *) echo "compare.sh: unknown argument '$1'" >&2; usage 2 ;;
    esac
done
[[ "$REPEAT" =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: --repeat $REPEAT, expected N >= 1" >&2; exit 2; }
[[ "$WAIT_IDLE" =~ ^[0-9]+$ ]] || { echo "compare.sh: --wait-idle $WAIT_IDLE, expected SECONDS >= 0" >&2; exit 2; }
((${#OPS[@]})) || OPS=(pingpong bandwidth "${COLLECTIVES[@]}")
if ((QUICK)); then
    SIZES="${SIZES:-8:1048576}"
    ITERS="${ITERS:-200}"
    WARMUP="${WARMUP:-20}"
fi
LOOP=()
[[ -z "$ITERS" ]] || LOOP+=(-i "$ITERS")
[[ -z "$WARMUP" ]] || LOOP+=(-x "$WARMUP")
[[ -z "$SIZES" ]] || COMMON+=(-m "$SIZES")
COMMON+=(${LOOP[@]+"${LOOP[@]}"})
# The sizes of -m as the benchmarks step through them (0 is followed by 1, any other size by its double).
SIZE_LIST=()
if ((PER_SIZE)); then
    [[ "$SIZES" =~ ^(([0-9]+):)?([0-9]+)$ ]] \
        || { echo "compare.sh: --per-size needs -m [MIN:]MAX (got '${SIZES}')" >&2; exit 2; }
    max="${BASH_REMATCH[3]}"
    min="${BASH_REMATCH[2]:-$((max < 1 ? max : 1))}"
    ((min <= max)) || { echo "compare.sh: -m $SIZES: MIN above MAX" >&2; exit 2; }
    for ((s = min; s <= max; s = s == 0 ? 1 : 2 * s)); do
        SIZE_LIST+=("$s")
    done
fi
OUT="${OUT:-$ROOT/bench/results/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
BIN="$OUT/openmpi-bin"

log() { printf '== %s\n' "$*" >&2; }

# The newest java >= 25 among JAVA_HOME, /usr/lib/jvm/* and PATH (as the bin/tutti wrapper does).
find_java() {
    local best="" best_major=0 candidate version major
    for candidate in ${JAVA_HOME:+"$JAVA_HOME/bin/java"} /usr/lib/jvm/*/bin/java "$(command -v java || true)"; do
        [[ -n "$candidate" && -x "$candidate" ]] || continue
        version="$("$candidate" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)"
        major="${version%%[.+-]*}"
        [[ "$major" =~ ^[0-9]+$ ]] || continue
        if ((major >= 25 && major > best_major)); then
            best="$candidate"
            best_major="$major"
        fi
    done
    [[ -n "$best" ]] || { echo "compare.sh: no JDK >= 25 found (JAVA_HOME, /usr/lib/jvm, PATH)" >&2; exit 1; }
    echo "$best"
}

# The class path of the Tutti benchmark: TUTTI_CP, else a shaded tutti-cli jar that holds BenchCommand, else the
# tutti-bench jar plus its runtime dependencies as resolved by Maven in this reactor.
tutti_classpath() {
    if [[ -n "${TUTTI_CP:-}" ]]; then
        echo "$TUTTI_CP"
        return
    fi
    local jar
    for jar in "$ROOT"/tutti-cli/target/tutti.jar "$ROOT"/tutti-cli/target/tutti-cli-*.jar; do
        [[ -f "$jar" ]] || continue
        if python3 - "$jar" <<'PY'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
sys.exit(0 if {"dev/tutti/bench/osu/BenchCommand.class", "picocli/CommandLine.class"} <= names else 1)
PY
        then
            echo "$jar"
            return
        fi
    done
    local bench_jar
    bench_jar="$(ls "$ROOT"/tutti-bench/target/tutti-bench-*.jar 2>/dev/null | grep -v -e sources -e javadoc \
        | head -n 1)"
    [[ -f "$bench_jar" && -f "$ROOT/tutti-bench/target/classpath.txt" ]] || {
        echo "compare.sh: tutti-bench is not built; run without --no-build" >&2; exit 1; }
    echo "$bench_jar:$(cat "$ROOT/tutti-bench/target/classpath.txt")"
}

build() {
    log "building Open MPI programs into $BIN"
    make -s -C "$ROOT/bench/openmpi" OUT="$BIN" >&2
    log "building Tutti (mvn package, then the runtime class path of tutti-bench)"
    local goals=(-B -q -DskipTests package org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath
        -Dmdep.outputFile=target/classpath.txt -DincludeScope=runtime)
    (cd "$ROOT" && { mvn -o "${goals[@]}" >&2 || mvn "${goals[@]}" >&2; })
}

if ((BUILD)); then
    build
elif [[ ! -x "$BIN/pingpong" ]]; then
    make -s -C "$ROOT/bench/openmpi" OUT="$BIN" >&2
fi
JAVA="$(find_java)"
CP="$(tutti_classpath)"
log "java: $JAVA"
log "results: $OUT"
LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg)"

# Percent of CPU time idle over the next 2 seconds, from /proc/stat.
idle_percent() {
    local a b
    read -r -a a < <(head -n 1 /proc/stat)
    sleep 2
    read -r -a b < <(head -n 1 /proc/stat)
    local total=0 i
    for ((i = 1; i < ${#b[@]}; i++)); do
        total=$((total + b[i] - a[i]))
    done
    echo $(((100 * (b[4] + b[5] - a[4] - a[5])) / (total > 0 ? total : 1)))
}

# Waits up to WAIT_IDLE seconds for the machine to be quiet; prints the idle share it ended with.
wait_idle() {
    local deadline=$((SECONDS + WAIT_IDLE)) idle
    idle="$(idle_percent)"
    while ((idle < 90 && SECONDS < deadline)); do
        idle="$(idle_percent)"
    done
    echo "$idle"
}

# CPU ticks: "BUSY TOTAL" of the whole machine (/proc/stat), and the CPU time of this shell's finished children.
machine_ticks() {
    local a
    read -r -a a < <(head -n 1 /proc/stat)
    local total=0 i
    for ((i = 1; i < ${#a[@]}; i++)); do
        total=$((total + a[i]))
    done
    echo "$((total - a[4] - a[5])) $total"
}
children_ticks() {
    local f
    read -r -a f < <(sed 's/.*) //' "/proc/$$/stat")
    echo $((f[13] + f[14]))  # cutime + cstime (fields 16 and 17 of stat)
}

FAILED=()
NOISY=()
# run NAME LOGFILE COMMAND...: runs one benchmark, keeps its output, notes a failure and goes on. With
# --wait-idle it starts on a quiet machine, measures the CPU share that other processes took during the run
# (machine busy time minus this run's own CPU time) and runs again, up to twice, if that was above 10%.
run() {
    local name="$1" logfile="$2"
    shift 2
    local attempt rc others idle="not measured"
    for attempt in 1 2 3; do
        if ((WAIT_IDLE > 0)); then
            idle="$(wait_idle)% idle"
        fi
        log "$name ($idle, load $(cut -d' ' -f1 /proc/loadavg)): $*"
        local m0 c0 m1 c1
        read -r -a m0 < <(machine_ticks)
        c0="$(children_ticks)"
        rc=0
        { echo "# $(date -u +%H:%M:%SZ) $idle before, load $(cut -d' ' -f1-3 /proc/loadavg)"; "$@"; } \
            >"$logfile" 2>&1 || rc=$?
        read -r -a m1 < <(machine_ticks)
        c1="$(children_ticks)"
        others=$(((100 * (m1[0] - m0[0] - (c1 - c0))) / (m1[1] - m0[1] > 0 ? m1[1] - m0[1] : 1)))
        ((others >= 0)) || others=0
        echo "# other processes took ${others}% of the machine's CPU time during this run" >>"$logfile"
        cat "$logfile" >&2
        if ((rc || WAIT_IDLE == 0 || others <= 10)); then
            break
        fi
        log "$name: other processes took ${others}% of the CPU during the run; running it again"
    done
    if ((others > 10)); then
        NOISY+=("$name (${others}%)")
    fi
    if ((rc)); then
        log "$name FAILED (exit $rc), see $logfile"
        FAILED+=("$name")
    fi
}

MPIRUN=(mpirun --allow-run-as-root --oversubscribe -n "$RANKS")
if ((RANKS > $(nproc))); then
    # Oversubscribed: a rank that busy-polls takes the core from the rank it waits for.
    MPIRUN+=(--mca mpi_yield_when_idle 1)
fi
# shellcheck disable=SC2206
MPIRUN+=(${MPIRUN_ARGS:-})
# shellcheck disable=SC2206
JAVA_OPTS=(${TUTTI_JAVA_OPTS:-})

# One CSV and log per (impl, op, repetition), and with --per-size per size too (IMPL-OP-sBYTES[-rN]); repetitions
# go round-robin so that a burst of load elsewhere touches every implementation alike.
for ((rep = 1; rep <= REPEAT; rep++)); do
    suffix=""
    ((REPEAT == 1)) || suffix="-r$rep"
    for op in "${OPS[@]}"; do
        case "$op" in
            pingpong|bandwidth) prog=("$BIN/$op") ;;
            *) prog=("$BIN/coll" "$op") ;;
        esac
        job_sizes=("")
        ((PER_SIZE == 0)) || [[ "$op" == barrier ]] || job_sizes=("${SIZE_LIST[@]}")
        for size in "${job_sizes[@]}"; do
            args=(${COMMON[@]+"${COMMON[@]}"})
            tag=""
            if [[ -n "$size" ]]; then
                args=(-m "$size:$size" ${LOOP[@]+"${LOOP[@]}"})
                tag="-s$size"
            fi
            for variant in vader tcp vader-mt tcp-mt; do
                [[ "$IMPLS" == *",openmpi-$variant,"* && "$op" != alltoall_channel ]] || continue
                level=()
                [[ "$variant" != *-mt ]] || level=(--thread-multiple)
                name="openmpi-$variant-$op$tag$suffix"
                run "$name" "$OUT/$name.log" "${MPIRUN[@]}" --mca btl "self,${variant%-mt}" "${prog[@]}" \
                    ${args[@]+"${args[@]}"} ${level[@]+"${level[@]}"} --impl "openmpi-$variant" \
                    --csv "$OUT/$name.csv"
            done
            for transport in shm inproc tcp; do
                [[ "$IMPLS" == *",tutti-$transport,"* ]] || continue
                name="tutti-$transport-$op$tag$suffix"
                run "$name" "$OUT/$name.log" "$JAVA" ${JAVA_OPTS[@]+"${JAVA_OPTS[@]}"} \
                    -cp "$CP" dev.tutti.bench.osu.BenchCommand "$op" -n "$RANKS" --transport "$transport" \
                    ${args[@]+"${args[@]}"} --csv "$OUT/$name.csv"
            done
        done
    done
done

csvs=()
for f in "$OUT"/*.csv; do
    [[ -f "$f" && "$f" != "$OUT/merged.csv" ]] && csvs+=("$f")
done
{
    echo "# finished $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n), $(nproc) cores; ranks=$RANKS; ${COMMON[*]:-OSU defaults};" \
        "repeat=$REPEAT (median per size)$( ((PER_SIZE)) && echo "; a job per size")"
    echo "# mpirun: ${MPIRUN[*]}; java options: ${JAVA_OPTS[*]:-none}"
    echo "# java: $("$JAVA" -version 2>&1 | head -n 1); $(mpirun --version 2>&1 | head -n 1)"
    echo "# load average (1, 5, 15 min) at the start: $LOAD_START; at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    python3 "$ROOT/bench/merge.py" --merged "$OUT/merged.csv" ${csvs[@]+"${csvs[@]}"}
    if ((${#FAILED[@]})); then
        echo
        echo "failed runs (shown as -): ${FAILED[*]}"
    fi
    if ((${#NOISY[@]})); then
        echo
        echo "runs during which other processes took > 10% of the CPU: ${NOISY[*]}"
    fi
} | tee "$OUT/summary.txt"

if [[ -n "$PLOT" && -f "$OUT/merged.csv" ]]; then
    log "plots: $PLOT"
    "$JAVA" -cp "$CP" dev.tutti.bench.osu.BenchCommand plot -o "$PLOT" "$OUT/merged.csv" >&2 \
        || { echo "compare.sh: drawing the plots failed" >&2; exit 1; }
fi
