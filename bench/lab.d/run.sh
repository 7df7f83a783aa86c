# The lab's measurements: cap probe, datasets, DistCp and relaycp runs, report.
# shellcheck shell=bash

RELAY_PORT=7070
RELAYCP_BIN=${RELAYCP_BIN:-$LAB_REPO/bin/relaycp}

# ---------------------------------------------------------------- probe
# probe_best FLOOR CAP TRY [ARGS...]: runs TRY ARGS, one measurement that prints its Mbit/s
# (and may leave its iperf3 JSON in $LAB_DIR/probe-try.json), until one reaches FLOOR x CAP, at
# most LAB_PROBE_ATTEMPTS times. Sets PROBE_MBIT, the best, and PROBE_TRIED, every try's; the
# best's JSON, where there is one, is left in $LAB_DIR/probe-best.json.
# A probe that falls short of its check's floor is tried again and the best kept: on a shared
# machine a few seconds of other work can hold iperf3 below a cap that the shaping does give (a
# 4-second in-site probe in CI, run while the daemons had just started, read 0.64 of v_i).
# Above the cap no retry helps, and none is made.
probe_best() {
  local floor=$1 cap=$2 attempt mbit
  shift 2
  PROBE_MBIT=0; PROBE_TRIED=""
  rm -f "$LAB_DIR/probe-try.json" "$LAB_DIR/probe-best.json"
  for ((attempt = 1; attempt <= LAB_PROBE_ATTEMPTS; attempt++)); do
    mbit=$("$@") || die "cap probe failed: $*"
    PROBE_TRIED+="${PROBE_TRIED:+,}$mbit"
    if python3 -c "import sys; sys.exit(0 if $mbit > $PROBE_MBIT else 1)"; then
      PROBE_MBIT=$mbit
      [[ -f $LAB_DIR/probe-try.json ]] && cp "$LAB_DIR/probe-try.json" "$LAB_DIR/probe-best.json"
    fi
    python3 -c "import sys; sys.exit(0 if $PROBE_MBIT >= $floor * $cap else 1)" && break
  done
  return 0
}

# iperf3_pair_try FROM TO SECONDS: one iperf3 stream FROM -> TO; prints the Mbit/s received.
iperf3_pair_try() {
  local a=$1 b=$2 secs=$3 spid
  ip netns exec "$(ns_of "$b")" iperf3 -s -1 -B "$(host_ip "$b")" -p 5201 >/dev/null 2>&1 &
  spid=$!
  sleep 0.5
  ip netns exec "$(ns_of "$a")" iperf3 -c "$(host_ip "$b")" -p 5201 -t "$secs" -O 2 -J \
    > "$LAB_DIR/probe-try.json" || { kill "$spid" 2>/dev/null; return 1; }
  wait "$spid" 2>/dev/null || true
  python3 -c 'import json,sys; d=json.load(sys.stdin); print(round(d["end"]["sum_received"]["bits_per_second"]/1e6,2))' \
    < "$LAB_DIR/probe-try.json"
}

# iperf3_fan_in_try TO FROM1 FROM2 SECONDS: FROM1 and FROM2 send to TO at once; prints the sum
# of the Mbit/s received.
iperf3_fan_in_try() {
  local r=$1 s1=$2 s2=$3 secs=$4
  ip netns exec "$(ns_of "$r")" iperf3 -s -1 -B "$(host_ip "$r")" -p 5202 >/dev/null 2>&1 &
  ip netns exec "$(ns_of "$r")" iperf3 -s -1 -B "$(host_ip "$r")" -p 5203 >/dev/null 2>&1 &
  sleep 0.5
  ip netns exec "$(ns_of "$s1")" iperf3 -c "$(host_ip "$r")" -p 5202 -t "$secs" -O 2 -J > "$LAB_DIR/fanin1.json" &
  ip netns exec "$(ns_of "$s2")" iperf3 -c "$(host_ip "$r")" -p 5203 -t "$secs" -O 2 -J > "$LAB_DIR/fanin2.json"
  wait
  python3 -c 'import json,sys; print(round(sum(json.load(open(f))["end"]["sum_received"]["bits_per_second"] for f in sys.argv[1:])/1e6,2))' \
    "$LAB_DIR/fanin1.json" "$LAB_DIR/fanin2.json"
}

# probe_line KIND FROM TO CAP: probe.txt's line for the probe probe_best just made.
probe_line() {
  printf '%-11s %-8s -> %-8s %8s Mbit/s (cap %s, %s%%)%s\n' "$1" "$2" "$3" "$PROBE_MBIT" "$4" \
    "$(python3 -c "print(round(100*$PROBE_MBIT/$4,1))")" \
    "$([[ $PROBE_TRIED == *,* ]] && echo " best of $PROBE_TRIED")"
}

# iperf3 between lab hosts: cross-site both ways, in-site on each site, and a
# fan-in (two senders of the other site to one host) that tests the receive cap.
probe_caps() {
  local out=${1:-}
  if ! command -v iperf3 >/dev/null; then
    log "installing iperf3 (apt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 >/dev/null; } \
      || die "iperf3 is missing and apt-get could not install it"
  fi
  local secs=${LAB_PROBE_SECONDS:-10}
  local pairs="src-dn1:dst-dn1 dst-dn1:src-dn1 src-dn1:src-client dst-nn:dst-dn1"
  local p a b kind cap floor
  [[ -n $out ]] && mkdir -p "$out"
  local json="[" first=1
  for p in $pairs; do
    a=${p%%:*}; b=${p##*:}
    if [[ $(site_of "$a") == $(site_of "$b") ]]; then kind=in-site; cap=$LAB_VI_MBIT; floor=0.8
    else kind=cross-site; cap=$LAB_VE_MBIT; floor=0.9; fi
    local cmdline="ip netns exec $(ns_of "$a") iperf3 -c $(host_ip "$b") -p 5201 -t $secs -O 2 -J"
    probe_best "$floor" "$cap" iperf3_pair_try "$a" "$b" "$secs"
    probe_line "$kind" "$a" "$b" "$cap"
    [[ $first == 1 ]] || json+=","
    first=0
    json+="{\"kind\":\"$kind\",\"from\":\"$a\",\"to\":\"$b\",\"mbit_per_s\":$PROBE_MBIT,\"cap_mbit\":$cap,\"seconds\":$secs,\"attempts_mbit_per_s\":[$PROBE_TRIED],\"command\":\"$cmdline\"}"
    [[ -n $out ]] && cp "$LAB_DIR/probe-best.json" "$out/iperf3-$a-$b.json"
  done
  # Fan-in: two hosts of the other site send to one host at once; the receiving
  # side's bridge-port class must hold their sum to v_e.
  local r=src-client s1=dst-nn s2=dst-dn1
  probe_best 0.9 "$LAB_VE_MBIT" iperf3_fan_in_try "$r" "$s1" "$s2" "$secs"
  probe_line fan-in "$s1+$s2" "$r" "$LAB_VE_MBIT"
  json+=",{\"kind\":\"fan-in cross-site\",\"from\":\"$s1+$s2\",\"to\":\"$r\",\"mbit_per_s\":$PROBE_MBIT,\"cap_mbit\":$LAB_VE_MBIT,\"seconds\":$secs,\"attempts_mbit_per_s\":[$PROBE_TRIED],\"command\":\"two concurrent iperf3 -c $(host_ip "$r") -t $secs -O 2, from $s1 and from $s2\"}"
  json+="]"
  [[ -n $out ]] && echo "$json" | python3 -m json.tool > "$out/probe.json"
  return 0
}

# ---------------------------------------------------------------- datasets
# name -> "subdir:files:bytes ..." ("." is the dataset's root).
MiB=1048576
dataset_parts() {
  case $1 in
    L) echo ".:8:$((256 * MiB))" ;;
    S) echo ".:5000:$((64 * 1024))" ;;
    M) echo "big:4:$((256 * MiB)) small:3000:$((64 * 1024))" ;;
    Q) echo ".:4:$((16 * MiB))" ;;   # the quick set: 64 MiB
    # The start-up probes, in files of 64 KiB like S's and M's small ones: how often a file's
    # close waits on HDFS's completeFile back-off depends on its size (see maps.py).
    T) echo ".:1:65536" ;;           # one file: each tool's start-up, for the planner
    U) echo ".:300:65536" ;;         # 300 files: each tool's cost per file, beside T and W (Y)
    W) echo ".:1200:65536" ;;        # beside U: DistCp's cost per file with every slot busy
    V) echo ".:300:65536" ;;         # U again, for DistCp with one map: a lone map's cost per file
    X) echo ".:1200:65536" ;;        # W again, for relaycp with fewer streams: its cost per file on them
    # Beside U: relaycp's cost per file in steady state, and its warm-up copies. A copy's time
    # on this machine varies by a second or two either way, and W's 18 rounds more than U's
    # turned that into 20% of the cost per file; Y has 56 more.
    Y) echo ".:3000:65536" ;;
    # Y three times over, for the spawned pairs' probe: on the two shared cores a spawned relay
    # listens some 50 s after relaycp asks for it, and Y's copy could end first (2026-11-28).
    Z) echo ".:9000:65536" ;;
    # Large files beside T's one small one: what a byte costs the shared cores (TLS,
    # checksums, the datanodes' reads and writes), apart from what a file costs.
    B) echo ".:6:$((64 * MiB))" ;;
    # Service logs (text Snappy takes to about a third), for --compress beside L's random bytes.
    C) echo ".:8:$((64 * MiB)):text" ;;
    *) die "unknown dataset '$1' (L, S, M, Q, T, U, V, W, X, Y, Z, B or C)" ;;
  esac
}

