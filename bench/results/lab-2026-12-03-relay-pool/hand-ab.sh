#!/usr/bin/env bash
# S at k = 0 over relays kept running (hand) against YARN's per-copy relays, alternating, on a kept lab.
set -euo pipefail
cd /work/lab-wt
export RELAYCP_BIN=/work/lab-wt/bin/relaycp
source bench/lab.d/common.sh
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
for round in ${ROUNDS:-1 2}; do
  for mode in hand yarn; do
    dir=/tmp/handyarn/$mode-$round; mkdir -p "$dir"
    log "round $round: $mode"
    LAB_RELAYS=$mode run_relaycp S 0 "$dir"
  done
done
stop_existing_relays
