#!/usr/bin/env bash
# Installs the system components that some tests use, as Debian packages (apt-get, as root). The test suite never
# installs anything itself: where a component is missing, its tests skip and say which one and why.
#
#   it/setup.sh            install what is missing; silent when nothing is, one line per component it installs
#   it/setup.sh --check    only say what is missing
#
#   component    packages                                  tests that need it
#   mpirun       openmpi-bin                               MpirunTest, ReadmeMpirunTest, NamespaceClusterTest (mpirun)
#   ssh hosts    openssh-server openssh-client iproute2    NamespaceClusterTest (it/cluster.sh: network namespaces,
#                                                          an sshd in each; the tests also need root)
#   Slurm        slurm-wlm munge                           SlurmClusterTest (it/slurm.sh; the test also needs root)
#
# Idempotent: a component whose commands are all present is left alone. Exit status 0 when every component is
# present afterwards; 1 otherwise, after one line per component that could not be installed (apt-get's output is
# kept in a log file named there).
set -euo pipefail

CHECK=0
case "${1:-}" in
    "") ;;
    --check) CHECK=1 ;;
    -h | --help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "it/setup.sh: unknown argument '$1'" >&2; exit 2 ;;
esac

# Each component: its name, its packages, and the commands whose presence means it is installed.
COMPONENTS=(
    "mpirun|openmpi-bin|mpirun"
    "ssh hosts|openssh-server openssh-client iproute2|/usr/sbin/sshd ssh ssh-keygen ip ss unshare"
    "Slurm|slurm-wlm munge|/usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged srun sbatch sinfo"
)

present() {
    local c
    for c in $1; do
        if [[ "$c" == /* ]]; then
            [ -x "$c" ] || return 1
        else
            command -v "$c" >/dev/null 2>&1 || return 1
        fi
    done
}

missing=()
for entry in "${COMPONENTS[@]}"; do
    IFS='|' read -r name packages commands <<<"$entry"
    present "$commands" || missing+=("$entry")
done
[ ${#missing[@]} -gt 0 ] || exit 0

say_missing() {
    local entry name packages commands
    for entry in "${missing[@]}"; do
        IFS='|' read -r name packages commands <<<"$entry"
        echo "it/setup.sh: $name is missing ($1$packages); the tests that need it skip" >&2
    done
}

if [ $CHECK = 1 ]; then
    say_missing "install: "
    exit 1
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    say_missing "$([ "$(id -u)" != 0 ] && echo "needs root to install" || echo "no apt-get to install"): "
    exit 1
fi

LOG=$(mktemp /tmp/tutti-setup.XXXXXX.log)
export DEBIAN_FRONTEND=noninteractive
updated=0
failed=0
for entry in "${missing[@]}"; do
    IFS='|' read -r name packages commands <<<"$entry"
    echo "it/setup.sh: installing $name ($packages)" >&2
    # shellcheck disable=SC2086 # the package list is meant to split
    if ! apt-get install -y -qq $packages >>"$LOG" 2>&1; then
        # The package lists may be missing or stale (a fresh container has none): fetch them once, then retry.
        if [ $updated = 0 ]; then
            apt-get update -qq >>"$LOG" 2>&1 || true
            updated=1
        fi
        apt-get install -y -qq $packages >>"$LOG" 2>&1 || true
    fi
    if ! present "$commands"; then
        echo "it/setup.sh: could not install $name ($packages); the tests that need it skip; see $LOG" >&2
        failed=1
    fi
done
[ $failed = 1 ] || rm -f "$LOG"
exit $failed
