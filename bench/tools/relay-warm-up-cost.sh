#!/usr/bin/env bash
# What a spawned relay's start costs on this machine: a relay started as the lab's spawned
# relays are (`relay --port 0 --warm-up SIZE`, TLS on, the JVM options given), timed from its
# start until it prints that it listens, with its JVM's CPU seconds (all threads: JIT and GC
# included) at that moment. Runs each launcher in turn, RUNS times, so that launchers built
# from different commits are compared in one run on the same machine.
#
#   bench/tools/relay-warm-up-cost.sh RUNS SIZE "JVM OPTIONS" LAUNCHER...
#   bench/tools/relay-warm-up-cost.sh 3 64MiB -Xmx384m /work/old/bin/relaycp bin/relaycp
set -euo pipefail
runs=${1:?runs} size=${2:?size} options=${3?jvm options}; shift 3
(($# > 0)) || { echo "name at least one relaycp launcher" >&2; exit 2; }
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"; chmod 600 "$work/secret"
hz=$(getconf CLK_TCK)
for run in $(seq "$runs"); do
  for launcher in "$@"; do
    out="$work/relay.out"; : > "$out"
    started=$(date +%s.%N)
    JAVA_OPTS="$options" "$launcher" relay --bind 127.0.0.1 --port 0 \
      --secret-file "$work/secret" --warm-up "$size" > "$out" 2>&1 &
    pid=$!; pids+=("$pid")
    # The launcher execs java, so $! is the JVM.
    until grep -q "^relaycp relay listening on" "$out"; do
      kill -0 "$pid" 2>/dev/null || { cat "$out" >&2; echo "the relay exited" >&2; exit 1; }
      sleep 0.02
    done
    ended=$(date +%s.%N)
    cpu=$(awk -v hz="$hz" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$pid/stat")
    printf '%s run %d: listening after %.2f s wall, %s CPU-s\n' "$launcher" "$run" \
      "$(echo "$ended - $started" | bc)" "$cpu"
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done
