# Network half of the lab: namespaces, bridges, router, hosts files, HTB caps.
# shellcheck shell=bash

# Topology (nothing in the machine's own namespace):
#
#   rcl-src-nn ─┐                                      ┌─ rcl-dst-nn
#   rcl-src-dnN ├─ br0 in rcl-sw-src ── rcl-router ── br0 in rcl-sw-dst ┤ rcl-dst-dnN
#   rcl-src-client ┘   (10.77.1.0/24)    (.1 each side)   (10.77.2.0/24) └─ rcl-dst-client
#
# Each host has eth0 (veth) whose peer p-<host> is a port of its site's bridge.
# The caps sit on those two ends: eth0 egress shapes what the host sends, the
# bridge port's egress shapes what it receives.

SW_SRC=${LAB_PREFIX}sw-src
SW_DST=${LAB_PREFIX}sw-dst
ROUTER=${LAB_PREFIX}router

sw_of() { if [[ $1 == src ]]; then echo "$SW_SRC"; else echo "$SW_DST"; fi; }

net_core_up() {
  local s ns
  for ns in "$SW_SRC" "$SW_DST" "$ROUTER"; do
    ip netns add "$ns"
    ip -n "$ns" link set lo up
  done
  ip netns exec "$ROUTER" sysctl -qw net.ipv4.ip_forward=1
  for s in src dst; do
    ns=$(sw_of "$s")
    ip -n "$ns" link add br0 type bridge
    ip -n "$ns" link set br0 up
    # Router leg: r-<site> in the router (the site's gateway), up-link on the bridge.
    ip link add "r-$s" netns "$ROUTER" type veth peer name uplink netns "$ns"
    ip -n "$ns" link set uplink master br0
    ip -n "$ns" link set uplink up
    ip -n "$ROUTER" addr add "$(site_net "$s").1/24" dev "r-$s"
    ip -n "$ROUTER" link set "r-$s" up
  done
}

# The hosts file every lab namespace sees as /etc/hosts. Spawn slots are listed
# in advance so a relay host spawned later resolves everywhere without edits.
write_hosts_file() {
  local f=$1 s h i
  {
    echo "127.0.0.1 localhost"
    echo "# relaycp WAN lab: names of the lab's own hosts only"
    for s in src dst; do
      for h in $(site_hosts "$s"); do echo "$(host_ip "$h") $h"; done
      for ((i = 1; i <= LAB_SPAWN_SLOTS; i++)); do echo "$(host_ip "$s-sp$i") $s-sp$i"; done
    done
  } > "$f"
}

# Create one host namespace joined to its site's bridge and shape it.
# Args: host [ve_mbit [vi_mbit]]
net_add_host() {
  net_add_namespace "$1"
  net_attach_host "$@"
}

# A host's namespace with only its loopback: processes can start in it, unreachable.
net_add_namespace() {
  local h=$1 ns
  ns=$(ns_of "$h")
  mkdir -p "/etc/netns/$ns"
  write_hosts_file "/etc/netns/$ns/hosts"
  ip netns add "$ns"
  ip -n "$ns" link set lo up
}

# A host's MAC address, made from its IP address (02:00 and the four bytes: locally
# administered). A spawned host gets the IP of the slot it fills, and the same slot is used
# again by the next run; with a fresh random MAC each time, the router and the other hosts
# would keep sending its frames to the last run's MAC until their neighbour entries aged out
# (10-14 s of silence, seen as spawned pairs joining late in runs that reused a slot). A
# cloud network resolves a reused address at once, so the lab must too.
host_mac() {
  local a b c d
  IFS=. read -r a b c d <<< "$(host_ip "$1")"
  printf '02:00:%02x:%02x:%02x:%02x\n' "$a" "$b" "$c" "$d"
}

