#!/bin/bash
# Alternates the small-files bench between two builds.
cd /tmp/sf-ab
for round in 1 2; do
  for side in old new; do
    bin=/work/lab-wt/bin/relaycp; [ $side = new ] && bin=/work/main/bin/relaycp
    echo "== round $round $side $(date -u +%H:%M:%S)" >> order.txt
    $bin bench small-files --files 3000 --runs 1 > $side-$round.out 2> $side-$round.err
    echo "rc=$?" >> $side-$round.out
  done
done
echo done >> order.txt
