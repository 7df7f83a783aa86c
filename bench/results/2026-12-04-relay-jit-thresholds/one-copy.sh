#!/usr/bin/env bash
# One relaycp copy of DS at k=K on the lab that is up, with RELAYCP_BIN, into $1.
set -euo pipefail
cd /work/lab-wt
source bench/lab.d/common.sh
source "$LAB_HOME/net.sh"
source "$LAB_HOME/hadoop.sh"
source "$LAB_HOME/run.sh"
RELAYCP_BIN=$(realpath -m "${RELAYCP_BIN:-/work/lab-wt/bin/relaycp}")
mkdir -p "$1"
run_relaycp "${DS:-S}" "${K:-0}" "$1"
