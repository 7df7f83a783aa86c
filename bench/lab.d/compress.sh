# shellcheck shell=bash
# Issue 16's compression check, on a lab that is up (`bench/lab up`, or a run with --keep):
#   bench/lab compress [--out DIR]
#       relaycp's copy at k = 0 of C (service logs) and of L (random bytes), each without and
#       then with --compress (relaycp.copy.compress=true), back to back; records each run's
#       seconds and the bytes that crossed the WAN (the router's counters), verifies each copy,
#       and checks that C with --compress beats the WAN's limit for C uncompressed and that L
#       with it is no slower than without.

lab_compress() {
  local out=""
  while (($#)); do
    case $1 in
      --out) out=$2; shift ;;
      *) die "unknown option '$1'" ;;
    esac
    shift
  done
  [[ -n $(lab_namespaces) ]] && lab_daemons_alive || die "no lab is up; run 'bench/lab up' first"
  out=${out:-$LAB_REPO/bench/results/lab-$(date -u +%Y-%m-%d-%H%M)-compress}
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  local ds kind wan0 wan1 bytes
  for ds in C L; do
    gen_dataset "$ds"
    bytes=$(JOPTS=-Xmx192m host_java src-client org.apache.hadoop.fs.FsShell -du -s \
      "$(nn_uri src)/lab/$ds" 2>/dev/null | awk '{print $1}')
    [[ $bytes =~ ^[0-9]+$ ]] || die "cannot size dataset $ds"
    echo "$bytes" > "$out/$ds.bytes"
    for kind in plain compressed; do
      mkdir -p "$out/$kind"
      wan0=$(wan_bytes)
      if [[ $kind == compressed ]]; then
        LAB_RELAYCP_OPTIONS="-D relaycp.copy.compress=true" run_relaycp "$ds" 0 "$out/$kind"
      else
        run_relaycp "$ds" 0 "$out/$kind"
      fi
      wan1=$(wan_bytes)
      echo $((wan1 - wan0)) > "$out/$kind/$ds.wan-bytes"
    done
  done
  local pairs; pairs=$(datanode_count src); (($(datanode_count dst) < pairs)) && pairs=$(datanode_count dst)
  python3 - "$out" "$pairs" "$LAB_VE_MBIT" <<'PY' | tee "$out/compress.md"
import json, os, sys
out, nodes, ve = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
# The WAN's payload ceiling: every datanode's v_e, less the ~5% of TCP/IP headers.
limit = nodes * ve * 1e6 / 8 * 0.95
rows, result, ok = [], {}, True
for ds in ("C", "L"):
    size = int(open(os.path.join(out, f"{ds}.bytes")).read())
    runs = {}
    for kind in ("plain", "compressed"):
        r = json.load(open(os.path.join(out, kind, f"{ds}-relaycp-k0.json")))
        summary = None
        for line in reversed(open(os.path.join(out, kind, f"{ds}-relaycp-k0.out")).read().splitlines()):
            try:
                summary = json.loads(line); break
            except ValueError:
                pass
        wan = int(open(os.path.join(out, kind, f"{ds}.wan-bytes")).read())
        runs[kind] = {"seconds": r["wall_seconds"], "exit_code": r["exit_code"],
                      "verified": (r.get("verify") or {}).get("ok"), "wan_bytes": wan,
                      "copying_seconds": ((summary or {}).get("phaseSeconds") or {}).get("copying"),
                      "relaycp_wire_bytes": (summary or {}).get("wireBytes"),
                      "command": r["command"]}
        ok = ok and r["exit_code"] == 0 and runs[kind]["verified"] is True
    result[ds] = {"dataset_bytes": size, "uncompressed_limit_seconds": round(size / limit, 1),
                  "runs": runs, "ratio": round(size / runs["compressed"]["wan_bytes"], 3)}
json.dump(result, open(os.path.join(out, "compress.json"), "w"), indent=1)
print("# --compress on the relay hop: C (service logs) and L (random), k = 0, back to back\n")
print(f"WAN payload limit {limit / 1e6:.2f} MB/s ({nodes} datanodes x {ve:g} Mbit/s, less 5% headers).\n")
print("| dataset | relay hop | seconds | copying s | MB across the WAN | dataset / WAN bytes | verified |")
print("|---|---|---|---|---|---|---|")
for ds, r in result.items():
    for kind, run in r["runs"].items():
        print(f"| {ds} | {kind} | {run['seconds']} | {run['copying_seconds']} | "
              f"{run['wan_bytes'] / 1e6:.1f} | {r['dataset_bytes'] / run['wan_bytes']:.2f} | {run['verified']} |")
c, l = result["C"], result["L"]
beats = c["runs"]["compressed"]["seconds"] < c["uncompressed_limit_seconds"]
slower = l["runs"]["compressed"]["seconds"] / l["runs"]["plain"]["seconds"] - 1
print(f"\nC is {c['dataset_bytes'] / 1e6:.0f} MB; uncompressed, the WAN limit alone takes "
      f"{c['uncompressed_limit_seconds']} s.\n")
print(f"- {'PASS' if beats else 'FAIL'} C with --compress faster than the WAN allows it uncompressed: "
      f"{c['runs']['compressed']['seconds']} s against {c['uncompressed_limit_seconds']} s "
      f"(ratio {c['ratio']:.2f})")
print(f"- {'PASS' if slower <= 0.03 else 'FAIL'} L with --compress no slower than without "
      f"(3% noise allowed): {100 * slower:+.1f}%")
print(f"- {'PASS' if ok else 'FAIL'} every copy exited 0 and verified")
sys.exit(0 if beats and slower <= 0.03 and ok else 1)
PY
}
