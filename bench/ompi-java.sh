#!/bin/sh
# ompi-java.sh: the mpi layer (tutti-mpi) against Open MPI's own Java bindings, one program for both:
# bench/ompi-java/OmpiJavaBench.java, written against Open MPI's Java API, runs under `mpirun ... java` on Open
# MPI's bindings (shared memory, vader) and under `tutti run` on tutti-mpi (shared memory), interleaved, and the
# table gives the best time per size of each and the ratio tutti-mpi / ompi-java (< 1: Tutti is faster).
#
# Debian's libopenmpi3 ships the JNI half of Open MPI's bindings (libmpi_java.so) but no package ships their
# mpi.jar, so the script builds it from Open MPI's source for the installed version, downloaded once from
# deb.debian.org into bench/ompi-java/build (the Java sources only; nothing of it is part of Tutti).
#
#   bench/ompi-java.sh                          # pingpong and allreduce, 2 ranks, 8 B .. 64 KiB, 3 rounds
#   RUNS=5 SIZES=8:1024 bench/ompi-java.sh pingpong
#   ITERS=200 WARMUP=20 RUNS=1 bench/ompi-java.sh  # a smoke run
#
# Needs mpirun (apt-get install openmpi-bin libopenmpi-dev), curl, and a JDK 25 (found as bin/tutti finds it).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd -P)
runs=${RUNS:-3}
sizes=${SIZES:-8:65536}
iters=${ITERS:-20000}
warmup=${WARMUP:-2000}
ops=${*:-pingpong allreduce}
min=${sizes%%:*}
max=${sizes##*:}
build=$root/bench/ompi-java/build
mkdir -p "$build"

javac=
for home in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    if [ -n "$home" ] && [ -x "$home/bin/javac" ]; then
        v=$("$home/bin/javac" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
        if [ -n "$v" ] && [ "$v" -ge 25 ]; then javac=$home/bin/javac; break; fi
    fi
done
[ -n "$javac" ] || { echo "ompi-java.sh: no JDK 25 or newer with javac found (\$JAVA_HOME, /usr/lib/jvm/*)" >&2; exit 2; }
java=$(dirname "$javac")/java
command -v mpirun >/dev/null || { echo "ompi-java.sh: mpirun not found (apt-get install openmpi-bin)" >&2; exit 2; }
jni=$(find /usr/lib -name libmpi_java.so 2>/dev/null | head -n 1)
[ -n "$jni" ] || { echo "ompi-java.sh: libmpi_java.so not found (apt-get install libopenmpi-dev)" >&2; exit 2; }
version=$(mpirun --version 2>/dev/null | sed -n 's/.*Open MPI) \([0-9.]*\).*/\1/p' | head -n 1)

# Open MPI's mpi.jar from its Java sources, once per version.
jar=$build/ompi-$version-mpi.jar
if [ ! -f "$jar" ]; then
    tarball=$build/openmpi_$version.orig.tar.xz
    [ -f "$tarball" ] || curl -fsS -o "$tarball" \
        "http://deb.debian.org/debian/pool/main/o/openmpi/openmpi_$version.orig.tar.xz"
    rm -rf "$build/src" "$build/classes"
    mkdir -p "$build/src" "$build/classes"
    tar -xJf "$tarball" -C "$build/src" --wildcards '*/ompi/mpi/java/java/*.java'
    "$javac" -nowarn -d "$build/classes" "$build"/src/*/ompi/mpi/java/java/*.java
    (cd "$build/classes" && "$(dirname "$javac")/jar" cf "$jar" mpi)
fi
tutti_jar=$root/tutti-cli/target/tutti.jar
[ -f "$tutti_jar" ] || "$root/bin/tutti" --version >/dev/null # bin/tutti builds the jar when it is missing
rm -rf "$build/prog-ompi" "$build/prog-tutti"
"$javac" -d "$build/prog-ompi" -cp "$jar" "$root/bench/ompi-java/OmpiJavaBench.java"
"$javac" -d "$build/prog-tutti" -cp "$tutti_jar" "$root/bench/ompi-java/OmpiJavaBench.java"

out=$(mktemp -d)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for op in $ops; do
    case $op in
        pingpong|allreduce) ;;
        *) echo "ompi-java.sh: op=$op, expected pingpong or allreduce" >&2; exit 2 ;;
    esac
    r=1
    while [ "$r" -le "$runs" ]; do
        mpirun --allow-run-as-root --oversubscribe -n 2 --mca btl self,vader --mca mpi_yield_when_idle 1 \
            "$java" --enable-native-access=ALL-UNNAMED -Djava.library.path="$(dirname "$jni")" \
            -cp "$jar:$build/prog-ompi" OmpiJavaBench ompi-java "$op" "$min" "$max" "$iters" "$warmup" \
            >>"$out/$op.csv"
        "$root/bin/tutti" run -n 2 -cp "$tutti_jar:$build/prog-tutti" \
            OmpiJavaBench tutti-mpi "$op" "$min" "$max" "$iters" "$warmup" >>"$out/$op.csv"
        r=$((r + 1))
    done
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "op,bytes,ompi_java_us,tutti_mpi_us,tutti-mpi/ompi-java (2 ranks, shared memory, best of $runs)"
for op in $ops; do
    grep -E '^(ompi-java|tutti-mpi),' "$out/$op.csv" | awk -F, -v op="$op" '
        { k = $4; if (!(($1, k) in b) || $5 < b[$1, k]) b[$1, k] = $5; sizes[k] = 1 }
        END { for (k in sizes) { o = b["ompi-java", k]; t = b["tutti-mpi", k]
                  if (o == "" || t == "") continue
                  printf "%s,%s,%.2f,%.2f,%.3f\n", op, k, o, t, t / o } }' | sort -t, -k2,2n
done
rm -rf "$out"
