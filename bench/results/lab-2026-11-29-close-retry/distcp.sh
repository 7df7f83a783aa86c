#!/usr/bin/env bash
# DistCp (expert) on S: HDFS's default completeFile back-off, then a short first back-off.
set -euo pipefail
cd /work/lab-wt
source bench/lab.d/common.sh; source "$LAB_HOME/net.sh"; source "$LAB_HOME/hadoop.sh"; source "$LAB_HOME/run.sh"
runs=/tmp/backoff/runs
gen_dataset S
slots=$(($(datanode_count src) * LAB_SLOTS_PER_NODE))
one() {
  local name=$1; shift
  local rj="$runs/S-$name.json"
  fs_rm "$(nn_uri dst)/$name/S"
  log "DistCp S ($name): $*"
  local JOPTS=-Xmx256m
  measure "$rj" "$name" S 0 "$(datanode_count src)" "$(datanode_count dst)" \
    host_java src-client org.apache.hadoop.tools.DistCp -Ddfs.checksum.combine.mode=COMPOSITE_CRC "$@" \
      -strategy dynamic -m "$slots" "$(nn_uri src)/lab/S" "$(nn_uri dst)/$name/S" || log "$name failed"
  map_timings "$runs/S-$name"
  verify_into "$rj" "$(nn_uri src)/lab/S" "$(nn_uri dst)/$name/S" && log "$name verified" || log "$name NOT verified"
  python3 -c "import json;r=json.load(open('$rj'));print('$name', r['wall_seconds'], r['exit_code'])"
  tail -1 "$runs/S-$name-maps.txt"
}
one expert
one expert-25ms -Ddfs.client.block.write.locateFollowingBlock.initial.delay.ms=25 -Ddfs.client.block.write.locateFollowingBlock.retries=9
