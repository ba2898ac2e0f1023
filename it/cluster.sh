#!/usr/bin/env bash
# A small "cluster" on this machine: N hosts, each a Linux network namespace with its own network stack, its own
# /dev/shm and its own sshd, joined by a bridge. No traffic leaves the machine (the bridge has no uplink and no
# route or NAT is set up). Needs root (ip netns, bridges, mount namespaces).
#
#   it/cluster.sh up [N]        build N hosts (default 2, at most 8); idempotent: an intact cluster is kept
#   it/cluster.sh down          stop every sshd and remove the namespaces, the bridge and the state directory
#   it/cluster.sh run H CMD...  run CMD inside host H (1..N): its network stack and its /dev/shm
#   it/cluster.sh ssh H CMD...  run CMD on host H through ssh, as tutti run does
#   it/cluster.sh status        print the hosts' addresses and whether each sshd answers; exit 1 if not up
#
# Several clusters may coexist: TUTTI_CLUSTER_ID=K (0..254, default 0) names cluster K. Its bridge tt<K>br has
# 10.77.K.1/24 in the initial namespace (where `tutti run` runs); its host i is the namespace tt<K>h<i> with
# 10.77.K.(i+1) on its eth0 (joined to the bridge by the veth pair tt<K>v<i>). Its state (keys, sshd configs, pid
# files, the ssh_config for clients) is in /tmp/tutti-cluster<K>, or TUTTI_CLUSTER_DIR.
# Remote ranks are started with: tutti run --rsh "ssh -F /tmp/tutti-cluster0/ssh_config" -H 10.77.0.2:2,10.77.0.3:2
set -euo pipefail

ID="${TUTTI_CLUSTER_ID:-0}"
case "$ID" in
    [0-9] | [1-9][0-9] | 1[0-9][0-9] | 2[0-4][0-9] | 25[0-4]) ;;
    *) echo "cluster.sh: TUTTI_CLUSTER_ID=$ID, expected 0..254" >&2; exit 2 ;;
esac
PREFIX="10.77.$ID"
STATE="${TUTTI_CLUSTER_DIR:-/tmp/tutti-cluster$ID}"
NS="tt${ID}h"      # namespaces tt0h1, tt0h2, ...
VETH="tt${ID}v"
BRIDGE="tt${ID}br"

die() { echo "cluster.sh: $*" >&2; exit 1; }

