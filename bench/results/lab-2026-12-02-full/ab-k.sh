#!/usr/bin/env bash
# S at k = K on a lab that is up: OLD_BIN against NEW_BIN, alternating by round (FIRST=old|new).
set -euo pipefail
cd /work/lab-wt
source bench/lab.d/common.sh
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
order="old new"; [[ ${FIRST:-old} == new ]] && order="new old"
for round in ${ROUNDS:-1 2}; do
  for build in $order; do
    if [[ $build == old ]]; then RELAYCP_BIN=$OLD_BIN; else RELAYCP_BIN=$NEW_BIN; fi
    dir=${AB_DIR:-/tmp/abk}/$build-$round; mkdir -p "$dir"
    log "A/B round $round: $build ($RELAYCP_BIN), ${DS:-S} k=${K:-2}"
    run_relaycp "${DS:-S}" "${K:-2}" "$dir"
  done
done
