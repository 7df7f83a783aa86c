#!/usr/bin/env bash
# Spawned relays from the image's class-data archive (LAB_SPAWNED_CLASS_DATA=1) against
# started as before through RELAYCP_BIN without one (0), alternating, on a lab that is up with
# dataset DS generated and the spawned image made (`bench/lab run --datasets L --k 6
# --no-startup --keep`): one relaycp copy of DS at k = K each, ROUNDS times, into
# AB_DIR/<0|1>-<round>, as the lab's own runs are recorded.
#
#   RELAYCP_BIN=/work/lab-wt/bin/relaycp [DS=L] [K=6] [ROUNDS="1 2"] [AB_DIR=/tmp/ab-image] ab.sh
set -euo pipefail
lab=${LAB_REPO_DIR:-/work/lab-wt}/bench/lab.d
source "$lab/common.sh"
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
for round in ${ROUNDS:-1 2}; do
  for image in 0 1; do
    dir=${AB_DIR:-/tmp/ab-image}/$image-$round; mkdir -p "$dir"
    log "A/B round $round: LAB_SPAWNED_CLASS_DATA=$image, ${DS:-L} k=${K:-6}"
    LAB_SPAWNED_CLASS_DATA=$image run_relaycp "${DS:-L}" "${K:-6}" "$dir"
  done
done