# The dataset as COUNTxBYTES groups, the form `relaycp plan --file-sizes` reads.
dataset_histogram() {
  local part sub files size out=""
  for part in $(dataset_parts "$1"); do
    IFS=: read -r sub files size _ <<<"$part"
    out+="${out:+,}${files}x${size}"
  done
  echo "$out"
}

# Write a dataset into the source cluster once: from every source datanode host at once,
# each writing its shard (LAB_WRITE_FROM=every), or all of it from src-dn1 (one). Blocks
# start on the node that wrote them. A dataset written the other way before is written again.
gen_dataset() {
  local ds=$1 part sub files size i n writers_from=$LAB_WRITE_FROM
  case $writers_from in
    every) n=$(datanode_count src) ;;
    one) n=1 ;;
    *) die "LAB_WRITE_FROM must be every or one, got '$writers_from'" ;;
  esac
  if [[ -e "$LAB_DIR/gen.$ds" ]]; then
    # An empty record is a dataset written before LAB_WRITE_FROM, from every datanode.
    local written; written=$(cat "$LAB_DIR/gen.$ds"); written=${written:-every}
    [[ $written == "$writers_from" && -e "$LAB_DIR/placement.$ds.json" ]] && return 0
    log "dataset $ds was written from '$written' (or has no placement record); writing it again from '$writers_from'"
    fs_rm "$(nn_uri src)/lab/$ds"
    rm -f "$LAB_DIR/gen.$ds" "$LAB_DIR/placement.$ds.json"
  fi
  log "generating dataset $ds on the source cluster (written from $writers_from)"
  for part in $(dataset_parts "$ds"); do
    local kind
    IFS=: read -r sub files size kind <<<"$part"
    local threads=2 writers=() w; ((size < MiB)) && threads=8
    ((n == 1 && size < MiB)) && threads=16
    for ((i = 1; i <= n; i++)); do
      JOPTS=-Xmx256m host_java "src-dn$i" LabTool gen "$(nn_uri src)/lab/$ds/$sub" "$files" "$size" $((i - 1)) "$n" "$threads" "${kind:-random}" \
        >> "$LAB_DIR/gen.log" 2>&1 &
      writers+=($!)
    done
    # Only the writers: relays started for an earlier dataset are this shell's children too.
    for w in "${writers[@]}"; do wait "$w" || die "generating $ds failed; see $LAB_DIR/gen.log"; done
  done
  # Where its bytes ended up, for the report's limit and the planner's --placement.
  JOPTS=-Xmx256m host_java src-client LabTool placement "$(nn_uri src)/lab/$ds" \
    > "$LAB_DIR/placement.$ds.json" 2>> "$LAB_DIR/gen.log" \
    || die "could not read where dataset $ds's blocks are; see $LAB_DIR/gen.log"
  echo "$writers_from" > "$LAB_DIR/gen.$ds"
}

# Copies where each dataset's bytes are (gen_dataset's record) into a run's folder.
keep_placements() {
  local out=$1 ds
  mkdir -p "$out/placement"
  for ds in "${@:2}"; do
    [[ -e "$LAB_DIR/placement.$ds.json" ]] && cp "$LAB_DIR/placement.$ds.json" "$out/placement/$ds.json"
  done
  return 0
}

# ---------------------------------------------------------------- measuring
# Each host's bytes in and out at its bridge port, one sampler per site (links.py), into
# BASE.links-src.csv and BASE.links-dst.csv at sample.py's cadence; their pids in link_samplers.
link_samplers=()
start_link_samplers() {
  local base=$1 s
  link_samplers=()
  for s in src dst; do
    ip netns exec "$(sw_of "$s")" python3 "$LAB_HOME/links.py" "$base.links-$s.csv" 0.25 &
    link_samplers+=($!)
  done
}
stop_link_samplers() {
  local p
  for p in "${link_samplers[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  link_samplers=()
}

# Run one copy with the router's byte counters, the machine's CPU and each host's link sampled.
# Args: out-json tool dataset k senders receivers command...
measure() {
  local rj=$1 tool=$2 ds=$3 k=$4 senders=$5 receivers=$6; shift 6
  local base=${rj%.json}
  ip netns exec "$ROUTER" python3 "$LAB_HOME/sample.py" "$base.csv" 0.25 &
  local spid=$! rc=0
  start_link_samplers "$base"
  # Each lab process's CPU by role (relays, driver, DistCp's maps, the daemons).
  python3 "$LAB_HOME/process_cpu.py" "$base.cpu" 0.5 &
  local cpid=$!
  sleep 0.5
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$base.out" 2> "$base.err" || rc=$?
  t1=$(date +%s.%N)
  sleep 0.5
  kill "$spid"; wait "$spid" 2>/dev/null || true
  stop_link_samplers
  kill "$cpid"; wait "$cpid" 2>/dev/null || true
  python3 - "$rj" "$tool" "$ds" "$k" "$rc" "$t0" "$t1" "$senders" "$receivers" "$*" <<'PY'
import json, sys
rj, tool, ds, k, rc, t0, t1, snd, rcv, cmd = sys.argv[1:]
json.dump({"tool": tool, "dataset": ds, "k": int(k), "exit_code": int(rc),
           "wall_seconds": round(float(t1) - float(t0), 3), "started_at": float(t0), "senders": int(snd),
           "receivers": int(rcv), "command": cmd}, open(rj, "w"))
PY
  return $rc
}

