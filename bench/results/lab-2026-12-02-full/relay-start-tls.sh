#!/usr/bin/env bash
# CPU of a relay started as the lab starts a spawned one (bin/relaycp relay), at "listening"
# and 4 s later, with TLS on (its identity made in the background) and off.
set -u
# Run from anywhere: SECRET_FILE=FILE bash bench/results/lab-2026-12-02-full/relay-start-tls.sh
for run in 1 2 3; do
for tls in true false; do
  out="${TMPDIR:-/tmp}/relay-start-tls.out"; : > $out
  JAVA_OPTS="-Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC" "$(dirname "$0")/../../../bin/relaycp" -D relaycp.relay.tls=$tls relay --port 0 --secret-file "${SECRET_FILE:?a 0600 file of 64 hex digits}" > $out 2>&1 &
  pid=$!
  t0=$(date +%s.%N)
  until grep -qs "listening on" $out; do sleep 0.02; kill -0 $pid 2>/dev/null || { cat $out; break; }; done
  t1=$(date +%s.%N)
  c1=$(awk -v hz=$(getconf CLK_TCK) '{printf "%.2f", ($14+$15)/hz}' /proc/$pid/stat)
  sleep 4
  c2=$(awk -v hz=$(getconf CLK_TCK) '{printf "%.2f", ($14+$15)/hz}' /proc/$pid/stat)
  kill -TERM $pid; wait $pid 2>/dev/null
  printf 'run %s tls=%s listen_s %.2f cpu_at_listen %s cpu_4s_later %s\n' $run $tls "$(echo "$t1 - $t0" | bc)" $c1 $c2
done; done
