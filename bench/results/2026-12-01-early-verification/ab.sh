#!/usr/bin/env bash
# S at k = 0 on the kept lab: the build before early verification (/work/lab-wt) against the
# build with it (/work/main), alternating; round 0 untimed (each build's relay jar staged and
# its class-data archives made on the nodes). The lab's A/B tool with this folder's defaults.
OLD_BIN=/work/lab-wt/bin/relaycp NEW_BIN=${NEW_BIN:-/work/main/bin/relaycp} \
  AB_DIR=${AB_DIR:-/tmp/ab} ROUNDS=${ROUNDS:-0 1 2} DS=S K=0 FIRST=old \
  exec bash "$(dirname "$0")/../../lab.d/ab.sh"
