#!/usr/bin/env bash
# Two "hosts" on one machine: network namespaces joined by a veth pair, each with its own
# addresses and host name, and the data-parallel example run across them by Open MPI over TCP.
#
#   tests/distributed/netns_two_hosts.sh <program> [args...]
#
# mpirun starts in host 1 and reaches host 2 through an rsh agent that enters host 2's
# namespaces (where a cluster would use ssh). Needs root (ip netns, unshare); exits 77 (a
# skip, for ctest) with a message where namespaces cannot be made.
set -euo pipefail
program=$(realpath "$1")
shift

skip() { echo "netns_two_hosts: skipped: $*"; exit 77; }
command -v ip >/dev/null || skip "iproute2's ip is not installed"
command -v unshare >/dev/null || skip "unshare is not installed"
command -v mpirun >/dev/null || skip "Open MPI's mpirun is not installed"

suffix=$$
h1=tenet_h1_$suffix h2=tenet_h2_$suffix
work=$(mktemp -d)
cleanup() {
    ip netns del "$h1" 2>/dev/null || true
    ip netns del "$h2" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$h1" 2>/dev/null || skip "cannot create network namespaces here (ip netns add needs root and CAP_SYS_ADMIN)"
ip netns add "$h2"
ip link add "v1_$suffix" type veth peer name "v2_$suffix"
ip link set "v1_$suffix" netns "$h1"
ip link set "v2_$suffix" netns "$h2"
ip -n "$h1" addr add 10.231.0.1/24 dev "v1_$suffix"
ip -n "$h2" addr add 10.231.0.2/24 dev "v2_$suffix"
for h in "$h1" "$h2"; do
    ip -n "$h" link set lo up
done
ip -n "$h1" link set "v1_$suffix" up
ip -n "$h2" link set "v2_$suffix" up

# The rsh agent: `agent <host> <command...>` runs the command in that host's namespaces, with
# the host's own name (Open MPI tells nodes apart by name).
cat >"$work/agent" <<AGENT
#!/bin/sh
host=\$1
shift
case "\$host" in
    10.231.0.1) ns=$h1 name=tenet-host-1 ;;
    10.231.0.2) ns=$h2 name=tenet-host-2 ;;
    *) echo "agent: unknown host \$host" >&2; exit 1 ;;
esac
echo "\$name" >>"$work/launched"
exec ip netns exec "\$ns" unshare --uts sh -c "hostname \$name; \$*"
AGENT
chmod +x "$work/agent"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
# mpirun itself runs in host 1, as tenet-host-1; one process per host, TCP between them only
# (no shared memory: they are different hosts).
ip netns exec "$h1" unshare --uts sh -c "hostname tenet-host-1; exec mpirun \
    --host 10.231.0.1:1,10.231.0.2:1 -np 2 \
    --mca plm_rsh_agent $work/agent --mca btl tcp,self \
    --mca btl_tcp_if_include 10.231.0.0/24 --mca oob_tcp_if_include 10.231.0.0/24 \
    -x OMP_NUM_THREADS --tag-output $program $*" | tee "$work/out"
# The second host's daemon was started in its own namespaces, through the agent.
grep -qx tenet-host-2 "$work/launched" || { echo "netns_two_hosts: nothing was launched on host 2" >&2; exit 1; }
# Each rank printed its final weights: they must agree across the two hosts.
finals=$(grep -o 'b = [-0-9.]*, w\[0\] = [-0-9.]*' "$work/out" | sort -u | wc -l)
ranks=$(grep -c 'b = ' "$work/out")
if [[ "$ranks" != 2 || "$finals" != 1 ]]; then
    echo "netns_two_hosts: expected both ranks to print the same final weights" >&2
    exit 1
fi
echo "netns_two_hosts: 2 ranks on 2 hosts agree"
