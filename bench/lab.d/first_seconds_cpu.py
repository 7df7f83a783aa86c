#!/usr/bin/env python3
"""CPU seconds by role in the first SECONDS of each copy of a lab run folder (default 15), from
the timeline process_cpu.py keeps in each run's .cpu file: where the CPU went while the relays
started (the NodeManagers launching containers, the relay JVMs, the driver).

    python3 bench/lab.d/first_seconds_cpu.py RUN_DIR [SECONDS]
"""
import glob
import json
import os
import sys


def first_seconds(run, cpu, seconds):
    """({role: CPU s}, seconds covered) from the run's start to the last sample within
    `seconds` of it; None when the .cpu file has no timeline (runs before 2026-11-25)."""
    timeline = cpu.get("timeline")
    if not timeline:
        return None
    start = run.get("started_at", timeline[0][0])
    base = timeline[0][1]
    last = None
    for t, totals in timeline:
        if t <= start + seconds:
            last = (t, totals)
    if last is None:
        return None
    used = {role: round(total - base.get(role, 0.0), 2) for role, total in last[1].items()}
    return {role: value for role, value in used.items() if value > 0}, round(last[0] - start, 2)


def main(folder, seconds):
    for path in sorted(glob.glob(os.path.join(folder, "runs", "*.json"))
                       + glob.glob(os.path.join(folder, "hand", "*.json"))):
        cpu_path = path[:-5] + ".cpu"
        if not os.path.exists(cpu_path):
            continue
        run = json.load(open(path))
        found = first_seconds(run, json.load(open(cpu_path)), seconds)
        if found is None:
            continue
        used, covered = found
        phases = run.get("relaycp_summary", {}).get("phaseSeconds", {})
        roles = ", ".join(f"{role} {value:.1f}" for role, value in
                          sorted(used.items(), key=lambda item: -item[1]))
        print(f"{os.path.relpath(path, folder)}: relays phase {phases.get('relays', '-')} s; "
              f"first {covered:.1f} s: {roles} (of {2 * covered:.1f} on two cores)")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 15.0)
