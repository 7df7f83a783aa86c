#!/usr/bin/env bash
# S at k = 0 on the kept lab: the build before early verification (/work/lab-wt) against the
# build with it (/work/main), alternating; round 0 untimed (each build's relay jar staged and
# its class-data archives made on the nodes).
set -euo pipefail
cd /work/lab-wt
source bench/lab.d/common.sh
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
for round in ${ROUNDS:-0 1 2}; do
  for build in old new; do
    if [[ $build == old ]]; then RELAYCP_BIN=/work/lab-wt/bin/relaycp; else RELAYCP_BIN=${NEW_BIN:-/work/main/bin/relaycp}; fi
    dir=${AB_DIR:-/tmp/ab}/$build-$round; mkdir -p "$dir"
    log "A/B round $round: $build ($RELAYCP_BIN)"
    run_relaycp S 0 "$dir"
  done
done
