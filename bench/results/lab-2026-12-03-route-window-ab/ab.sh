#!/usr/bin/env bash
# L at k = 0 with the driver's window per route at its default (64MiB: two 32 MiB chunks) and
# at 128MiB (four), alternating, on a lab that is up in the 4 + 2, replication 3,
# v_i/v_e = 2 layout (the same LAB_* settings as `bench/lab up` had): one relaycp copy each,
# into AB_DIR/<window>-<round>, as the lab's own runs are recorded.
#
#   LAB_VI_MBIT=80 LAB_SRC_DATANODES=4 LAB_DST_DATANODES=2 LAB_REPLICATION=3 \
#   RELAYCP_BIN=/work/lab-wt/bin/relaycp [ROUNDS="1 2"] [AB_DIR=/tmp/window-ab] ab.sh
set -euo pipefail
lab=${LAB_REPO_DIR:-/work/lab-wt}/bench/lab.d
source "$lab/common.sh"
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
ab=${AB_DIR:-/tmp/window-ab}
gen_dataset L
keep_placements "$ab" L
for round in ${ROUNDS:-1 2}; do
  order="64MiB 128MiB"; ((round % 2 == 0)) && order="128MiB 64MiB"
  for window in $order; do
    dir=$ab/$window-$round; mkdir -p "$dir"
    log "A/B round $round: relaycp.copy.bytes-in-flight-per-route=$window, L k=0"
    LAB_RELAYCP_OPTIONS="-D relaycp.copy.bytes-in-flight-per-route=$window" run_relaycp L 0 "$dir"
  done
done
