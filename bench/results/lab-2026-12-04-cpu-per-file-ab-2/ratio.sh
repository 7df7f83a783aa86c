#!/usr/bin/env bash
# On the lab that is up: the expert DistCp and relaycp (S, k = 0), alternating, two rounds.
set -uo pipefail
cd /work/lab-wt
source bench/lab.d/common.sh
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
RELAYCP_BIN=/work/lab-wt/bin/relaycp
for r in 1 2; do
  mkdir -p /tmp/ratio/r$r
  run_distcp_expert S /tmp/ratio/r$r
  run_relaycp S 0 /tmp/ratio/r$r
done
