#!/usr/bin/env bash
cd /work/main
A="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
B="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:Tier3InvocationThreshold=50 -XX:Tier3MinInvocationThreshold=20 -XX:Tier3CompileThreshold=500 -XX:Tier3BackEdgeThreshold=10000"
for round in 1 2; do
  for name in A B; do
    opts=${!name}
    echo "== $name round $round: $opts"
    bin/relaycp bench small-files --files 3000 --runs 1 --relay-java-opts "$opts" \
      --driver-java-opts "-Xmx2g -XX:TieredStopAtLevel=1" 2>/dev/null
  done
done
