# shellcheck shell=bash
# Issue 15's lab checks, on a lab that is up (`bench/lab up`, or a run with --keep):
#   bench/lab resume [--dataset L] [--at 0.5] [--out DIR]
#       relaycp's copy of the dataset (k = 0, the datanode relays as run_relaycp starts them),
#       its driver killed with SIGKILL once that fraction of the dataset has crossed the WAN,
#       then the same command again; records both runs, the bytes that crossed the WAN in all
#       (the router's counters) against the dataset, and verifies the copy.
#   bench/lab tls [--dataset L] [--out DIR]
#       the same copy with relaycp.relay.tls=false, then with TLS (the default), back to back.

# The bytes the router has forwarded from src to dst so far.
wan_bytes() {
  ip netns exec "$ROUTER" python3 -c '
import sys
for line in open("/proc/net/dev"):
    name, _, rest = line.partition(":")
    if name.strip() == "r-dst":
        print(rest.split()[8]); break'
}

# trust_options NAME [options]: parses the options; the results go to --out or a dated folder.
trust_options() {
  local name=$1; shift
  TRUST_DS=L TRUST_AT=0.5 TRUST_OUT=""
  while (($#)); do
    case $1 in
      --dataset) TRUST_DS=$2; shift ;;
      --at) TRUST_AT=$2; shift ;;
      --out) TRUST_OUT=$2; shift ;;
      *) die "unknown option '$1'" ;;
    esac
    shift
  done
  [[ -n $(lab_namespaces) ]] && lab_daemons_alive || die "no lab is up; run 'bench/lab up' first"
  TRUST_OUT=${TRUST_OUT:-$LAB_REPO/bench/results/lab-$(date -u +%Y-%m-%d-%H%M)-$name}
  mkdir -p "$TRUST_OUT"
  TRUST_OUT=$(cd "$TRUST_OUT" && pwd)
  gen_dataset "$TRUST_DS"
}

lab_resume() {
  trust_options resume "$@"
  local ds=$TRUST_DS out=$TRUST_OUT dataset_bytes
  dataset_bytes=$(JOPTS=-Xmx192m host_java src-client org.apache.hadoop.fs.FsShell -du -s \
    "$(nn_uri src)/lab/$ds" 2>/dev/null | awk '{print $1}')
  [[ $dataset_bytes =~ ^[0-9]+$ ]] || die "cannot size dataset $ds"
  # The command run_relaycp would run, without running it. The killed driver's relay
  # containers hold their NodeManagers' relay slot until they miss its heartbeat, and the
  # second run takes up the staging once its heartbeat has been still three beats: both
  # shortened (15 s each), so the second run does not wait a minute for either.
  local shorter="-D relaycp.relay.driver-timeout-seconds=15 -D relaycp.copy.staging-heartbeat-seconds=5"
  LAB_RELAYCP_PREPARE_ONLY=1 LAB_RELAYCP_OPTIONS="$shorter" run_relaycp "$ds" 0 "$out"
  local command=("${RELAYCP_COPY[@]}")
  fs_rm "$(nn_uri dst)/relaycp/$ds"
  local threshold wan0 t0 t1 t2 t3 wan1 wan2 rc=0
  threshold=$(python3 -c "print(int($dataset_bytes * $TRUST_AT))")
  ip netns exec "$ROUTER" python3 "$LAB_HOME/sample.py" "$out/resume.csv" 0.25 &
  local sampler=$!
  start_link_samplers "$out/resume"
  wan0=$(wan_bytes); t0=$(date +%s.%N)
  log "relaycp $ds: first run, to be killed once $threshold of $dataset_bytes bytes have crossed"
  LAB_PIDFILE="$LAB_DIR/pids/resume-driver" "${command[@]}" > "$out/first.out" 2> "$out/first.err" &
  local shell_pid=$!
  while kill -0 "$shell_pid" 2>/dev/null; do
    if (($(wan_bytes) - wan0 >= threshold)); then
      kill -9 "$(cat "$LAB_DIR/pids/resume-driver")" 2>/dev/null || true
      break
    fi
    sleep 0.2
  done
  wait "$shell_pid" 2>/dev/null || true
  t1=$(date +%s.%N); wan1=$(wan_bytes)
  log "driver killed after $(python3 -c "print(round($t1 - $t0, 1))") s, $((wan1 - wan0)) bytes crossed"
  t2=$(date +%s.%N)
  "${command[@]}" > "$out/second.out" 2> "$out/second.err" || rc=$?
  t3=$(date +%s.%N); wan2=$(wan_bytes)
  kill "$sampler"; wait "$sampler" 2>/dev/null || true
  stop_link_samplers
  log "second run exited $rc after $(python3 -c "print(round($t3 - $t2, 1))") s"
  python3 - "$out/resume.json" "$ds" "$dataset_bytes" "$TRUST_AT" "$t0" "$t1" "$t2" "$t3" \
    "$wan0" "$wan1" "$wan2" "$rc" "$out/second.out" "${command[*]}" <<'PY'
import json, sys
(path, ds, size, at, t0, t1, t2, t3, w0, w1, w2, rc, out, command) = sys.argv[1:]
summary = None
for line in reversed(open(out).read().splitlines()):
    try:
        summary = json.loads(line); break
    except ValueError:
        pass
size, w0, w1, w2 = int(size), int(w0), int(w1), int(w2)
json.dump({"dataset": ds, "dataset_bytes": size, "kill_at_fraction": float(at),
           "first_run": {"seconds": round(float(t1) - float(t0), 2), "wan_bytes": w1 - w0},
           "second_run": {"seconds": round(float(t3) - float(t2), 2), "wan_bytes": w2 - w1,
                          "exit_code": int(rc),
                          "summary": {k: summary.get(k) for k in (
                              "resumed", "run", "bytesReused", "chunksReused",
                              "filesCommittedEarlier", "bytes", "seconds", "verified")}
                          if summary else None},
           "wan_bytes_total": w2 - w0, "wan_over_dataset": round((w2 - w0) / size, 4),
           "command": command}, open(path, "w"), indent=1)
PY
  verify_into "$out/resume.json" "$(nn_uri src)/lab/$ds" "$(nn_uri dst)/relaycp/$ds" \
    && log "relaycp $ds verified after the resume" || log "relaycp $ds: verification FAILED"
  python3 - "$out/resume.json" <<'PY' | tee "$out/resume.md"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["second_run"]["summary"] or {}
ok = (r["second_run"]["exit_code"] == 0 and (r.get("verify") or {}).get("ok") is True
      and r["wan_over_dataset"] <= 1.1 and s.get("resumed") is True)
print(f"# Resume after a killed driver ({r['dataset']}, killed at {r['kill_at_fraction']:.0%})\n")
print("| run | seconds | bytes across the WAN |\n|---|---|---|")
print(f"| first (SIGKILL) | {r['first_run']['seconds']} | {r['first_run']['wan_bytes']} |")
print(f"| second (same command) | {r['second_run']['seconds']} | {r['second_run']['wan_bytes']} |")
print(f"\nDataset {r['dataset_bytes']} bytes; across the WAN in all {r['wan_bytes_total']}"
      f" = {r['wan_over_dataset']:.3f}x the dataset (target at most 1.1x). The second run"
      f" says resumed={s.get('resumed')}, run={s.get('run')}, bytesReused={s.get('bytesReused')},"
      f" chunksReused={s.get('chunksReused')}; exit {r['second_run']['exit_code']};"
      f" verified by the lab: {(r.get('verify') or {}).get('ok')}.\n")
print(f"- {'PASS' if ok else 'FAIL'} resumed, verified, WAN bytes at most 1.1x the dataset")
sys.exit(0 if ok else 1)
PY
}

