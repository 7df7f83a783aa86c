#!/usr/bin/env python3
"""One row per copy of an A/B (bench/lab.d/ab.sh) of relaycp with spawned relays: wall and
copying seconds, the relays' and the driver's CPU seconds (the lab's .cpu file), and for the
spawned hosts their relays' CPU seconds at listening, when the hosts joined their site, when
their relays answered and when their routes joined, each in seconds from the copy's start.

    python3 ab-table.py AB_DIR DATASET K > ab-<dataset>.md
"""
import glob
import json
import os
import sys


def span(values):
    return f"{min(values):.1f}-{max(values):.1f}" if values else "-"


def main(folder, dataset, k):
    print("| build | round | wall s | copying s | relays CPU-s | driver CPU-s | spawned start"
          " CPU-s | hosts joined s | relays answered s | routes joined s | outcomes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    runs = []
    for path in glob.glob(os.path.join(folder, "*-*", f"{dataset}-relaycp-k{k}.json")):
        build, round_ = os.path.basename(os.path.dirname(path)).rsplit("-", 1)
        run = json.load(open(path))
        runs.append((int(round_), run["started_at"], build, path, run))
    for round_, _, build, path, run in sorted(runs):
        summary = run["relaycp_summary"]
        cpu = json.load(open(path[: -len(".json")] + ".cpu"))["seconds"]
        start_cpu = list(run.get("spawned_start_cpu_s", {}).values())
        joined = [at - run["started_at"] for at in run.get("spawned_up_at", {}).values()]
        hosts = summary.get("spawned", {}).get("hosts", [])
        answered = [h["answeredSeconds"] for h in hosts if h.get("answeredSeconds")]
        routes = [r["joinedSeconds"] for r in summary["routeRates"] if r["route"] >= 1000]
        outcomes = "/".join(sorted({h["outcome"] for h in hosts}))
        start = f"{min(start_cpu):.2f}-{max(start_cpu):.2f}" if start_cpu else "-"
        print(f"| {build} | {round_} | {run['wall_seconds']:.1f} |"
              f" {summary['phaseSeconds']['copying']:.1f} | {cpu.get('relaycp-relay', 0):.1f} |"
              f" {cpu.get('relaycp-driver', 0):.1f} | {start} | {span(joined)} |"
              f" {span(answered)} | {span(routes)} | {outcomes} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
