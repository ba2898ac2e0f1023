#!/bin/sh
# mpj-express.sh: tutti-mpj against MPJ Express itself, one program for both. MpjPortableBench
# (tutti-bench-mpj, MPJ Express's API alone: ping-pong of byte[] and allreduce of double[], 8 B .. 1 MiB) is compiled
# against the installation's lib/mpj.jar as Java 8 and that class file runs, 2 processes, under MPJ Express's
# mpjrun.sh (multicore: ranks as threads of one JVM) and under `bin/tutti mpjrun` (its default, ranks as threads),
# alternating who goes first, --rounds times; with --niodev also as processes (MPJ Express's niodev, booted on
# localhost with its mpjboot; tutti mpjrun -dev niodev). The table gives per device, op and size the median time per
# call of each over the rounds and the median over the rounds of the ratio tutti-mpj / MPJ Express (< 1: tutti-mpj
# is faster), with its smallest and largest value.
#
#   MPJ_HOME=/opt/mpj bench/mpj-express.sh                       # multicore, 3 rounds, full sizes
#   MPJ_HOME=/opt/mpj bench/mpj-express.sh --rounds 5 --niodev   # and processes over TCP
#   MPJ_HOME=/opt/mpj bench/mpj-express.sh --rounds 1 -- --quick -m 8:4096   # a smoke run
#
# Words after `--` go to the program (--blocks B, --calls N, --warmup W, -m MIN:MAX, --quick). MPJ Express runs on
# the `java` on PATH (as its mpjrun.sh does) and the program is compiled by the `javac` beside it ($JAVAC to choose
# another); tutti-mpj runs on the JDK 25 that bin/tutti finds. Build Tutti first (mvn -B -q -DskipTests package).
# Each job is stopped after $MPJ_BENCH_TIMEOUT seconds (default 900): a failed niodev rank leaves the others
# waiting. Raw outputs stay in the folder printed at the end.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd -P)
main=dev.tutti.bench.mpj.MpjPortableBench
source=$root/tutti-bench-mpj/src/main/java/dev/tutti/bench/mpj/MpjPortableBench.java
rounds=3
niodev=0
timeout_s=${MPJ_BENCH_TIMEOUT:-900}

usage() {
    sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
}

die() {
    echo "mpj-express.sh: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
        --rounds)
            [ $# -ge 2 ] || die "--rounds needs a value"
            case $2 in ''|*[!0-9]*|0) die "--rounds $2, expected a whole number >= 1" ;; esac
            rounds=$2
            shift 2 ;;
        --niodev) niodev=1; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) die "unknown argument $1, expected --rounds R, --niodev, --help or -- PROGRAM_ARGS" ;;
    esac
done

if [ -z "${MPJ_HOME:-}" ]; then
    die "MPJ_HOME is not set: set it to an MPJ Express installation, the folder holding lib/mpj.jar and \
bin/mpjrun.sh (export MPJ_HOME=/path/to/mpj, as MPJ Express's README says)"
fi
[ -d "$MPJ_HOME" ] || die "MPJ_HOME=$MPJ_HOME is not a folder, expected an MPJ Express installation"
for f in lib/mpj.jar lib/starter.jar bin/mpjrun.sh; do
    [ -f "$MPJ_HOME/$f" ] || die "MPJ_HOME=$MPJ_HOME has no $f, expected an MPJ Express installation"
done
if [ "$niodev" = 1 ]; then
    for f in bin/mpjboot bin/mpjhalt lib/daemonmanager.jar; do
        [ -f "$MPJ_HOME/$f" ] || die "--niodev: MPJ_HOME=$MPJ_HOME has no $f, needed to start MPJ Express's daemon"
    done
fi
[ -f "$root/tutti-mpj/target/classes/mpi/MPI.class" ] && [ -f "$root/tutti-cli/target/tutti.jar" ] \
    || die "Tutti is not built: run mvn -B -q -DskipTests package in $root first"
javac=${JAVAC:-javac}
command -v "$javac" >/dev/null 2>&1 || die "no javac on PATH (set JAVAC to a JDK's javac)"
command -v java >/dev/null 2>&1 || die "no java on PATH (MPJ Express's mpjrun.sh runs java from PATH)"

work=$(mktemp -d "${TMPDIR:-/tmp}/mpj-express.XXXXXX")
mkdir -p "$work/classes" "$work/out"
"$javac" --release 8 -Xlint:-options -nowarn -cp "$MPJ_HOME/lib/mpj.jar" -d "$work/classes" "$source" \
    || die "MpjPortableBench does not compile against $MPJ_HOME/lib/mpj.jar"
printf 'localhost\n' > "$work/machines"