lab_tls() {
  trust_options tls "$@"
  local ds=$TRUST_DS out=$TRUST_OUT
  mkdir -p "$out/plaintext" "$out/tls"
  LAB_RELAYCP_OPTIONS="-D relaycp.relay.tls=false" run_relaycp "$ds" 0 "$out/plaintext"
  run_relaycp "$ds" 0 "$out/tls"
  python3 - "$out" "$ds" <<'PY' | tee "$out/tls.md"
import json, os, sys
out, ds = sys.argv[1:]
def load(kind):
    r = json.load(open(os.path.join(out, kind, f"{ds}-relaycp-k0.json")))
    for line in reversed(open(os.path.join(out, kind, f"{ds}-relaycp-k0.out")).read().splitlines()):
        try:
            r["relaycp_summary"] = json.loads(line); break
        except ValueError:
            pass
    return r
plain, tls = load("plaintext"), load("tls")
over = 100 * (tls["wall_seconds"] / plain["wall_seconds"] - 1)
ok = all(r["exit_code"] == 0 and (r.get("verify") or {}).get("ok") for r in (plain, tls)) and over <= 5
json.dump({"dataset": ds, "plaintext": plain, "tls": tls, "tls_over_plaintext_pct": round(over, 2)},
          open(os.path.join(out, "tls.json"), "w"), indent=1)
print(f"# TLS on the relay links: {ds} at k = 0, back to back\n")
print("| relay links | seconds | copying s | verified |\n|---|---|---|---|")
for name, r in (("plaintext (relaycp.relay.tls=false)", plain), ("TLS 1.3 (default)", tls)):
    phases = (r.get("relaycp_summary") or {}).get("phaseSeconds") or {}
    print(f"| {name} | {r['wall_seconds']} | {phases.get('copying')} | {(r.get('verify') or {}).get('ok')} |")
print(f"\n- {'PASS' if ok else 'FAIL'} TLS within 5% of plaintext: {over:+.1f}%")
sys.exit(0 if ok else 1)
PY
}