fs_rm() { JOPTS=-Xmx192m host_java src-client org.apache.hadoop.fs.FsShell -rm -r -f -skipTrash "$@" >/dev/null 2>&1 || true; }

verify_into() {
  local rj=$1 src=$2 dst=$3 v
  v=$(JOPTS=-Xmx256m host_java src-client LabTool verify "$src" "$dst" 8 2>> "$LAB_DIR/verify.log") || true
  [[ -n $v ]] || v='{"ok":false,"problems":["verifier failed; see verify.log"]}'
  python3 - "$rj" "$v" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); r["verify"] = json.loads(sys.argv[2]); json.dump(r, open(sys.argv[1], "w"))
PY
  python3 -c 'import json,sys; sys.exit(0 if json.loads(sys.argv[1])["ok"] else 1)' "$v"
}

# Each map's timings of the DistCp job whose stderr is RUN.err, into RUN-maps.txt (maps.py).
map_timings() {
  python3 "$LAB_HOME/maps.py" "$LAB_DIR" "$1.err" > "$1-maps.txt" 2>&1 || true
}

run_distcp() {
  local ds=$1 runs=$2 slots=${3:-$(($(datanode_count src) * LAB_SLOTS_PER_NODE))}
  local rj="$runs/$ds-distcp.json"
  fs_rm "$(nn_uri dst)/distcp/$ds"
  log "DistCp $ds: -m $slots, maps on the $(datanode_count src) source NodeManagers"
  # shellcheck disable=SC2034  # read by host_java
  local JOPTS=-Xmx256m
  measure "$rj" distcp "$ds" 0 "$(datanode_count src)" "$(datanode_count dst)" \
    host_java src-client org.apache.hadoop.tools.DistCp -Ddfs.checksum.combine.mode=COMPOSITE_CRC -m "$slots" \
      "$(nn_uri src)/lab/$ds" "$(nn_uri dst)/distcp/$ds" \
    || log "DistCp $ds exited non-zero; see $runs/$ds-distcp.err"
  map_timings "$runs/$ds-distcp"
  verify_into "$rj" "$(nn_uri src)/lab/$ds" "$(nn_uri dst)/distcp/$ds" && log "DistCp $ds verified" \
    || log "DistCp $ds: verification FAILED"
}

# Whether some file of the dataset spans more than one block.
dataset_spans_blocks() {
  local part size
  for part in $(dataset_parts "$1"); do
    IFS=: read -r _ _ size _ <<<"$part"
    ((size > LAB_BLOCK_SIZE)) && return 0
  done
  return 1
}

# DistCp as an expert runs it: -strategy dynamic (maps take chunks of the listing as they
# finish, so none idles while another holds a long tail), -m at the slot count, where files
# span several blocks -blocksperchunk 1 (a file's blocks copied by several maps and
# concatenated at the destination), and its HDFS clients retrying a file's close sooner
# (LAB_EXPERT_CLOSE_RETRY_MS).
run_distcp_expert() {
  local ds=$1 runs=$2 slots=$(($(datanode_count src) * LAB_SLOTS_PER_NODE)) extra=() close=()
  if dataset_spans_blocks "$ds"; then extra=(-blocksperchunk 1); fi
  if [[ -n $LAB_EXPERT_CLOSE_RETRY_MS ]]; then
    close=("-Ddfs.client.block.write.locateFollowingBlock.initial.delay.ms=$LAB_EXPERT_CLOSE_RETRY_MS"
      "-Ddfs.client.block.write.locateFollowingBlock.retries=$LAB_EXPERT_CLOSE_RETRIES")
  fi
  local rj="$runs/$ds-distcp-expert.json"
  fs_rm "$(nn_uri dst)/distcp-expert/$ds"
  log "DistCp $ds as an expert runs it: -strategy dynamic -m $slots ${extra[*]} ${close[*]}"
  # shellcheck disable=SC2034  # read by host_java
  local JOPTS=-Xmx256m
  measure "$rj" distcp-expert "$ds" 0 "$(datanode_count src)" "$(datanode_count dst)" \
    host_java src-client org.apache.hadoop.tools.DistCp -Ddfs.checksum.combine.mode=COMPOSITE_CRC \
      "${close[@]}" -strategy dynamic -m "$slots" "${extra[@]}" \
      "$(nn_uri src)/lab/$ds" "$(nn_uri dst)/distcp-expert/$ds" \
    || log "DistCp (expert) $ds exited non-zero; see $runs/$ds-distcp-expert.err"
  map_timings "$runs/$ds-distcp-expert"
  verify_into "$rj" "$(nn_uri src)/lab/$ds" "$(nn_uri dst)/distcp-expert/$ds" \
    && log "DistCp (expert) $ds verified" || log "DistCp (expert) $ds: verification FAILED"
}

