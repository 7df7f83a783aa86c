#!/usr/bin/env bash
# perf -a around one relaycp S k=0 copy on the kept lab; relays and driver keep perf maps.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=/tmp/prof/$1; mkdir -p $out
cd /work/lab-wt
perf record -a -g -e cpu-clock -F 199 -o $out/perf.data > $out/perf.log 2>&1 &
echo $! > $out/perf.pid
LAB_RELAY_JAVA_OPTS="-Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer" \
LAB_COPY_JAVA_OPTS="-Xmx512m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer" \
  bash "$here/one-copy.sh" $out/copy > $out/copy.log 2>&1
kill -INT $(cat $out/perf.pid); sleep 5
echo done
