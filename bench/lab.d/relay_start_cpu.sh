#!/usr/bin/env bash
# What one relay costs to start, as a YARN relay container starts it: in a lab datanode's
# namespace, with that host's Hadoop configuration and the lab's Hadoop class path, until it
# has announced its address on the site's HDFS. Prints wall seconds and the CPU seconds of
# the relay's JVM (all its threads: JIT compilers and GC included), once per JVM option set.
# Needs the lab up (`bench/lab up`) and the product jar built.
#
#   bench/lab.d/relay_start_cpu.sh [RUNS] ["JVM OPTIONS" ...]
#   bench/lab.d/relay_start_cpu.sh 3 "-Xmx384m" "-Xmx384m -XX:TieredStopAtLevel=1"
#
# The relay runs from relaycp-relay.jar, the jar a container runs (RELAY_JAR=FILE for another
# build's, to compare two commits in one lab), with the class path in a container's order:
# jars, then the host's configuration. To start it from the class-data archive a YARN relay
# made on the host, name the NodeManager's cached jar and the archive:
#   RELAY_JAR=$LAB_DIR/hosts/src-dn1/nm-local/filecache/N/relaycp-relay-H.jar \
#     bench/lab.d/relay_start_cpu.sh 3 "-Xmx384m -XX:TieredStopAtLevel=1 -Xshare:on \
#     -XX:SharedArchiveFile=$LAB_DIR/hosts/src-dn1/nm-local/usercache/root/relaycp-class-data/relay-H.jsa"
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$LAB_HOME/hadoop.sh"
runs=${1:-3}; shift || true
(($# > 0)) || set -- "-Xmx384m" "-Xmx384m -XX:TieredStopAtLevel=1"
host=src-dn1
jar=${RELAY_JAR:-$LAB_REPO/relaycp/target/relaycp-relay.jar}
[[ -f $jar ]] || die "no relay jar at $jar; build relaycp first (./mvnw package -DskipTests)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"; chmod 600 "$work/secret"
# A relay announces only inside a folder that exists (the transfer's staging folder under YARN).
announce=/tmp/relay-start-cpu-$$
JOPTS=-Xmx192m host_java src-client org.apache.hadoop.fs.FsShell -mkdir -p \
  "hdfs://src-nn:8020$announce" >/dev/null
trap 'rm -rf "$work"; JOPTS=-Xmx192m host_java src-client org.apache.hadoop.fs.FsShell -rm -r -f \
  -skipTrash "hdfs://src-nn:8020$announce" >/dev/null 2>&1 || true' EXIT
for options in "$@"; do
  for run in $(seq "$runs"); do
    out="$work/relay.out"; : > "$out"
    # shellcheck disable=SC2086
    NM_HOST=$host LAB_PIDFILE="$work/pid" in_host "$host" java $options \
      -cp "$jar:$LAB_DIR/lib/*:$LAB_DIR/hosts/$host/conf" dev.relaycp.cli.Main relay --port 0 \
      --secret-file "$work/secret" --announce "hdfs://src-nn:8020$announce" \
      > "$out" 2>&1 &
    started=$(date +%s.%N)
    until grep -q "Announced" "$out"; do
      if [[ -s "$work/pid" ]] && ! kill -0 "$(cat "$work/pid")" 2>/dev/null; then
        cat "$out"; die "the relay exited"
      fi
      sleep 0.02
    done
    ended=$(date +%s.%N)
    pid=$(cat "$work/pid")
    cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$pid/stat")
    printf 'options [%s] run %d: announced after %.2f s wall, %s CPU-s\n' "$options" "$run" \
      "$(echo "$ended - $started" | bc)" "$cpu"
    kill "$pid"; wait 2>/dev/null || true; rm -f "$work/pid"
  done
done