# ---------------------------------------------------------------- relaycp
# The relaycp side runs against the CLI the copy tool provides:
#   relaycp copy SRC DST --relays yarn[,h:p...] --dst-relays yarn[,h:p...] --src-conf D --dst-conf D
#   relaycp relay --port N --secret-file F             (spawned hosts; LAB_RELAYS=hand)
#   relaycp relay-pool --pool-file F --src-conf D --dst-conf D   (LAB_RELAYS=pool)
#   relaycp copy SRC DST --relay-pool F --json
#   relaycp copy SRC DST --relays h:p,... --dst-relays h:p,... --secret-file F --json
relays_started=0
# The secret of the spawned hosts' relays (and of hand-started ones), one per lab run.
ensure_secret() {
  [[ -s "$LAB_DIR/secret" ]] && return 0
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$LAB_DIR/secret"; chmod 600 "$LAB_DIR/secret"
}
# Stops the relay daemons started on the datanodes (by their pid files), if any.
stop_existing_relays() {
  local h f
  for h in $(datanodes src) $(datanodes dst); do
    f="$LAB_DIR/pids/$h.relay"
    if [[ -s $f ]]; then
      kill "$(cat "$f")" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$(cat "$f")" 2>/dev/null || break; sleep 0.2; done
      kill -9 "$(cat "$f")" 2>/dev/null || true
      rm -f "$f"
    fi
  done
  relays_started=0
}
start_existing_relays() {
  ((relays_started)) && return 0
  rm -f "$LAB_DIR/secret"; ensure_secret
  local h
  # Relays left by an earlier run on a kept lab hold the port and the old secret.
  stop_existing_relays
  for h in $(datanodes src) $(datanodes dst); do start_relay "$h" 0 "$LAB_RELAY_JAVA_OPTS"; done
  # Relays on datanodes are daemons that run before a copy starts: wait until each listens,
  # so no copy's time includes their JVMs' start.
  for h in $(datanodes src) $(datanodes dst); do
    local waited=0
    until grep -q "^relaycp relay listening on" "$LAB_DIR/hosts/$h/logs/relay.log" 2>/dev/null; do
      ((waited++ < 600)) || die "the relay on $h did not start; see $LAB_DIR/hosts/$h/logs/relay.log"
      sleep 0.2
    done
  done
  relays_started=1
}
# The relay pool (LAB_RELAYS=pool): `relaycp relay-pool` in the source's client host, its
# relays YARN containers on every datanode as for --relays yarn, started once before the first
# copy that uses it (its containers' start is in no copy's time, as a pool started for a
# workflow's copies) and kept until the run ends or stop_relay_pool. One relay per datanode:
# run_relaycp's RELAYS_PER_SITE does not apply to it.
relay_pool_file() { echo "$LAB_DIR/relay-pool.json"; }
start_relay_pool() {
  local file waited=0
  file=$(relay_pool_file)
  [[ -s $LAB_DIR/pids/relay-pool ]] && kill -0 "$(cat "$LAB_DIR/pids/relay-pool")" 2>/dev/null \
    && [[ -e $file ]] && return 0
  stop_relay_pool
  mkdir -p "$LAB_DIR/pids" "$LAB_DIR/logs"
  log "starting the relay pool (relaycp relay-pool --pool-file $file)"
  LAB_PIDFILE="$LAB_DIR/pids/relay-pool" in_host src-client env JAVA_HOME="$JAVA_HOME" \
    JAVA_OPTS="$LAB_COPY_JAVA_OPTS" HADOOP_CONF_DIR="$LAB_DIR/hosts/src-client/conf" \
    "$RELAYCP_BIN" relay-pool --pool-file "$file" --for 12h \
    --src-conf "$LAB_DIR/hosts/src-client/conf" --dst-conf "$LAB_DIR/hosts/dst-client/conf" \
    -D "relaycp.yarn.relay-memory-mb=$LAB_RELAY_MB" -D "relaycp.relay.java-opts=$LAB_RELAY_JAVA_OPTS" \
    > "$LAB_DIR/logs/relay-pool.log" 2>&1 &
  until [[ -e $file ]]; do
    ((waited++ < 900)) || die "the relay pool did not start; see $LAB_DIR/logs/relay-pool.log"
    [[ -s $LAB_DIR/pids/relay-pool ]] && ! kill -0 "$(cat "$LAB_DIR/pids/relay-pool")" 2>/dev/null \
      && die "the relay pool ended; see $LAB_DIR/logs/relay-pool.log"
    sleep 0.2
  done
  log "$(grep -m1 'relay pool up' "$LAB_DIR/logs/relay-pool.log")"
}
# Stops the relay pool, if one runs: its file removed, it ends both applications and exits.
stop_relay_pool() {
  local f=$LAB_DIR/pids/relay-pool
  rm -f "$(relay_pool_file)"
  [[ -s $f ]] || return 0
  for _ in $(seq 300); do kill -0 "$(cat "$f")" 2>/dev/null || break; sleep 0.2; done
  kill "$(cat "$f")" 2>/dev/null || true
  rm -f "$f"
}
start_relay() {
  local h=$1 warm_up=${2:-0} java_opts=${3:--Xmx384m}
  mkdir -p "$LAB_DIR/hosts/$h/logs" "$LAB_DIR/pids"
  [[ -d "$LAB_DIR/hosts/$h/conf" ]] || write_conf "$h"
  LAB_PIDFILE="$LAB_DIR/pids/$h.relay" in_host "$h" env JAVA_HOME="$JAVA_HOME" JAVA_OPTS="$java_opts" \
    HADOOP_CONF_DIR="$LAB_DIR/hosts/$h/conf" \
    "$RELAYCP_BIN" relay --port "$RELAY_PORT" --secret-file "$LAB_DIR/secret" --warm-up "$warm_up" \
    > "$LAB_DIR/hosts/$h/logs/relay.log" 2>&1 &
  for _ in 1 2 3 4 5 6 7 8 9 10; do [[ -s "$LAB_DIR/pids/$h.relay" ]] && break; sleep 0.2; done
}

# A spawned relay host, in two steps. `prepare_spawned_host` makes its namespace with only
# a loopback and starts its relay there, unreachable, and waits until it listens: a real
# VM boots and starts its relay on its own CPU, while here every JVM shares the machine's
# two cores, so the relay's JVM start and its warm-up (LAB_SPAWNED_WARM_UP) are kept out of
# the copy's time. `attach_spawned_host`
# then joins it to its site and shapes it like any other host after the boot delay counted
# from the copy's start, the thesis's T_v. `bench/lab spawn HOST [delay]` does both.
prepare_spawned_host() {
  local h=$1 waited=0
  [[ $h =~ ^(src|dst)-sp[0-9]+$ ]] || die "spawned hosts are named src-spN or dst-spN"
  net_add_namespace "$h"
  start_relay "$h" "$LAB_SPAWNED_WARM_UP" "$LAB_SPAWNED_JAVA_OPTS"
  until grep -q "^relaycp relay listening on" "$LAB_DIR/hosts/$h/logs/relay.log" 2>/dev/null; do
    ((waited++ < 600)) || die "the relay on $h did not start; see $LAB_DIR/hosts/$h/logs/relay.log"
    sleep 0.2
  done
}
attach_spawned_host() {
  local h=$1 delay=$2
  sleep "$delay"
  net_attach_host "$h"
  # The host counts towards the physical limit from here, when its "VM" has booted.
  echo "$h $(date +%s.%N)" >> "$LAB_DIR/spawned.times"
  log "spawned $h ($(host_ip "$h")) after ${delay}s"
}
spawn_relay_host() {
  local h=${1:?usage: bench/lab spawn src-spN|dst-spN [delay]} delay=${2:-$LAB_BOOT_DELAY}
  prepare_spawned_host "$h"
  attach_spawned_host "$h" "$delay"
}

