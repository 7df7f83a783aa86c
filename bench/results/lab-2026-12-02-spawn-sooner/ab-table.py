#!/usr/bin/env python3
"""One row per relaycp copy with spawned relays of an A/B (bench/lab.d/ab.sh, and the lab run
that brought the lab up), for when the spawned hosts were asked for: seconds from the copy's
start to the listing's end (relaycp's own clock starts when its JVM does), to the hosts'
joining their site (the request plus the lab's boot delay), to their relays' listening (where
recorded) and to the spawned routes' joining, with the copy's steady fraction of the limit as
the lab's report computes it (labreport.parse.analyse).

    python3 ab-table.py LAB_RUN_DIR DATASET K AB_DIR... > ab.md
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lab.d"))
from labreport import parse  # noqa: E402


def span(values):
    return f"{min(values):.1f}-{max(values):.1f}" if values else "-"


def main(lab_run, dataset, k, folders):
    lab = json.load(open(os.path.join(lab_run, "lab.json")))
    placement = parse.load_placement(lab_run, lab, dataset)
    boot = lab.get("boot_delay_s", 20)
    copies = [("lab run", "0", os.path.join(lab_run, "runs", f"{dataset}-relaycp-k{k}.json"))]
    for folder in folders:
        for path in glob.glob(os.path.join(folder, "*-*", f"{dataset}-relaycp-k{k}.json")):
            build, round_ = os.path.basename(os.path.dirname(path)).rsplit("-", 1)
            copies.append((build, round_, path))
    rows = []
    for build, round_, path in copies:
        run = json.load(open(path))
        run.setdefault("tool", "relaycp")
        analysed = parse.analyse(run, lab, path[: -len(".json")] + ".csv", {}, placement)
        summary = run["relaycp_summary"]
        t0 = run["started_at"]
        jvm = run["wall_seconds"] - summary["seconds"]
        joined = [at - t0 for at in run.get("spawned_up_at", {}).values()]
        listening = [at - t0 for at in run.get("spawned_listening_at", {}).values()]
        routes = [r["joinedSeconds"] for r in summary["routeRates"] if r["route"] >= 1000]
        rows.append((t0, f"| {build} | {round_} | {run['wall_seconds']:.1f} |"
                     f" {jvm + summary['phaseSeconds']['listing']:.1f} |"
                     f" {span([j - boot for j in joined])} | {span(joined)} | {span(listening)} |"
                     f" {span(routes)} | {analysed.get('fraction_of_limit', float('nan')):.3f} |"
                     f" {analysed.get('cpu_busy_pct', float('nan')):.1f} |"))
    print("| build | round | wall s | listing ended s | hosts asked s | hosts joined s |"
          " relays listening s | spawned routes joined s | steady fraction | CPU % |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for _, row in sorted(rows):
        print(row)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
