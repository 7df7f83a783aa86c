#!/usr/bin/env python3
"""CPU seconds by role in each second of a copy's start, from the timeline process_cpu.py keeps
in a run's .cpu file beside its .json: which processes held the two cores while a copy's relays
started (the driver, the NodeManagers launching containers, the relay JVMs).

    python3 bench/lab.d/cpu_timeline.py RUN.json [SECONDS]
"""
import json
import sys


def timeline(run_path, seconds):
    run = json.load(open(run_path))
    cpu = json.load(open(run_path[:-5] + ".cpu"))
    samples = cpu.get("timeline") or []
    if not samples:
        return [], []
    start = run.get("started_at", samples[0][0])
    roles = sorted({role for _, totals in samples for role in totals})
    rows = []
    previous = samples[0]
    for t, totals in samples:
        if t - start > seconds:
            break
        if t - previous[0] >= 0.99:
            rows.append((t - start, [totals.get(r, 0.0) - previous[1].get(r, 0.0) for r in roles]))
            previous = (t, totals)
    return roles, rows


def main(run_path, seconds):
    roles, rows = timeline(run_path, seconds)
    print("  s  " + " ".join(f"{role[:14]:>14}" for role in roles))
    for t, used in rows:
        print(f"{t:5.1f} " + " ".join(f"{u:14.2f}" for u in used))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 16)
