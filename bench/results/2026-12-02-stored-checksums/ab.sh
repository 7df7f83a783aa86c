#!/usr/bin/env bash
# S at k = 0 on a lab that is up: OLD_BIN against NEW_BIN (defaults: /work/old-wt, /work/lab-wt),
# alternating by round; a round 0 stages each build's relay jar and makes its class-data archives
# on the nodes, and is not compared. The lab's A/B tool with this folder's defaults.
OLD_BIN=${OLD_BIN:-/work/old-wt/bin/relaycp} NEW_BIN=${NEW_BIN:-/work/lab-wt/bin/relaycp} \
  AB_DIR=${AB_DIR:-/tmp/ab} ROUNDS=${ROUNDS:-0 1 2} DS=S K=0 FIRST=old \
  exec bash "$(dirname "$0")/../../lab.d/ab.sh"