need_tools() {
    [ "$(id -u)" = 0 ] || die "needs root (ip netns, bridges, mount namespaces)"
    local missing=()
    command -v ip >/dev/null 2>&1 || missing+=(iproute2)
    [ -x /usr/sbin/sshd ] || missing+=(openssh-server)
    command -v ssh >/dev/null 2>&1 || missing+=(openssh-client)
    command -v unshare >/dev/null 2>&1 || missing+=(util-linux)
    [ ${#missing[@]} -eq 0 ] || die "${missing[*]} not installed (it/setup.sh installs them)"
}

addr() { echo "$PREFIX.$(( $1 + 1 ))"; }

# True when host i's sshd is running and its pid file names a live process.
sshd_alive() {
    local pid
    [ -s "$STATE/sshd$1.pid" ] || return 1
    pid=$(cat "$STATE/sshd$1.pid")
    kill -0 "$pid" 2>/dev/null
}

hosts_up() {
    [ -s "$STATE/hosts" ] && cat "$STATE/hosts" || echo 0
}

keys() {
    mkdir -p "$STATE"
    chmod 700 "$STATE"
    [ -s "$STATE/host_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C tutti-cluster-host -f "$STATE/host_ed25519"
    [ -s "$STATE/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C tutti-cluster-user -f "$STATE/id_ed25519"
    cp "$STATE/id_ed25519.pub" "$STATE/authorized_keys"
    chmod 600 "$STATE/authorized_keys"
    cat > "$STATE/ssh_config" <<EOF
Host *
    User root
    IdentityFile $STATE/id_ed25519
    IdentitiesOnly yes
    BatchMode yes
    StrictHostKeyChecking yes
    UserKnownHostsFile $STATE/known_hosts
    GlobalKnownHostsFile /dev/null
    ConnectTimeout 5
    LogLevel ERROR
EOF
    : > "$STATE/known_hosts"
}

up_host() {
    local i=$1 ns="$NS$1" a
    a=$(addr "$i")
    if ! ip netns list | grep -qw "^$ns"; then
        ip netns add "$ns"
    fi
    ip -n "$ns" link set lo up
    if ! ip link show "$VETH$i" >/dev/null 2>&1; then
        ip link add "$VETH$i" type veth peer name eth0 netns "$ns"
    fi
    ip link set "$VETH$i" master "$BRIDGE" up
    ip -n "$ns" addr replace "$a/24" dev eth0
    ip -n "$ns" link set eth0 up
    echo "$a $(awk '{print $1, $2}' "$STATE/host_ed25519.pub")" >> "$STATE/known_hosts"
    cat > "$STATE/sshd$i.conf" <<EOF
ListenAddress $a
Port 22
HostKey $STATE/host_ed25519
PidFile $STATE/sshd$i.pid
AuthorizedKeysFile $STATE/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
PrintMotd no
MaxStartups 100:30:200
MaxSessions 100
LogLevel ERROR
EOF
    if ! sshd_alive "$i"; then
        mkdir -p /run/sshd
        # Its own mount namespace with a private /dev/shm, so that ranks of different hosts do not see each
        # other's shared-memory files (they would otherwise talk shm, as ranks of one machine do). Root's shell
        # start-up files are hidden there, as on a fresh host: bash runs ~/.bashrc for every ssh command, and a
        # developer's (pyenv, conda) can take seconds per rank.
        ip netns exec "$ns" unshare --mount --propagation private sh -c '
            mount -t tmpfs -o mode=1777,size=512m tmpfs /dev/shm || exit 1
            for f in /root/.bashrc /root/.profile /root/.bash_profile; do
                [ -f "$f" ] && mount --bind /dev/null "$f"
            done
            exec /usr/sbin/sshd -f "$1" -E "$2"' sh "$STATE/sshd$i.conf" "$STATE/sshd$i.log"
    fi
}

cmd_up() {
    local n=${1:-2} i
    case "$n" in [1-8]) ;; *) die "up: hosts=$n, expected 1..8" ;; esac
    need_tools
    if [ "$(hosts_up)" = "$n" ] && cmd_status >/dev/null 2>&1; then
        cmd_status
        return 0
    fi
    [ "$(hosts_up)" = 0 ] || cmd_down
    keys
    if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
        ip link add "$BRIDGE" type bridge
    fi
    ip addr replace "$PREFIX.1/24" dev "$BRIDGE"
    ip link set "$BRIDGE" up
    # Bridged frames must not go through the host's iptables (br_netfilter may be loaded with a DROP policy).
    [ -w /proc/sys/net/bridge/bridge-nf-call-iptables ] && echo 0 > /proc/sys/net/bridge/bridge-nf-call-iptables
    for i in $(seq 1 "$n"); do
        up_host "$i"
    done
    echo "$n" > "$STATE/hosts"
    for i in $(seq 1 "$n"); do
        local tries=0
        until ssh -F "$STATE/ssh_config" "$(addr "$i")" true 2>/dev/null; do
            tries=$((tries + 1))
            [ $tries -lt 50 ] || die "sshd of host $i ($(addr "$i")) does not answer; see $STATE/sshd$i.log"
            sleep 0.1
        done
    done
    cmd_status
}

cmd_down() {
    local i pid
    for i in $(seq 1 8); do
        if [ -s "$STATE/sshd$i.pid" ]; then
            pid=$(cat "$STATE/sshd$i.pid")
            kill "$pid" 2>/dev/null || true
        fi
        # Whatever still runs in the namespace (ranks of a job that was not stopped) goes too.
        if ip netns list 2>/dev/null | grep -qw "^$NS$i"; then
            for pid in $(ip netns pids "$NS$i" 2>/dev/null); do
                kill -9 "$pid" 2>/dev/null || true
            done
            ip netns del "$NS$i"
        fi
        ip link del "$VETH$i" 2>/dev/null || true
    done
    ip link del "$BRIDGE" 2>/dev/null || true
    rm -rf "$STATE"
}

cmd_status() {
    local n i ok=0
    n=$(hosts_up)
    [ "$n" != 0 ] || { echo "cluster: down"; return 1; }
    echo "bridge $BRIDGE $PREFIX.1/24; ssh config $STATE/ssh_config"
    for i in $(seq 1 "$n"); do
        if sshd_alive "$i" && ssh -F "$STATE/ssh_config" "$(addr "$i")" true 2>/dev/null; then
            echo "host $i: $(addr "$i") namespace $NS$i sshd up"
        else
            echo "host $i: $(addr "$i") namespace $NS$i sshd DOWN"
            ok=1
        fi
    done
    return $ok
}

cmd_run() {
    local i=${1:?run: host number}
    shift
    [ -s "$STATE/sshd$i.pid" ] || die "run: host $i is not up"
    # Enter the network namespace and the mount namespace of the host's sshd (its private /dev/shm).
    nsenter --target "$(cat "$STATE/sshd$i.pid")" --net --mount -- "$@"
}

cmd_ssh() {
    local i=${1:?ssh: host number}
    shift
    exec ssh -F "$STATE/ssh_config" "$(addr "$i")" "$@"
}

case "${1:-}" in
    up) shift; cmd_up "$@" ;;
    down) cmd_down ;;
    status) cmd_status ;;
    run) shift; cmd_run "$@" ;;
    ssh) shift; cmd_ssh "$@" ;;
    *) echo "usage: $0 up [N] | down | status | run H CMD... | ssh H CMD..." >&2; exit 2 ;;
esac
