#!/usr/bin/env bash
# S at k = 0 on a lab that is up: OLD_BIN against NEW_BIN (defaults: /work/old-wt, /work/lab-wt),
# alternating by round; a round 0 stages each build's relay jar and makes its class-data archives
# on the nodes, and is not compared.
set -euo pipefail
cd /work/lab-wt
source bench/lab.d/common.sh
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
for round in ${ROUNDS:-0 1 2}; do
  for build in old new; do
    if [[ $build == old ]]; then RELAYCP_BIN=${OLD_BIN:-/work/old-wt/bin/relaycp}; else RELAYCP_BIN=${NEW_BIN:-/work/lab-wt/bin/relaycp}; fi
    dir=${AB_DIR:-/tmp/ab}/$build-$round; mkdir -p "$dir"
    log "A/B round $round: $build ($RELAYCP_BIN)"
    run_relaycp S 0 "$dir"
  done
done
