#!/bin/bash
cd /work/main
D="-Xmx512m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"; R="-Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CompileThresholdScaling=0.5"
for round in 1 2; do
for n in 32 96 12; do
  bin/relaycp bench small-files --files 3000 --runs 2 --setting relaycp.copy.chunks-in-flight-per-route=$n --driver-java-opts "$D" --relay-java-opts "$R" 2>&1 | grep "^run" | sed "s/^/inflight=$n r$round /"
done; done
