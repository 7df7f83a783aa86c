#!/usr/bin/env bash
# S at k = 0 through a relay pool against YARN's per-copy relays, alternating, with the
# expert DistCp before and after, on a kept lab (one build).
set -euo pipefail
cd /work/lab-wt
export RELAYCP_BIN=/work/lab-wt/bin/relaycp
source bench/lab.d/common.sh
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
AB=${AB_DIR:-/tmp/poolab}
# The new build's relay jar staged and its class-data archives made, in no compared copy.
mkdir -p "$AB/warm"; LAB_RELAYS=yarn run_relaycp Y 0 "$AB/warm"
mkdir -p "$AB/distcp-0"; run_distcp_expert S "$AB/distcp-0"
for round in 1 2 3; do
  order="pool yarn"; ((round % 2 == 0)) && order="yarn pool"
  for mode in $order; do
    dir=$AB/$mode-$round; mkdir -p "$dir"
    log "round $round: $mode"
    LAB_RELAYS=$mode run_relaycp S 0 "$dir"
  done
done
mkdir -p "$AB/distcp-4"; run_distcp_expert S "$AB/distcp-4"
stop_relay_pool
