# Shared helpers for bench/lab. Sourced, never run.
# shellcheck shell=bash

LAB_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB_REPO=$(cd "$LAB_HOME/../.." && pwd)
# shellcheck source=lab.conf
LAB_DATANODES_GIVEN=${LAB_DATANODES:+yes}${LAB_SRC_DATANODES:+yes}${LAB_DST_DATANODES:+yes}
if [[ -n "${LAB_CONF:-}" ]]; then source "$LAB_CONF"; fi
source "$LAB_HOME/lab.conf"

log()  { printf '[lab %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die()  { printf '[lab] error: %s\n' "$*" >&2; exit 1; }

# The lab creates namespaces, links and qdiscs: only root can, and only where
# network namespaces work (not in every container).
require_root_netns() {
  if [[ $(id -u) -ne 0 ]]; then
    die "the WAN lab needs root (it creates network namespaces, veth links, bridges and tc qdiscs); run it as root"
  fi
  command -v ip >/dev/null || die "iproute2 ('ip') is not installed"
  command -v tc >/dev/null || die "'tc' (iproute2) is not installed"
  local probe="${LAB_PREFIX}probe$$"
  if ! ip netns add "$probe" 2>/tmp/lab-netns-err.$$; then
    local why; why=$(cat /tmp/lab-netns-err.$$); rm -f /tmp/lab-netns-err.$$
    die "'ip netns add' fails here, so network namespaces are not available: $why"
  fi
  rm -f /tmp/lab-netns-err.$$
  ip netns del "$probe"
}

# Site of a host name: src-dn1 -> src.
site_of() { echo "${1%%-*}"; }
other_site() { if [[ $1 == src ]]; then echo dst; else echo src; fi; }
site_net() { if [[ $1 == src ]]; then echo "$LAB_NET_SRC"; else echo "$LAB_NET_DST"; fi; }
ns_of() { echo "${LAB_PREFIX}$1"; }

# Fixed addresses: .1 router, .5 client, .10 NameNode, .11.. datanodes, .101.. spawned.
host_ip() {
  local h=$1 site net role; site=$(site_of "$h"); net=$(site_net "$site"); role=${h#*-}
  case $role in
    client) echo "$net.5" ;;
    nn)     echo "$net.10" ;;
    dn*)    echo "$net.$((10 + ${role#dn}))" ;;
    sp*)    echo "$net.$((100 + ${role#sp}))" ;;
    gw)     echo "$net.1" ;;
    *) die "unknown lab host '$h'" ;;
  esac
}

# Datanodes of one site: LAB_SRC_DATANODES or LAB_DST_DATANODES, else LAB_DATANODES.
datanode_count() {
  if [[ $1 == src ]]; then echo "${LAB_SRC_DATANODES:-$LAB_DATANODES}"
  else echo "${LAB_DST_DATANODES:-$LAB_DATANODES}"; fi
}

# The fixed hosts of one site, in start order.
site_hosts() {
  local s=$1
  echo "$s-nn"
  datanodes "$s"
  echo "$s-client"
}
all_hosts() { site_hosts src; site_hosts dst; }
datanodes() { local i n; n=$(datanode_count "$1"); for ((i = 1; i <= n; i++)); do echo "$1-dn$i"; done; }

# Run a command inside a lab host: its own network namespace, hosts file (ip netns
# exec binds /etc/netns/<ns>/hosts over /etc/hosts) and, through a UTS namespace,
# its own hostname, so Java's InetAddress.getLocalHost() answers the lab address.
in_host() {
  local h=$1; shift
  # With LAB_PIDFILE set, the shell records its pid, which exec hands to the command
  # (ip netns exec and unshare fork, so $! of the caller is not the daemon's pid).
  ip netns exec "$(ns_of "$h")" unshare --uts sh -c \
    'hostname "$0" && { [ -z "${LAB_PIDFILE:-}" ] || echo $$ > "$LAB_PIDFILE"; } && exec "$@"' "$h" "$@"
}

# Lab namespaces that exist now.
lab_namespaces() { ip netns list 2>/dev/null | awk '{print $1}' | grep "^${LAB_PREFIX}" || true; }
# Whether lab host $1's namespace exists now (a spawned host may be released at any time).
host_exists() { lab_namespaces | grep -qx "$(ns_of "$1")"; }
