#!/usr/bin/env bash
# A single-node Slurm on this machine, without systemd: munged, slurmctld and slurmd started by this script with a
# generated slurm.conf (one node, this host, with 4 CPUs whatever it has, so that srun -n 4 fits). Needs root.
#
#   it/slurm.sh up              write the config, start the daemons (slurm-wlm and munge: it/setup.sh)
#   it/slurm.sh down            stop the daemons this script started and remove the state directory
#   it/slurm.sh run CMD...      run CMD with SLURM_CONF set (e.g. it/slurm.sh run srun -n 4 hostname)
#   it/slurm.sh status          sinfo; exit 1 if the node is not up
#
# State (slurm.conf, spool, logs, pid files): /tmp/tutti-slurm, or TUTTI_SLURM_DIR. Ports: 6817 (slurmctld) and
# 6818 (slurmd), or TUTTI_SLURM_PORT and the port after it.
set -euo pipefail

STATE="${TUTTI_SLURM_DIR:-/tmp/tutti-slurm}"
PORT="${TUTTI_SLURM_PORT:-6817}"
CONF="$STATE/slurm.conf"
NODE=$(hostname -s)

die() { echo "slurm.sh: $*" >&2; exit 1; }

need_tools() {
    [ "$(id -u)" = 0 ] || die "needs root (slurmd runs jobs as their users)"
    if [ ! -x /usr/sbin/slurmctld ] || [ ! -x /usr/sbin/slurmd ] || [ ! -x /usr/sbin/munged ]; then
        die "slurm-wlm or munge is not installed (it/setup.sh installs them)"
    fi
}

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

write_conf() {
    mkdir -p "$STATE/ctld" "$STATE/d" "$STATE/munge"
    # MinJobAge=4: sbatch --wait polls every 2 s while its interval is below MinJobAge/2, else every 8 then 32 s
    # (a 7-second job took 42 s to report with MinJobAge=30); a finished job is kept 4 s for that poll to see it.
    cat > "$CONF" <<EOF
ClusterName=tutti
SlurmctldHost=$NODE
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$STATE/munge/munge.socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
KillWait=2
InactiveLimit=0
MinJobAge=4
NodeName=$NODE CPUs=4 State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
}

cmd_up() {
    need_tools
    if cmd_status >/dev/null 2>&1; then
        cmd_status
        return 0
    fi
    write_conf
    if ! alive "$STATE/munged.pid"; then
        [ -s /etc/munge/munge.key ] || { mkdir -p /etc/munge; dd if=/dev/urandom of=/etc/munge/munge.key bs=1k count=1 \
            2>/dev/null; chmod 400 /etc/munge/munge.key; chown munge: /etc/munge/munge.key 2>/dev/null || true; }
        /usr/sbin/munged --force --socket="$STATE/munge/munge.socket" --pid-file="$STATE/munged.pid" \
            --log-file="$STATE/munged.log" --seed-file="$STATE/munge/seed"
    fi
    alive "$STATE/slurmctld.pid" || SLURM_CONF="$CONF" /usr/sbin/slurmctld -f "$CONF"
    alive "$STATE/slurmd.pid" || SLURM_CONF="$CONF" /usr/sbin/slurmd -f "$CONF"
    local tries=0
    until SLURM_CONF="$CONF" sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; do
        tries=$((tries + 1))
        [ $tries -lt 100 ] || die "the node did not come up; see $STATE/*.log"
        sleep 0.2
    done
    cmd_status
}

cmd_down() {
    local f
    for f in slurmd slurmctld munged; do
        if alive "$STATE/$f.pid"; then
            kill "$(cat "$STATE/$f.pid")" 2>/dev/null || true
        fi
    done
    sleep 0.5
    rm -rf "$STATE"
}

cmd_status() {
    [ -s "$CONF" ] || { echo "slurm: down"; return 1; }
    alive "$STATE/slurmctld.pid" && alive "$STATE/slurmd.pid" || { echo "slurm: daemons not running"; return 1; }
    SLURM_CONF="$CONF" sinfo
    SLURM_CONF="$CONF" sinfo -h -o '%T' | grep -qE '^(idle|mixed|allocated)'
}

case "${1:-}" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    run) shift; SLURM_CONF="$CONF" exec "$@" ;;
    *) echo "usage: $0 up | down | status | run CMD..." >&2; exit 2 ;;
esac
