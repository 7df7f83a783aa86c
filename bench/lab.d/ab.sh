#!/usr/bin/env bash
# Two relaycp builds against each other on a lab that is up (`bench/lab run ... --keep`, or
# `bench/lab up`): one relaycp copy of DS at k = K with each, alternating, ROUNDS times, each
# into AB_DIR/<old|new>-<round> as the lab's own runs are recorded. The first round a build
# runs stages its relay jar and makes its class-data archives on the nodes; compare from the
# second.
#
#   OLD_BIN=/work/old-wt/bin/relaycp NEW_BIN=bin/relaycp [DS=S] [K=0] [ROUNDS="0 1 2"] \
#     [FIRST=old|new] [AB_DIR=/tmp/ab] bench/lab.d/ab.sh
set -euo pipefail
: "${OLD_BIN:?set OLD_BIN to the bin/relaycp of the first build}"
: "${NEW_BIN:?set NEW_BIN to the bin/relaycp of the second build}"
# Absolute, so that the log names each build whatever folder this runs from.
OLD_BIN=$(realpath -m "$OLD_BIN"); NEW_BIN=$(realpath -m "$NEW_BIN")
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
order="old new"; [[ ${FIRST:-old} == new ]] && order="new old"
for round in ${ROUNDS:-0 1 2}; do
  for build in $order; do
    if [[ $build == old ]]; then RELAYCP_BIN=$OLD_BIN; else RELAYCP_BIN=$NEW_BIN; fi
    dir=${AB_DIR:-/tmp/ab}/$build-$round; mkdir -p "$dir"
    log "A/B round $round: $build ($RELAYCP_BIN), ${DS:-S} k=${K:-0}"
    run_relaycp "${DS:-S}" "${K:-0}" "$dir"
  done
done