booted=0
cleanup() {
    if [ "$booted" = 1 ]; then
        (cd "$work" && "$MPJ_HOME/bin/mpjhalt" "$work/machines") >"$work/out/mpjhalt.txt" 2>&1 || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$niodev" = 1 ]; then
    (cd "$work" && "$MPJ_HOME/bin/mpjboot" "$work/machines") >"$work/out/mpjboot.txt" 2>&1 \
        || die "mpjboot failed (its output: $work/out/mpjboot.txt)"
    booted=1
fi

# run IMPL DEVICE ROUND PROGRAM_ARGS...: one job; its result lines go to $work/out/IMPL-DEVICE-ROUND.txt.
run() {
    rimpl=$1 rdev=$2 rround=$3
    shift 3
    out=$work/out/$rimpl-$rdev-$rround.txt
    case $rimpl-$rdev in
        mpje-multicore) set -- "$MPJ_HOME/bin/mpjrun.sh" -np 2 -cp "$work/classes" "$main" "$@" ;;
        mpje-niodev) set -- "$MPJ_HOME/bin/mpjrun.sh" -np 2 -dev niodev -machinesfile "$work/machines" \
            -cp "$work/classes" "$main" "$@" ;;
        tutti-multicore) set -- "$root/bin/tutti" mpjrun -np 2 \
            -cp "$root/tutti-mpj/target/classes:$work/classes" "$main" "$@" ;;
        tutti-niodev) set -- "$root/bin/tutti" mpjrun -np 2 -dev niodev \
            -cp "$root/tutti-mpj/target/classes:$work/classes" "$main" "$@" ;;
    esac
    echo "$rimpl $rdev round $rround: $*" >&2
    status=0
    (cd "$work" && timeout "$timeout_s" "$@") >"$out" 2>&1 || status=$?
    # mpjrun.sh exits 0 whatever its ranks did: a run counts if it printed as many results as the first run did
    # and none of the program's own exceptions (a wrong result, a bad argument).
    lines=$(grep -c '^mpjbench ' "$out" || true)
    [ -n "$expected" ] || expected=$lines
    if [ "$status" != 0 ] || [ "$lines" = 0 ] || [ "$lines" != "$expected" ] \
        || grep -q 'Illegal\(State\|Argument\)Exception' "$out"; then
        tail -n 20 "$out" >&2
        die "$rimpl $rdev round $rround failed (status $status, $lines result lines; output: $out)"
    fi
}
expected=

devices=multicore
[ "$niodev" = 1 ] && devices="multicore niodev"
r=1
while [ "$r" -le "$rounds" ]; do
    for dev in $devices; do
        if [ $((r % 2)) = 1 ]; then first=mpje second=tutti; else first=tutti second=mpje; fi
        run "$first" "$dev" "$r" "$@"
        run "$second" "$dev" "$r" "$@"
    done
    r=$((r + 1))
done

version=$(sed -n 's/^mpjexpress\.version *= *//p' "$MPJ_HOME/conf/mpjexpress.conf" 2>/dev/null || true)
echo
echo "MPJ Express ${version:-(no mpjexpress.version in conf/mpjexpress.conf)} at $MPJ_HOME," \
    "$(java -version 2>&1 | head -n 1);"
echo "tutti-mpj $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '(no git)'); $rounds rounds;" \
    "$(uptime | sed 's/.*load/load/')"
echo
for dev in $devices; do
    for f in "$work"/out/*-"$dev"-*.txt; do
        base=${f##*/}
        impl=${base%%-*}
        round=${base##*-}
        round=${round%.txt}
        sed -n "s/^mpjbench /$impl $round /p" "$f"
    done | awk -v dev="$dev" '
        function median(a, n,   i, j, t) {
            for (i = 2; i <= n; i++) {
                t = a[i]
                for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
                a[j + 1] = t
            }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        {
            key = $3 " " $4; t[$1, $2, key] = $5; rounds[$2] = 1
            if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
        }
        END {
            printf "%s:\n\n", dev
            print "| op | bytes | MPJ Express us | tutti-mpj us | tutti-mpj / MPJ Express | range |"
            print "|---|---:|---:|---:|---:|---|"
            faster = 0
            for (k = 1; k <= nk; k++) {
                key = keys[k]; n = 0
                for (r in rounds) {
                    if ((("mpje", r, key) in t) && (("tutti", r, key) in t)) {
                        n++; m[n] = t["mpje", r, key]; u[n] = t["tutti", r, key]; q[n] = u[n] / m[n]
                    }
                }
                if (n == 0) continue
                lo = q[1]; hi = q[1]
                for (i = 2; i <= n; i++) { if (q[i] < lo) lo = q[i]; if (q[i] > hi) hi = q[i] }
                ratio = median(q, n)
                if (ratio < 1) faster++
                split(key, kp, " ")
                printf "| %s | %d | %.2f | %.2f | %.2f | %.2f-%.2f |\n",
                    kp[1], kp[2], median(m, n), median(u, n), ratio, lo, hi
            }
            printf "\ntutti-mpj faster (median ratio < 1) at %d of %d op-sizes on %s\n\n", faster, nk, dev
        }'
done
echo "raw outputs: $work/out"
