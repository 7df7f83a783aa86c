"""The A/B's copies through the lab report's own analysis (labreport.parse.analyse): seconds,
steady MB/s against the steady limit (which counts a spawned host from its boot), and how often each destination datanode's in-link,
which bounds this layout's limit, carried on average, and how often it fell below 70% of v_i
in a second of the steady window. (The steady MB/s are the WAN's, counted at the router: bytes
the writers still buffer count as copied, which flatters copies whose buffers fill, such as
those with spawned writers; the in-links say what reached the datanodes.)

    python3 summary.py LAB_JSON AB_DIR   (LAB_JSON: a lab.json of the same layout; AB_DIR has
                                          placement/L.json from ab.sh)
"""
import collections
import csv
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lab.d"))
from labreport import parse  # noqa: E402

lab_json, ab_dir = sys.argv[1], sys.argv[2]
lab = json.load(open(lab_json))
lab.update({"src_datanodes": 4, "dst_datanodes": 2, "replication": 3, "datasets": "L", "k": "0"})
placement = parse.load_placement(ab_dir, lab, "L")
cap = lab["v_i_mbit"] / 8


def in_links(links_csv, start, end):
    """For each destination datanode's in-link over [start, end): the seconds in which it
    carried less than 70% of v_i, and its mean MB/s (on the wire)."""
    samples = collections.defaultdict(list)
    for row in csv.DictReader(open(links_csv)):
        if row["host"].startswith("dst-dn"):
            samples[row["host"]].append((float(row["t"]), int(row["bytes_in"])))
    low, mean = {}, {}
    for host, points in sorted(samples.items()):
        seconds = collections.defaultdict(float)
        for (t0, b0), (t1, b1) in zip(points, points[1:]):
            if start <= t0 < end:
                seconds[int(t0)] += b1 - b0
        low[host] = sum(1 for moved in seconds.values() if moved / 1e6 < 0.7 * cap)
        mean[host] = sum(seconds.values()) / 1e6 / max(1, len(seconds))
    return low, mean


print("| window per route | round | k | s | steady MB/s | steady limit | fraction |"
      " dst-dn1, dst-dn2 in: MB/s on the wire | seconds below 70% of v_i | steady window s |")
print("|---|---|---|---|---|---|---|---|---|---|")
for path in sorted(glob.glob(os.path.join(ab_dir, "*", "L-relaycp-k*.json")),
                   key=lambda p: (os.path.basename(os.path.dirname(p)).split("-")[1],
                                  os.path.basename(os.path.dirname(p)))):
    window, round_ = os.path.basename(os.path.dirname(path)).split("-")
    run = json.load(open(path))
    out = parse.analyse(run, lab, path[:-5] + ".csv", {}, placement)
    base = parse.timeline(path[:-5] + ".csv")[0]["t"]
    start, end = (base + t for t in out["steady_window_s"])
    low, mean = in_links(path[:-5] + ".links-dst.csv", start, end)
    print(f"| {window} | {round_} | {run['k']} | {run['wall_seconds']:.1f} | {out['steady_mb_per_s']:.2f} |"
          f" {out['steady_limit_mb_per_s']:.2f} | {out['fraction_of_limit']:.3f} |"
          f" {', '.join(f'{v:.2f}' for v in mean.values())} |"
          f" {', '.join(str(v) for v in low.values())} |"
          f" {end - start:.0f} |")
