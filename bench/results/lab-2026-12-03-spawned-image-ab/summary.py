"""The A/B's copies through the lab report's own analysis (labreport.parse.analyse): seconds,
steady MB/s against the steady limit, the spawned relays' CPU and listening against their
hosts' joining, and when the spawned routes joined.

    python3 summary.py LAB_FOLDER AB_DIR   (LAB_FOLDER: the lab run whose lab.json and
                                            placement/ the copies share)
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lab.d"))
from labreport import parse  # noqa: E402

lab_folder, ab_dir = sys.argv[1], sys.argv[2]
lab = json.load(open(os.path.join(lab_folder, "lab.json")))
placement = parse.load_placement(lab_folder, lab, "L")
print("| archive | round | s | steady MB/s | steady limit | fraction | spawned CPU-s at listening |"
      " listening, against the first host up | spawned routes joined s |")
print("|---|---|---|---|---|---|---|---|---|")
for path in sorted(glob.glob(os.path.join(ab_dir, "*", "L-relaycp-k6.json")),
                   key=lambda p: (os.path.basename(os.path.dirname(p)).split("-")[1],
                                  os.path.basename(os.path.dirname(p)))):
    image, round_ = os.path.basename(os.path.dirname(path)).split("-")
    run = json.load(open(path))
    out = parse.analyse(run, lab, path[:-5] + ".csv", {}, placement)
    up = run["spawned_up_at"].values()
    listening = [t - min(up) for t in run["spawned_listening_at"].values()]
    cpu = run["spawned_start_cpu_s"].values()
    joined = sorted(r["joinedSeconds"] for r in run["relaycp_summary"]["routeRates"])[3:]
    print(f"| {'yes' if image == '1' else 'no'} | {round_} | {run['wall_seconds']:.1f} |"
          f" {out['steady_mb_per_s']:.2f} | {out['steady_limit_mb_per_s']:.2f} |"
          f" {out['fraction_of_limit']:.3f} | {min(cpu):.2f}-{max(cpu):.2f} |"
          f" {min(listening):+.1f} to {max(listening):+.1f} s |"
          f" {min(joined):.1f}-{max(joined):.1f} |")
