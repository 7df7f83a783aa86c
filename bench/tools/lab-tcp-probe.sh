#!/bin/bash
# Samples, every 3 s while the WAN lab runs, each datanode's TCP connections and HTB backlogs,
# to tell a copy bound by its links (a queue in the WAN class, bytes waiting in every socket)
# from one bound by its senders (empty queues, sockets with nothing unsent).
#
#   bench/tools/lab-tcp-probe.sh OUT &      # then run the lab; touch OUT/stop to end it
#   python3 bench/tools/lab-tcp-summary.py OUT NAME=HH:MM:SS-HH:MM:SS ...
#
# A source host's connections to the other site are listed; a destination host's to and from
# the datanode port (pipelines). Each sample is "== <epoch seconds> <namespace>", then one
# "class <id> <backlog bytes> <packets>" line per HTB class of eth0, then one line per
# connection: local, peer, send queue, rtt, unacked, notsent, bytes_acked, cwnd, snd_wnd,
# rcv_space, delivery rate, app_limited. Costs about 30 short processes every 3 s.
# A namespace can vanish between listing and sampling (a spawned host removed), so a failed
# sample is skipped, not fatal: no -e.
set -uo pipefail
out=${1:?usage: lab-tcp-probe.sh OUT}
prefix=${LAB_PREFIX:-rcl-}
other_net=${LAB_NET_DST:-10.77.2}.0/24
mkdir -p "$out"
while [[ ! -e $out/stop ]]; do
  ts=$(date +%s.%N)
  for ns in $(ip netns list | awk -v p="^${prefix}(src|dst)-(dn|sp)" '$1 ~ p {print $1}'); do
    if [[ $ns == "${prefix}src-"* ]]; then
      filter="dst $other_net"
    else
      filter="( dport = :9866 or sport = :9866 ) and not src 127.0.0.1"
    fi
    {
      echo "== $ts $ns"
      ip netns exec "$ns" tc -s class show dev eth0 2>/dev/null \
        | awk '/^class/{c=$3} /backlog/{print "class", c, $2, $3}'
      # shellcheck disable=SC2086  # the filter is ss's expression, word by word
      ip netns exec "$ns" ss -tinH $filter 2>/dev/null | awk '
        /^ESTAB/ { peer = $5; local = $4; sq = $3; next }
        {
          rtt = ""; cw = ""; sw = ""; rs = ""; ua = ""; ns = ""; al = ""; dr = ""; ba = ""
          for (i = 1; i <= NF; i++) {
            if ($i ~ /^rtt:/) rtt = $i
            if ($i ~ /^unacked:/) ua = $i
            if ($i ~ /^notsent:/) ns = $i
            if ($i ~ /^bytes_acked:/) ba = $i
            if ($i ~ /^cwnd:/) cw = $i
            if ($i ~ /^snd_wnd:/) sw = $i
            if ($i ~ /^rcv_space:/) rs = $i
            if ($i == "app_limited") al = "app_limited"
            if ($i == "delivery_rate") dr = $(i + 1)
          }
          print local, peer, "sendq=" sq, rtt, ua, ns, ba, cw, sw, rs, "dr=" dr, al
        }'
    } >> "$out/$ns.txt"
  done
  sleep 3
done