# The spawn service: relaycp starts the spawned hosts itself, through its exec backend
# (--spawn-command bench/lab.d/spawn-request.sh), and this loop, in the root namespace while a
# copy runs, does what a cloud would: for "spawn SITE SLOT" it makes host SITE-sp(SLOT+1) with
# only a loopback, starts its relay there (following the driver's heartbeat, as a VM's
# user-data would), answers the host's address at once, and joins the host to its site after
# the boot delay; for "release SITE SLOT" it removes the host. The answer comes before the
# relay can be reached, so relaycp waits out the boot delay as it would for a VM.
spawn_service_loop() {
  local dir=$LAB_DIR/spawn request name
  while [[ ! -e $dir/stop ]]; do
    for request in "$dir"/requests/spawn-* "$dir"/requests/release-*; do
      [[ -e $request ]] || continue
      name=${request##*/}
      mv "$request" "$dir/taken-$name"
      serve_spawn_request "$name" "$dir/taken-$name" &
    done
    sleep 0.1
  done
}
serve_spawn_request() {
  local name=$1 file=$2 action site slot h secret identity heartbeat timeout
  IFS=- read -r action site slot <<< "$name"
  h="$site-sp$((slot + 1))"
  secret=$(sed -n 's/^RELAYCP_SECRET_FILE=//p' "$file")
  identity=$(sed -n 's/^RELAYCP_TLS_IDENTITY_FILE=//p' "$file")
  heartbeat=$(sed -n 's/^RELAYCP_DRIVER_HEARTBEAT=//p' "$file")
  timeout=$(sed -n 's/^RELAYCP_DRIVER_TIMEOUT_SECONDS=//p' "$file")
  rm -f "$file"
  if [[ $action == release ]]; then
    net_del_host "$h"
    rm -f "$LAB_DIR/pids/$h.relay"
    log "released $h"
    echo released > "$LAB_DIR/spawn/replies/$name"
    return 0
  fi
  net_add_namespace "$h"
  mkdir -p "$LAB_DIR/hosts/$h/logs" "$LAB_DIR/pids"
  [[ -d "$LAB_DIR/hosts/$h/conf" ]] || write_conf "$h"
  echo "$(host_ip "$h"):$RELAY_PORT" > "$LAB_DIR/spawn/replies/$name"
  log "spawning $h for relaycp ($name); it boots for ${LAB_BOOT_DELAY}s"
  # A VM starts its relay at the end of its boot: the relay's JVM starts LAB_SPAWNED_START_LEAD
  # seconds before the host is attached, not at the request.
  local lead=$LAB_SPAWNED_START_LEAD
  ((lead > LAB_BOOT_DELAY)) && lead=$LAB_BOOT_DELAY
  sleep "$((LAB_BOOT_DELAY - lead))"
  rm -f "$LAB_DIR/hosts/$h/logs/relay.log" "$LAB_DIR/pids/$h.relay"
  local relaycp
  read -r -a relaycp <<< "$(spawned_relaycp_command "$h")"
  host_exists "$h" && \
  LAB_PIDFILE="$LAB_DIR/pids/$h.relay" in_host "$h" env JAVA_HOME="$JAVA_HOME" \
    JAVA_OPTS="$LAB_SPAWNED_JAVA_OPTS" HADOOP_CONF_DIR="$LAB_DIR/hosts/$h/conf" \
    "${relaycp[@]}" -D "relaycp.relay.driver-timeout-seconds=${timeout:-60}" relay \
    --port "$RELAY_PORT" --secret-file "${secret:-$LAB_DIR/secret}" \
    --warm-up "$LAB_SPAWNED_WARM_UP" ${heartbeat:+--driver-heartbeat "$heartbeat"} \
    ${identity:+--tls-identity-file "$identity"} \
    > "$LAB_DIR/hosts/$h/logs/relay.log" 2>&1 &
  record_start_cpu "$h" &
  sleep "$lead"
  # relaycp may have released the host while it booted (the copy ended first).
  # LAB_SLOW_SPAWNED=1: source hosts of odd slots get half the WAN cap, so half the pairs
  # are slow, as unequal VMs of one type are in a cloud (what pre-testing is for).
  local ve=$LAB_VE_MBIT
  if [[ -n ${LAB_SLOW_SPAWNED:-} && $site == src ]] && ((slot % 2 == 1)); then
    ve=$((LAB_VE_MBIT / 2))
  fi
  if host_exists "$h"; then
    net_attach_host "$h" "$ve" || log "could not attach $h (released meanwhile?)"
    echo "$h $(date +%s.%N)" >> "$LAB_DIR/spawned.times"
    log "spawned $h ($(host_ip "$h"), v_e ${ve} Mbit/s) after ${LAB_BOOT_DELAY}s"
  else
    log "$h was released before it booted"
  fi
}
# The spawned hosts' image: the product jar on the lab's Hadoop, as `hadoop jar` runs it on a
# VM, and the class-data archive that `relaycp relay-class-data` makes for such an image
# (README, "Spawned relays on AWS"), made once per lab run before any timed phase, as
# an image is built before the VMs boot from it. LAB_SPAWNED_CLASS_DATA=0 starts the spawned
# relays through RELAYCP_BIN instead, without an archive (as before 2026-12-03).
spawned_image_dir() { echo "$LAB_DIR/spawned-image"; }
# The clone RELAYCP_BIN runs from: its product jar and its log settings.
spawned_relaycp_home() { cd "$(dirname "$RELAYCP_BIN")/.." && pwd; }
spawned_product_jar() { echo "$(spawned_relaycp_home)/relaycp/target/relaycp-0.1.0-SNAPSHOT.jar"; }
make_spawned_image() {
  ((LAB_SPAWNED_CLASS_DATA)) || return 0
  local home jar; home=$(spawned_relaycp_home); jar=$(spawned_product_jar)
  [[ -f $jar ]] || die "no product jar at $jar for the spawned hosts' image; build relaycp first"
  rm -rf "$(spawned_image_dir)"
  log "making the spawned hosts' image: relaycp relay-class-data $(spawned_image_dir)"
  HADOOP_CLIENT_SKIP_UNJAR=true "$JAVA_HOME/bin/java" -Xmx256m \
    -Dlog4j.configuration="file:$home/conf/log4j.properties" -cp "$LAB_DIR/lib/*" \
    org.apache.hadoop.util.RunJar "$jar" relay-class-data "$(spawned_image_dir)" \
    --java-options "$LAB_SPAWNED_JAVA_OPTS" > "$LAB_DIR/spawned-image.log" 2>&1 \
    || die "relaycp relay-class-data failed; see $LAB_DIR/spawned-image.log"
  log "$(grep -m 1 '^made ' "$LAB_DIR/spawned-image.log")"
}
# spawned_relaycp_command HOST: the words that run relaycp on a spawned host (its relay
# arguments follow). From the image: java with the archive, the product jar and the lab's
# Hadoop, then the host's configuration folder after every jar (where the archive needs it).
spawned_relaycp_command() {
  local h=$1 archive home; archive="$(spawned_image_dir)/relay.jsa"
  if ((LAB_SPAWNED_CLASS_DATA)) && [[ -f $archive ]]; then
    home=$(spawned_relaycp_home)
    echo "$JAVA_HOME/bin/java $LAB_SPAWNED_JAVA_OPTS -XX:SharedArchiveFile=$archive -Xshare:auto" \
      "-Dlog4j.configuration=file:$home/conf/log4j.properties" \
      "-cp $(spawned_product_jar):$LAB_DIR/lib/*:$LAB_DIR/hosts/$h/conf dev.relaycp.cli.Main"
  else
    echo "$RELAYCP_BIN"
  fi
}
spawn_service_start() {
  rm -rf "$LAB_DIR/spawn"; mkdir -p "$LAB_DIR/spawn/requests" "$LAB_DIR/spawn/replies"
  spawn_service_loop & spawn_service_pid=$!
}
spawn_service_stop() {
  touch "$LAB_DIR/spawn/stop"
  wait "$spawn_service_pid" 2>/dev/null || true
}

# record_start_cpu HOST: once HOST's relay listens, the CPU seconds its JVM has spent (all its
# threads), appended to spawned.start-cpu: what a spawned relay's start costs the shared cores
# (the planner's --relaycp-spawned-start-cpu-seconds).
record_start_cpu() {
  local h=$1 pid
  # Four looks a second: on the copy's shared cores, more would cost what it measures.
  for _ in $(seq 720); do
    grep -q "^relaycp relay listening on" "$LAB_DIR/hosts/$h/logs/relay.log" 2>/dev/null && break
    sleep 0.25
  done
  pid=$(cat "$LAB_DIR/pids/$h.relay" 2>/dev/null) || return 0
  [[ -r /proc/$pid/stat ]] || return 0
  # Its host, its JVM's CPU seconds and the time when it was seen listening.
  awk -v h="$h" -v hz="$(getconf CLK_TCK)" -v at="$(date +%s.%N)" \
    '{ printf "%s %.2f %s\n", h, ($14 + $15) / hz, at }' \
    "/proc/$pid/stat" >> "$LAB_DIR/spawned.start-cpu"
}

remove_spawned() {
  local ns h
  for ns in $(lab_namespaces | grep -E -- '-sp[0-9]+$'); do
    h=${ns#"$LAB_PREFIX"}
    net_del_host "$h"   # stops every process in it first
    rm -f "$LAB_DIR/pids/$h.relay"
  done
}

# The datanode hosts whose NodeManager has the relay jar of the last copy but no class-data
# archive made for it (ClassDataArchive): one line per host. With relays started by hand, none.
hosts_without_relay_archive() {
  local h jar hash
  [[ $LAB_RELAYS == yarn || $LAB_RELAYS == pool ]] || return 0
  for h in $(datanodes src) $(datanodes dst); do
    jar=$(ls -t "$LAB_DIR/hosts/$h/nm-local/filecache"/*/relaycp-relay-*.jar 2>/dev/null | head -n 1)
    [[ -n $jar ]] || { echo "$h"; continue; }
    hash=${jar##*/relaycp-relay-}; hash=${hash%.jar}
    compgen -G "$LAB_DIR/hosts/$h/nm-local/usercache/*/relaycp-class-data/relay-$hash.jsa" >/dev/null || echo "$h"
  done
}

# warm_up_lab FOLDER: untimed relaycp copies of Y until the copying phase stops falling (at
# least LAB_WARM_UP_MIN_COPIES, then until a copy is not 5% faster than the fastest before it,
# at most LAB_WARM_UP_COPIES) and, with YARN relays, every datanode has the relays' class-data
# archive: a node without it makes one (6-8 CPU-s here, lost if its container ends first),
# which would otherwise run beside the probes and the datasets' first copies
# (bench/results/lab-2026-11-27-tls-native/NOTES.md).
warm_up_lab() {
  local folder=$1 i best="" now missing
  mkdir -p "$folder"
  for ((i = 1; i <= LAB_WARM_UP_COPIES; i++)); do
    run_relaycp Y 0 "$folder"
    for f in "$folder"/Y-relaycp-k0.*; do mv "$f" "$folder/Y-$i.${f##*.}"; done
    now=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["relaycp_summary"]["phaseSeconds"]["copying"])' \
      "$folder/Y-$i.json" 2>/dev/null) || now=""
    missing=$(hosts_without_relay_archive | tr '\n' ' ')
    log "warm-up copy $i of Y: copying took ${now:-?} s${missing:+; no relay class-data archive yet on $missing}"
    [[ -n $now ]] || continue
    if [[ -n $best && -z $missing ]] && ((i >= LAB_WARM_UP_MIN_COPIES)) \
        && python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 0.95 * float(sys.argv[2]) else 1)' "$now" "$best"; then
      break
    fi
    if [[ -z $best ]] || python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$now" "$best"; then
      best=$now
    fi
  done
}