# Joins a host's namespace to its site: veth to the bridge, address, route, caps.
net_attach_host() {
  local h=$1 ve=${2:-$LAB_VE_MBIT} vi=${3:-$LAB_VI_MBIT}
  local s ns sw ip peer
  s=$(site_of "$h"); ns=$(ns_of "$h"); sw=$(sw_of "$s"); ip=$(host_ip "$h"); peer="p-$h"
  ip link add eth0 netns "$ns" address "$(host_mac "$h")" type veth peer name "$peer" netns "$sw"
  ip -n "$sw" link set "$peer" master br0
  ip -n "$sw" link set "$peer" up
  ip -n "$ns" addr add "$ip/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" route add default via "$(site_net "$s").1"
  shape "$ns" eth0 dst "$s" "$ve" "$vi"
  shape "$sw" "$peer" src "$s" "$ve" "$vi"
  echo "$h $ve $vi" >> "$LAB_DIR/hosts.caps"
}

# HTB on one device: 1:1 is the link (v_i); 1:10 in-site traffic (default class),
# 1:20 traffic to/from the other site, capped at v_e. `dir` says which address of
# a packet names the far end: dst on the host's egress, src on the bridge port's.
shape() {
  local ns=$1 dev=$2 dir=$3 site=$4 ve=$5 vi=$6 other
  other="$(site_net "$(other_site "$site")").0/24"
  local rest=$((vi > ve ? vi - ve : 1))
  ip netns exec "$ns" tc qdisc add dev "$dev" root handle 1: htb default 10
  ip netns exec "$ns" tc class add dev "$dev" parent 1: classid 1:1 htb rate "${vi}mbit" ceil "${vi}mbit" quantum 30000
  ip netns exec "$ns" tc class add dev "$dev" parent 1:1 classid 1:10 htb rate "${rest}mbit" ceil "${vi}mbit" quantum 30000
  ip netns exec "$ns" tc class add dev "$dev" parent 1:1 classid 1:20 htb rate "${ve}mbit" ceil "${ve}mbit" quantum 30000
  ip netns exec "$ns" tc filter add dev "$dev" parent 1: protocol ip prio 1 u32 match ip "$dir" "$other" flowid 1:20
}

net_up() {
  local h
  net_core_up
  for h in $(all_hosts); do net_add_host "$h"; done
}

# Remove a spawned host (namespace, its veth goes with it, hosts file dir).
net_del_host() {
  local ns pids; ns=$(ns_of "$1")
  # Deleting a namespace does not end its processes: stop them first.
  pids=$(ip netns pids "$ns" 2>/dev/null || true)
  if [[ -n $pids ]]; then
    # shellcheck disable=SC2086  # one pid per word
    kill $pids 2>/dev/null || true
    # Up to 2 s for them to end (a relay stops in well under one), as a VM's terminate call
    # returns at once: a fixed wait would count in the time of every copy that releases hosts.
    for _ in $(seq 20); do
      pids=$(ip netns pids "$ns" 2>/dev/null || true)
      [[ -z $pids ]] && break
      sleep 0.1
    done
    # shellcheck disable=SC2086
    [[ -z $pids ]] || kill -9 $pids 2>/dev/null || true
  fi
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "/etc/netns/$ns"
}

# Everything the network half made; safe when nothing is there.
net_down() {
  local ns
  for ns in $(lab_namespaces); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
  done
  # Hosts-file dirs of namespaces that vanished on their own.
  rm -rf /etc/netns/"${LAB_PREFIX}"* 2>/dev/null || true
  rmdir /etc/netns 2>/dev/null || true
}

net_status() {
  local ns
  echo "namespaces:"
  lab_namespaces | sed 's/^/  /'
  for ns in $(lab_namespaces); do
    case $ns in "$SW_SRC"|"$SW_DST"|"$ROUTER") continue ;; esac
    local line
    line=$(ip netns exec "$ns" tc -s class show dev eth0 2>/dev/null | awk '/class htb 1:20/{c=1} c&&/Sent/{print $2; exit}')
    printf '  %-20s %-12s sent-to-other-site=%s bytes\n' "$ns" "$(ip -n "$ns" -4 -o addr show dev eth0 2>/dev/null | awk '{print $4}')" "${line:-?}"
  done
}
