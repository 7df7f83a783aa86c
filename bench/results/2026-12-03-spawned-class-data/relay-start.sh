#!/usr/bin/env bash
# A spawned relay's start, from an image's class-data archive and without one, alternating:
# wall seconds and its JVM's CPU seconds until it prints that it listens. The relay runs as a
# spawned host runs it (the product jar on Hadoop's jars, a configuration folder after them),
# with the lab's spawned relays' JVM options; nothing else of ours running.
#
#   bench/results/2026-12-03-spawned-class-data/relay-start.sh [ROUNDS]
set -euo pipefail
rounds=${1:-3}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
jar=$repo/relaycp/target/relaycp-0.1.0-SNAPSHOT.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib" "$work/conf"
# Hadoop's jars as the lab's hosts have them (bench/lab.d/hadoop.sh, build_lib).
for j in "$repo"/relaycp-bench/target/lib/*.jar; do
  case $(basename "$j") in *-tests.jar|hadoop-minicluster-*|relaycp*) ;; *) ln -s "$j" "$work/lib/";; esac
done
cp "$repo/conf/log4j.properties" "$work/conf/"
openssl rand -hex 32 > "$work/secret"; chmod 600 "$work/secret"
opts="-Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
HADOOP_CLIENT_SKIP_UNJAR=true java -cp "$work/lib/*" org.apache.hadoop.util.RunJar "$jar" \
  relay-class-data "$work/image" --java-options "$opts" | sed 's/^/relay-class-data: /'
start() {  # start LABEL JVM-OPTIONS...
  local label=$1; shift
  mkfifo "$work/in"
  exec 7<>"$work/in"
  local t0; t0=$(date +%s.%N)
  java "$@" -cp "$jar:$work/lib/*:$work/conf" dev.relaycp.cli.Main relay --port 0 \
    --bind 127.0.0.1 --secret-file "$work/secret" --stop-on-stdin-eof < "$work/in" 7>&- \
    > "$work/out" 2>&1 &
  local pid=$!
  until grep -q "listening" "$work/out" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || { cat "$work/out"; exit 1; }; sleep 0.01
  done
  local t1; t1=$(date +%s.%N)
  local cpu; cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$pid/stat")
  printf '%-16s listening after %.2f s wall, %s CPU-s\n' "$label" "$(echo "$t1 - $t0" | bc)" "$cpu"
  exec 7>&-; wait "$pid"; rm -f "$work/in"
}
for round in $(seq "$rounds"); do
  # shellcheck disable=SC2086
  start "archive" $opts -XX:SharedArchiveFile="$work/image/relay.jsa" -Xshare:auto
  # shellcheck disable=SC2086
  start "no archive" $opts
done