# run_relaycp DATASET K FOLDER [RELAYS_PER_SITE [CHUNKS_IN_FLIGHT_PER_ROUTE]]
# RELAYS_PER_SITE empty: one relay per datanode on each site (routes: the larger count).
run_relaycp() {
  local ds=$1 k=$2 runs=$3 routes=${4:-} in_flight=${5:-}
  local senders receivers
  senders=$(datanode_count src); receivers=$(datanode_count dst)
  if [[ -n $routes ]]; then
    ((routes < senders)) && senders=$routes
    ((routes < receivers)) && receivers=$routes
  fi
  local window=()
  [[ -n $in_flight ]] && window=(-D "relaycp.copy.chunks-in-flight-per-route=$in_flight")
  local rj="$runs/$ds-relaycp-k$k.json"
  if [[ ! -x $RELAYCP_BIN ]]; then
    log "relaycp $ds k=$k: skipped, $RELAYCP_BIN does not exist yet (awaiting the copy command)"
    python3 -c 'import json,sys; json.dump({"tool":"relaycp","dataset":sys.argv[1],"k":int(sys.argv[2]),"status":"not run: awaiting the relaycp copy command ("+sys.argv[3]+" missing)"}, open(sys.argv[4],"w"))' \
      "$ds" "$k" "$RELAYCP_BIN" "$rj"
    return 0
  fi
  local i srcs="" dsts="" h relay_options=()
  if [[ $LAB_RELAYS == pool ]]; then
    start_relay_pool
    srcs=pool; dsts=pool
    relay_options=(--relay-pool "$(relay_pool_file)")
  elif [[ $LAB_RELAYS == yarn ]]; then
    # The datanode relays are YARN containers of each site's NodeManagers, one per datanode
    # (or RELAYS_PER_SITE), started by relaycp for this copy and stopped after it.
    ensure_secret
    srcs=yarn; dsts=yarn
    relay_options=(${routes:+--relays-per-site "$routes"}
      --src-conf "$LAB_DIR/hosts/src-client/conf" --dst-conf "$LAB_DIR/hosts/dst-client/conf"
      -D "relaycp.yarn.relay-memory-mb=$LAB_RELAY_MB" -D "relaycp.relay.java-opts=$LAB_RELAY_JAVA_OPTS")
    relay_options=(--relays "$srcs" --dst-relays "$dsts" "${relay_options[@]}")
  else
    start_existing_relays
    for h in $(datanodes src | head -n "$senders"); do srcs+="${srcs:+,}$h:$RELAY_PORT"; done
    for h in $(datanodes dst | head -n "$receivers"); do dsts+="${dsts:+,}$h:$RELAY_PORT"; done
    relay_options=(--relays "$srcs" --dst-relays "$dsts" --secret-file "$LAB_DIR/secret")
  fi
  # Spawned hosts: started and released by relaycp itself through the lab's spawn service;
  # they join after the boot delay, counted from relaycp's request.
  if ((k > 0)) || [[ -n ${LAB_SPAWN_PAIRS:-} ]]; then
    relay_options+=(--spawn-command "$LAB_HOME/spawn-request.sh spawn {site} {slot}"
      --release-command "$LAB_HOME/spawn-request.sh release {site} {slot}"
      --spawn-timeout "$((LAB_BOOT_DELAY + 120))s")
    if [[ ${LAB_SPAWN_PAIRS:-} == auto ]]; then
      # The planner chooses the spawned pairs, told what a lab host costs to boot.
      relay_options+=(--pairs auto -D "relaycp.spawn.boot-seconds=$LAB_BOOT_DELAY")
    else
      relay_options+=(--spawn "$k")
    fi
    [[ -n ${LAB_PRETEST:-} ]] && relay_options+=(--pretest)
  fi
  # LAB_RELAYCP_OPTIONS: more options for this copy, e.g. "-D relaycp.relay.tls=false".
  local extra=()
  [[ -n ${LAB_RELAYCP_OPTIONS:-} ]] && read -r -a extra <<<"$LAB_RELAYCP_OPTIONS"
  RELAYCP_COPY=(in_host src-client env JAVA_HOME="$JAVA_HOME" JAVA_OPTS="$LAB_COPY_JAVA_OPTS"
    HADOOP_CONF_DIR="$LAB_DIR/hosts/src-client/conf"
    "$RELAYCP_BIN" copy "$(nn_uri src)/lab/$ds" "$(nn_uri dst)/relaycp/$ds"
    "${relay_options[@]}" --json "${window[@]}" "${extra[@]}")
  # LAB_RELAYCP_PREPARE_ONLY: the command is left in RELAYCP_COPY, not run (bench/lab resume).
  [[ -n ${LAB_RELAYCP_PREPARE_ONLY:-} ]] && return 0
  fs_rm "$(nn_uri dst)/relaycp/$ds"
  rm -f "$LAB_DIR/spawned.times" "$LAB_DIR/spawned.start-cpu"
  spawn_service_start
  log "relaycp $ds k=$k: relays $srcs -> $dsts${extra[*]:+ (${extra[*]})}"
  measure "$rj" relaycp "$ds" "$k" "$((senders + k))" "$((receivers + k))" "${RELAYCP_COPY[@]}" \
    || log "relaycp $ds k=$k exited non-zero; see $runs/$ds-relaycp-k$k.err"
  spawn_service_stop
  remove_spawned
  # The spawned relays' logs, beside the copy's own (packed with the raw logs, not kept in
  # bench/results): a relay that failed says why there, and the next copy reuses the names.
  local relay_log host
  for relay_log in "$LAB_DIR"/hosts/{src,dst}-sp*/logs/relay.log; do
    [[ -e $relay_log ]] || continue
    host=${relay_log#"$LAB_DIR/hosts/"}; host=${host%%/*}
    mkdir -p "${rj%.json}.spawned-logs"
    mv "$relay_log" "${rj%.json}.spawned-logs/$host.log"
  done
  # Keep relaycp's own JSON summary (the last line of its output that parses).
  touch "$LAB_DIR/spawned.times" "$LAB_DIR/spawned.start-cpu"
  python3 - "$rj" "${rj%.json}.out" "$LAB_DIR/spawned.times" "$LAB_DIR/spawned.start-cpu" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["spawned_up_at"] = {h: float(t) for h, t in (l.split() for l in open(sys.argv[3]) if l.strip())}
starts = [l.split() for l in open(sys.argv[4]) if l.strip()]
r["spawned_start_cpu_s"] = {f[0]: float(f[1]) for f in starts}
r["spawned_listening_at"] = {f[0]: float(f[2]) for f in starts if len(f) > 2}
for line in reversed(open(sys.argv[2]).read().splitlines()):
    try:
        r["relaycp_summary"] = json.loads(line); break
    except ValueError:
        pass
json.dump(r, open(sys.argv[1], "w"))
PY
  verify_into "$rj" "$(nn_uri src)/lab/$ds" "$(nn_uri dst)/relaycp/$ds" && log "relaycp $ds k=$k verified" \
    || log "relaycp $ds k=$k: verification FAILED"
}

# ---------------------------------------------------------------- run
cleanup_snapshot() {
  {
    echo "# $(date -u +%FT%TZ) $1"
    echo "\$ ip netns list"; ip netns list || true
    echo "\$ ip -br link   (machine namespace)"; ip -br link || true
    echo "\$ ls /etc/netns"; ls /etc/netns 2>&1 || true
    echo "\$ ls $LAB_DIR"; ls "$LAB_DIR" 2>&1 || true
    echo "\$ ps -eo pid,rss,args | grep -E 'relaycp-lab|rcl-|iperf3' (lab processes; none when empty)"
    ps -eo pid,rss,args | grep -E 'relaycp-lab|rcl-|iperf3' | grep -v -e grep -e cleanup_snapshot | cut -c1-160 || true
    echo
  }
}

lab_run() {
  local quick=0 datasets="" ks="" keep=0 down=0 out="" tools="distcp,relaycp" tools_given=0 startup=1
  while (($#)); do
    case $1 in
      --quick) quick=1 ;;
      --datasets) datasets=$2; shift ;;
      --k) ks=$2; shift ;;
      --tools) tools=$2; tools_given=1; shift ;;
      --no-startup) startup=0 ;;
      --keep) keep=1 ;;
      --down) down=1 ;;
      --out) out=$2; shift ;;
      *) die "unknown run option '$1'" ;;
    esac
    shift
  done
  # The report's pinned packages, in their virtualenv: made now, not after the copies.
  local report_python
  report_python=$("$LAB_HOME/venv.sh")
  if ((quick)); then
    datasets=${datasets:-Q}; ks=${ks:-0,1}; LAB_PROBE_SECONDS=${LAB_PROBE_SECONDS:-4}
    # The smoke set: one datanode per site unless told otherwise (or a lab is up).
    if [[ -z $LAB_DATANODES_GIVEN && -z $(lab_namespaces) ]]; then export LAB_DATANODES=1; fi
  else
    datasets=${datasets:-L,S,M}; ks=${ks:-0,2,4,6}
    # A full run measures DistCp both with its defaults and as an expert runs it.
    ((tools_given)) || tools="distcp,distcp-expert,relaycp"
  fi
  out=${out:-$LAB_REPO/bench/results/lab-$(date -u +%Y-%m-%d-%H%M)}
  mkdir -p "$out/runs"
  out=$(cd "$out" && pwd)
  local started=0
  if [[ -n $(lab_namespaces) ]] && ! lab_daemons_alive; then
    die "a lab is up but its HDFS daemons are not running (left by a run that was killed?); run 'bench/lab down' and try again"
  fi
  if [[ -z $(lab_namespaces) ]]; then
    "$LAB_REPO/bench/lab" up >&2 || die "bench/lab up failed"
    started=1
  fi
  # bin/relaycp builds the jar when the sources are newer; do it now, not while measuring.
  if [[ -x $RELAYCP_BIN ]]; then
    log "checking that relaycp is built ($RELAYCP_BIN --version)"
    "$RELAYCP_BIN" --version > "$LAB_DIR/relaycp-version.log" 2>&1 \
      || die "$RELAYCP_BIN --version failed; see $LAB_DIR/relaycp-version.log"
  fi
  local t_start load_start; t_start=$(date +%s); load_start=$(cut -d' ' -f1-3 /proc/loadavg)
  log "probing the caps"
  probe_caps "$out" | tee "$out/probe.txt"
  if [[ ,$tools, == *,relaycp,* ]]; then make_spawned_image; fi
  # Each tool's fixed start-up and cost per file on this machine, from copies of one 1 KiB
  # file (T) and of 300 (U): inputs of the planner's predictions (as a user would know
  # their cluster's job start-up), kept apart from the datasets' runs. Skipped by --quick,
  # which must finish in under five minutes.
  if ((!quick && startup)); then
    log "measuring each tool's start-up and cost per file (datasets T, U; DistCp W and V, relaycp Y, X, B, and Z alone and over spawned pairs)"
    mkdir -p "$out/startup"
    # The probes' files are written from every datanode whatever LAB_WRITE_FROM says: the
    # calibration stays the same, and only the datasets' layouts change between runs.
    for ds in T U W Y; do LAB_WRITE_FROM=every gen_dataset "$ds"; done
    # A real cluster's namenodes, datanodes and relays are long-running daemons, warm in
    # service; the lab's have just started, and on two cores their JIT compilers take some
    # ten thousand files to settle: fourteen copies of W (1,200 files) in a row took 26.2,
    # 16.0, 13.8, 13.5, 11.6, 10.0, 11.0, 12.2, 10.1, 9.8, 8.1, 7.7, 7.8 and 11.2 s of copying
    # (bench/results/lab-2026-11-23-warm-up/). Untimed copies of Y (warm_up_lab) warm them
    # before the probes, so that the probes measure the cluster the datasets' runs find.
    if [[ ,$tools, == *,relaycp,* ]]; then warm_up_lab "$out/startup/warm-up"; fi
    # DistCp's probes run with its defaults; they calibrate the DistCp model, which predicts
    # DistCp run as an expert runs it too, so they run for either.
    local probe_distcp=0
    [[ ,$tools, == *,distcp,* || ,$tools, == *,distcp-expert,* ]] && probe_distcp=1
    for ds in T U W Y; do
      if ((probe_distcp)) && [[ $ds != Y ]]; then run_distcp "$ds" "$out/startup"; fi
      if [[ ,$tools, == *,relaycp,* && $ds != W ]]; then run_relaycp "$ds" 0 "$out/startup"; fi
    done
    # DistCp's cost per file may depend on the maps copying at once (they share the namenodes
    # and, here, two cores): V is one map, beside W's every slot.
    if ((probe_distcp)); then LAB_WRITE_FROM=every gen_dataset V; run_distcp V "$out/startup" 1; fi
    # relaycp's cost per file may stop falling with more streams (they share the namenodes
    # and two cores): X is W's 1,200 files with a quarter of Y's streams (every route, 4 chunks in flight
    # on each instead of 16), which keeps it below the routes' WAN caps.
    if [[ ,$tools, == *,relaycp,* ]]; then
      LAB_WRITE_FROM=every gen_dataset X; run_relaycp X 0 "$out/startup" "" "$LAB_X_CHUNKS_IN_FLIGHT"
    fi
    # On cores every host shares, a byte's CPU bounds a copy of large files as much as the
    # links do: B's large files over T's one small one price it.
    if [[ ,$tools, == *,relaycp,* ]]; then
      LAB_WRITE_FROM=every gen_dataset B; run_relaycp B 0 "$out/startup"
    fi
    # A spawned relay is a fresh JVM that may pay more per file than the warm datanode relays
    # (and here it shares their cores): Z alone, then over every datanode route and
    # LAB_SPAWNED_PROBE_PAIRS spawned pairs that join at once. Z is long enough that the
    # spawned relays, some 50 s into their start on these cores, still find work.
    if [[ ,$tools, == *,relaycp,* ]] && ((LAB_SPAWNED_PROBE_PAIRS > 0)); then
      LAB_WRITE_FROM=every gen_dataset Z
      run_relaycp Z 0 "$out/startup"
      LAB_BOOT_DELAY=0 run_relaycp Z "$LAB_SPAWNED_PROBE_PAIRS" "$out/startup"
    fi
  fi
  # Without the probes the daemons are as cold as the lab is new, while the predictions come
  # from probes made on a warmed lab and a cluster's daemons are warm in service: the same
  # untimed copies of Y warm them first (and leave the relay jar on every NodeManager, as a
  # full run's probes do). LAB_WARM_UP_COPIES=0 skips them.
  if ((!quick && !startup)) && [[ ,$tools, == *,relaycp,* ]] && ((LAB_WARM_UP_COPIES > 0)); then
    LAB_WRITE_FROM=every gen_dataset Y
    warm_up_lab "$out/warm-up"
  fi
  # The quick run has room for neither, and its predictions take the planner's defaults, which
  # come from warmed labs (CopyOverheads). One untimed copy of its first dataset leaves the
  # relay jar in each site's staging folder and each node its relays' class-data archive, as
  # the warm-up leaves a full run's: without it the timed k = 0 copy was the first on the lab
  # and paid for both (its relays up after 8.3-9.1 s against 5.1 s at k = 1 right after it,
  # 15-20% slower than predicted, in the CI runs of 2026-11-29).
  if ((quick)) && [[ ,$tools, == *,relaycp,* ]] && ((LAB_WARM_UP_COPIES > 0)); then
    gen_dataset "${datasets%%,*}"
    mkdir -p "$out/warm-up"
    run_relaycp "${datasets%%,*}" 0 "$out/warm-up"
  fi
  local ds k
  for ds in ${datasets//,/ }; do
    gen_dataset "$ds"
    if [[ ,$tools, == *,distcp,* ]]; then run_distcp "$ds" "$out/runs"; fi
    if [[ ,$tools, == *,distcp-expert,* ]]; then run_distcp_expert "$ds" "$out/runs"; fi
    if [[ ,$tools, == *,relaycp,* ]]; then
      # What YARN's relays cost against relays already running: in a full run, L at k = 0 also
      # over relay daemons the lab starts on the datanodes before the copy (hand/), stopped
      # again before the YARN copies, so both figures come from the same lab in one run.
      if ((!quick)) && [[ $ds == L && $LAB_RELAYS == yarn && ,$ks, == *,0,* ]]; then
        mkdir -p "$out/hand"
        LAB_RELAYS=hand run_relaycp L 0 "$out/hand"
        stop_existing_relays
      fi
      for k in ${ks//,/ }; do run_relaycp "$ds" "$k" "$out/runs"; done
    fi
  done
  # A pool the run started ends with it (its containers hold the NodeManagers' memory).
  stop_relay_pool
  keep_placements "$out" ${datasets//,/ }
  python3 - "$out" <<PY
import json, sys
json.dump({"v_i_mbit": $LAB_VI_MBIT, "v_e_mbit": $LAB_VE_MBIT, "datanodes_per_site": $(datanode_count src),
           "src_datanodes": $(datanode_count src), "dst_datanodes": $(datanode_count dst), "write_from": "$LAB_WRITE_FROM",
           "slots_per_node": $LAB_SLOTS_PER_NODE, "replication": $LAB_REPLICATION,
           "block_size": $LAB_BLOCK_SIZE, "boot_delay_s": $LAB_BOOT_DELAY, "spawned_java_opts": "$LAB_SPAWNED_JAVA_OPTS",
           "x_chunks_in_flight": $LAB_X_CHUNKS_IN_FLIGHT, "spawned_probe_pairs": $LAB_SPAWNED_PROBE_PAIRS, "warm_up_copies": [$LAB_WARM_UP_MIN_COPIES, $LAB_WARM_UP_COPIES],
           "quick": bool($quick), "datasets": "$datasets", "k": "$ks",
           "file_sizes": {$(for d in ${datasets//,/ }; do printf '"%s": "%s", ' "$d" "$(dataset_histogram "$d")"; done)"-": ""},
           "cores": $(nproc), "run_seconds": $(date +%s) - $t_start,
           "loadavg_at_start": "$load_start", "loadavg_at_end": "$(cut -d' ' -f1-3 /proc/loadavg)",
           "relays": "$LAB_RELAYS", "relay_container_mb": $LAB_RELAY_MB,
           "relay_java_opts": "$LAB_RELAY_JAVA_OPTS", "copy_java_opts": "$LAB_COPY_JAVA_OPTS",
           "expert_close_retry_ms": ${LAB_EXPERT_CLOSE_RETRY_MS:-400},
           "relaycp_bin": "$RELAYCP_BIN"},
          open(sys.argv[1] + "/lab.json", "w"), indent=2)
PY
  log "writing the report"
  local rc=0
  "$report_python" "$LAB_HOME/report.py" "$out" | tee "$out/report.log" || rc=$?
  ((rc == 0)) || log "some checks failed, or the report could not be written (see $out/report.log)"
  if (((started && !keep) || down)); then
    cleanup_snapshot "before bench/lab down" > "$out/cleanup.txt"
    "$LAB_REPO/bench/lab" down 2>&1 | tail -1 >&2
    cleanup_snapshot "after bench/lab down" >> "$out/cleanup.txt"
  fi
  log "results in $out"
  return $rc
}
