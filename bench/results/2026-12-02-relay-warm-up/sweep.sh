#!/bin/bash
# Fresh relays' copy CPU against the files their routes carry: `bench small-files` at several
# tree sizes, each run with fresh relay pairs (3) and a fresh driver. Two sweeps, as run:
#   sweep 1: 150 ... 4800 files, 2 runs each (14:18-14:33 UTC)
#   sweep 2: 6 ... 150 files, 3 runs each (14:31-14:38 UTC)
# then: python3 fit.py runs.txt
set -euo pipefail
for n in 150 300 600 1200 2400 4800; do
  bin/relaycp bench small-files --files "$n" --runs 2 | grep '^run' | sed 's/^/[sweep 1] /'
done
for n in 6 30 90 150; do
  bin/relaycp bench small-files --files "$n" --runs 3 | grep '^run' | sed 's/^/[sweep 2] /'
done
