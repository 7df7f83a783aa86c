"""The A/B's copies of S: relaycp through a relay pool and through YARN relays started for
each copy, and the expert DistCp before and after, each with its seconds, its phases and its
CPU from /proc (process_cpu.py's roles; the tool's own as the lab report counts it).

    python3 summary.py AB_DIR > summary.md; python3 summary.py AB_DIR --json > summary.json
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lab.d"))
from labreport import parse  # noqa: E402

ab_dir = sys.argv[1]
FILES = 5000
rows = []
for folder in sorted(glob.glob(os.path.join(ab_dir, "*-[0-9]"))):
    name = os.path.basename(folder)
    mode, round_ = name.rsplit("-", 1)
    tool = "distcp-expert" if mode == "distcp" else "relaycp"
    path = os.path.join(folder, f"S-{tool}{'-k0' if tool == 'relaycp' else ''}.json")
    run = json.load(open(path))
    cpu = json.load(open(path[:-5] + ".cpu"))["seconds"]
    own = sum(cpu.get(role, 0.0) for role in parse.TOOL_ROLES[tool])
    phases = run.get("relaycp_summary", {}).get("phaseSeconds", {})
    rows.append({"mode": mode, "round": int(round_), "seconds": run["wall_seconds"],
                 "verified": run.get("verify", {}).get("ok"),
                 "phases": phases, "cpu": {k: round(v, 1) for k, v in cpu.items()},
                 "tool_cpu": round(own, 1), "tool_cpu_per_1000_files": round(own / FILES * 1000, 2)})
rows.sort(key=lambda r: (r["round"], r["mode"]))
if "--json" in sys.argv:
    json.dump(rows, sys.stdout, indent=1)
    sys.exit()
print("| round | relays | s | listing s | relays s | copying s | relays CPU-s | driver CPU-s |"
      " pool CPU-s | tool's own CPU-s | per 1,000 files | datanodes CPU-s | namenodes CPU-s | verified |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    p, c = r["phases"], r["cpu"]
    dash = "–"
    fmt = lambda v: dash if v is None else f"{v:.1f}"  # noqa: E731
    relays = {"pool": "relay pool", "yarn": "YARN, per copy", "distcp": "DistCp (expert)"}[r["mode"]]
    print(f"| {r['round']} | {relays} | {r['seconds']:.1f} | {fmt(p.get('listing'))} |"
          f" {fmt(p.get('relays'))} | {fmt(p.get('copying'))} | {fmt(c.get('relaycp-relay'))} |"
          f" {fmt(c.get('relaycp-driver'))} | {fmt(c.get('relaycp-pool'))} | {r['tool_cpu']:.1f} |"
          f" {r['tool_cpu_per_1000_files']:.2f} | {fmt(c.get('datanode'))} | {fmt(c.get('namenode'))} |"
          f" {'yes' if r['verified'] else 'NO'} |")
