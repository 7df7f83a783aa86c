#!/usr/bin/env bash
cd /work/main
for round in 1 2; do
  for streams in 16 4 8; do
    echo "== parallel-streams $streams, round $round"
    bin/relaycp bench small-files --files 3000 --runs 1 --setting relaycp.relay.parallel-streams=$streams \
      --driver-java-opts "-Xmx2g -XX:TieredStopAtLevel=1" 2>/dev/null
  done
done
