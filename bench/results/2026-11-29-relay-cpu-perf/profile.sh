#!/usr/bin/env bash
# perf over the whole machine while bench small-files runs; relays keep a perf map at exit.
set -u
cd /work/main
out=${PROFILE_ROOT:-/tmp/prof}/$1; mkdir -p "$out"   # perf.data and the bench output
perf record -a -g -e cpu-clock -F 199 -o $out/perf.data > $out/perf.log 2>&1 &
echo $! > $out/perf.pid
bin/relaycp bench small-files --files ${FILES:-3000} --runs 1 \
  --relay-java-opts "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer" \
  --driver-java-opts "-Xmx2g -XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer" \
  > $out/bench.out 2> $out/bench.err
kill -INT $(cat $out/perf.pid); sleep 5
echo done
