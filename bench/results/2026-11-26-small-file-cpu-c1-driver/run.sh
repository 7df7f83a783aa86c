#!/bin/bash
set -x
cd /work/main && bin/relaycp --version >/dev/null 2>&1
for i in 1 2; do
  (cd /work/lab-wt && bin/relaycp bench small-files --files 3000 --runs 1) > /tmp/sf/before-$i.txt 2>&1
  (cd /work/main && bin/relaycp bench small-files --files 3000 --runs 1) > /tmp/sf/after-$i.txt 2>&1
  (cd /work/main && bin/relaycp bench small-files --files 3000 --runs 1 --driver-java-opts "-Xmx2g -XX:TieredStopAtLevel=1") > /tmp/sf/after-c1driver-$i.txt 2>&1
done
