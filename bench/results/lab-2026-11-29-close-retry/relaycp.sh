#!/usr/bin/env bash
# relaycp S at k = 0 through YARN relays: HDFS's default completeFile back-off, then a short one, twice.
set -euo pipefail
cd /work/lab-wt
source bench/lab.d/common.sh; source "$LAB_HOME/net.sh"; source "$LAB_HOME/hadoop.sh"; source "$LAB_HOME/run.sh"
export RELAYCP_BIN=/work/lab-wt/bin/relaycp LAB_RELAYS=yarn
short="-D dfs.client.block.write.locateFollowingBlock.initial.delay.ms=25 -D dfs.client.block.write.locateFollowingBlock.retries=9"
for round in 1 2; do
  for mode in default short; do
    d=/tmp/backoff/relaycp-$mode-$round; mkdir -p "$d"
    if [[ $mode == short ]]; then LAB_RELAYCP_OPTIONS=$short; else LAB_RELAYCP_OPTIONS=; fi
    run_relaycp S 0 "$d"
    python3 -c "import json;r=json.load(open('$d/S-relaycp-k0.json'));print('$mode $round', r['wall_seconds'], r['exit_code'], r['verify']['ok'], r.get('relaycp_summary',{}).get('phases'))"
  done
done
