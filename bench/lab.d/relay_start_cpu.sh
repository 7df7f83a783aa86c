#!/usr/bin/env bash
# What one relay costs to start, as a YARN relay container starts it: RelayContainerMain in a
# lab datanode's namespace, with that host's Hadoop configuration, the lab's Hadoop class path,
# the credentials and settings a driver gives a container (ContainerLaunch.java) and the log
# set up as in a container, until it has announced its address on the site's HDFS. Prints wall seconds and the CPU seconds of
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
# A relay announces only inside a folder that exists (the transfer's staging folder under YARN),
# and follows its driver's heartbeat file there.
announce=/tmp/relay-start-cpu-$$
JOPTS=-Xmx192m host_java src-client org.apache.hadoop.fs.FsShell -mkdir -p \
  "hdfs://src-nn:8020$announce/relays" >/dev/null
JOPTS=-Xmx192m host_java src-client org.apache.hadoop.fs.FsShell -touchz \
  "hdfs://src-nn:8020$announce/heartbeat" >/dev/null
trap 'rm -rf "$work"; JOPTS=-Xmx192m host_java src-client org.apache.hadoop.fs.FsShell -rm -r -f \
  -skipTrash "hdfs://src-nn:8020$announce" >/dev/null 2>&1 || true' EXIT
# (log4j's complaint that this helper JVM has no appender is dropped; other errors are not.)
settings=$(java -cp "$jar:$LAB_DIR/lib/*" "$LAB_HOME/ContainerLaunch.java" "$work/tokens" \
  relaycp.relay.driver-timeout-seconds=60 2> >(grep -v '^log4j:' >&2))
for options in "$@"; do
  for run in $(seq "$runs"); do
    out="$work/relay.out"; : > "$out"
    mkdir -p "$work/logs"
    # shellcheck disable=SC2086
    NM_HOST=$host CONTAINER_ID=container_0_0000_01_00000$run HADOOP_TOKEN_FILE_LOCATION="$work/tokens" \
      RELAYCP_RELAY_SETTINGS=$settings LAB_PIDFILE="$work/pid" in_host "$host" java $options \
      -Dlog4j.configuration="file:$work/logs/syslog" \
      -Dlog4j.configuratorClass=dev.relaycp.cli.ContainerLogConfigurator \
      -cp "$jar:$LAB_DIR/lib/*:$LAB_DIR/hosts/$host/conf" dev.relaycp.cli.RelayContainerMain \
      "hdfs://src-nn:8020$announce/relays" "hdfs://src-nn:8020$announce/heartbeat" \
      > "$out" 2>&1 &
    started=$(date +%s.%N)
    until grep -qs "Announced" "$work/logs/syslog"; do
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
    kill "$pid"; wait 2>/dev/null || true; rm -f "$work/pid" "$work/logs/syslog"
  done
done
