#!/usr/bin/env bash
# One relay hop memory to memory on loopback (JMH, RelayHopThroughput: the relay's own frame
# and message codecs, CRC32C on every frame, one TCP connection) against iperf3's single-stream
# loopback rate, measured one after the other in the same run on the same machine, so that
# their ratio means something on a noisy machine. Writes OUT/hop.json (JMH's own result),
# OUT/iperf3.json, OUT/iperf3-frame-writes.json and OUT/results.md.
#
#   bench/tools/relay-hop-vs-iperf3.sh OUT [IPERF3_SECONDS]
#   bench/tools/relay-hop-vs-iperf3.sh bench/results/2026-11-25-relay-hop-jmh 20
#
# Needs the relaycp-bench build (bin/relaycp --version makes it) and iperf3 (installed with
# apt-get when missing, as the WAN lab does).
set -euo pipefail
out=${1:?give an output folder}
seconds=${2:-20}
home=$(cd "$(dirname "$0")/../.." && pwd)
"$home/bin/relaycp" --version > /dev/null
if ! command -v iperf3 > /dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 > /dev/null 2>&1 \
    || { apt-get update -qq > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 > /dev/null; } \
    || { echo "iperf3 is missing and apt-get could not install it" >&2; exit 1; }
fi
mkdir -p "$out"
server=""
trap '[[ -z $server ]] || kill "$server" 2>/dev/null || true' EXIT
# iperf3 twice: as it runs by default (writes of 128 KiB), which is what issue 16 measures
# against, and with writes of the hop's frame size, the fairer of the two for the hop.
port=$((20000 + RANDOM % 20000))
iperf_command="iperf3 -c 127.0.0.1 -p $port -t $seconds -O 2 -J"
for write in default 262144; do
  iperf3 -s -1 -B 127.0.0.1 -p "$port" > /dev/null 2>&1 &
  server=$!
  sleep 0.5
  if [[ $write == default ]]; then
    $iperf_command > "$out/iperf3.json"
  else
    $iperf_command -l "$write" > "$out/iperf3-frame-writes.json"
  fi
  wait "$server" 2>/dev/null || true
  server=""
done

classpath="$home/relaycp-bench/target/relaycp-bench-0.1.0-SNAPSHOT.jar:$home/relaycp-bench/target/lib/*"
jmh_command="java -cp <relaycp-bench jar and target/lib> org.openjdk.jmh.Main RelayHopThroughput -rf json -rff $out/hop.json"
java -cp "$classpath" org.openjdk.jmh.Main RelayHopThroughput -rf json -rff "$out/hop.json" \
  | tee "$out/jmh.txt"

python3 - "$out" "$iperf_command" "$jmh_command" <<'PY'
import json, os, platform, sys
out, iperf_command, jmh_command = sys.argv[1:]
def received_mb(name):
    iperf = json.load(open(os.path.join(out, name)))
    return iperf["end"]["sum_received"]["bits_per_second"] / 8e6
iperf_mb = received_mb("iperf3.json")
frame_writes_mb = received_mb("iperf3-frame-writes.json")
hop = json.load(open(os.path.join(out, "hop.json")))[0]
transfer_bytes = 64 << 20  # RelayHopThroughput.TRANSFER_BYTES
ops, error = hop["primaryMetric"]["score"], hop["primaryMetric"]["scoreError"]
hop_mb, hop_error = ops * transfer_bytes / 1e6, error * transfer_bytes / 1e6
lines = [
    "# One relay hop against iperf3 on loopback",
    "",
    f"Machine: {os.cpu_count()} cores, {platform.platform()}; JMH {hop.get('jmhVersion', '?')}, "
    f"JVM {hop.get('vmVersion', '?')}.",
    "",
    "| what | MB/s (10^6 B/s) | command |",
    "|---|---|---|",
    f"| iperf3, one stream | {iperf_mb:.0f} | `{iperf_command}` |",
    f"| iperf3, one stream, writes of {hop['params']['frameBytes']} B | {frame_writes_mb:.0f} "
    f"| `{iperf_command} -l {hop['params']['frameBytes']}` |",
    f"| relay hop (JMH, frames of {hop['params']['frameBytes']} B) | {hop_mb:.0f} ± {hop_error:.0f} | `{jmh_command}` |",
    "",
    f"Ratio, hop over iperf3, in this run: **{hop_mb / iperf_mb:.2f}** (issue 16's target: at least 0.8);"
    f" over iperf3 writing frames of the hop's size: **{hop_mb / frame_writes_mb:.2f}**.",
    "",
]
open(os.path.join(out, "results.md"), "w").write("\n".join(lines))
print("\n".join(lines))
PY
