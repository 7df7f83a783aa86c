#!/usr/bin/env bash
# The execution samples of JFR recordings, aggregated two ways: by the frame on top of the
# stack (where the CPU went) and by the first relaycp frame below it (which of relaycp's
# steps asked for it). Only Java code is sampled: JIT compilation, GC and the kernel are not.
#
#   bench/tools/jfr-top-frames.sh [-n ROWS] RECORDING.jfr...
#   bin/relaycp bench small-files --profile /tmp/p && bench/tools/jfr-top-frames.sh /tmp/p/driver-1/*.jfr
set -euo pipefail
rows=25
if [ "${1:-}" = "-n" ]; then rows=$2; shift 2; fi
(($# > 0)) || { echo "name at least one .jfr recording" >&2; exit 2; }
samples=$(mktemp)
trap 'rm -f "$samples"' EXIT
for recording in "$@"; do
  jfr print --stack-depth 64 --events jdk.ExecutionSample "$recording"
done > "$samples"
python3 - "$samples" "$rows" <<'PY'
import collections, re, sys
text = open(sys.argv[1]).read()
rows = int(sys.argv[2])
top, own, count = collections.Counter(), collections.Counter(), 0
for event in text.split('jdk.ExecutionSample')[1:]:
    frames = [re.sub(r'\(.*', '', frame)
              for frame in re.findall(r'^\s+([\w$.<>]+\(.*?\))\s+line:', event, re.M)]
    if not frames:
        continue
    count += 1
    top[frames[0]] += 1
    own[next((frame for frame in frames if frame.startswith('dev.relaycp.')), '(no relaycp frame)')] += 1
print(f"{count} samples")
for title, counter in (("top frame", top), ("first relaycp frame", own)):
    print(f"-- by {title}")
    for frame, samples in counter.most_common(rows):
        print(f"{100 * samples / count:5.1f}% {frame}")
PY
