#!/bin/bash
cd "$(dirname "$0")/../../.."
for round in 1 2; do
 for v in base serial; do
  extra=""; [ $v = serial ] && extra="-XX:+UseSerialGC"
  out=$(bin/relaycp bench small-files --files 3000 --runs 1 --driver-java-opts "-Xmx512m -XX:TieredStopAtLevel=1 $extra" --relay-java-opts "-Xmx384m -XX:TieredStopAtLevel=1 $extra" 2>&1 | grep "^run 1")
  echo "$v round $round: $out"
 done
done
