#!/usr/bin/env python3
"""Per copy of an A/B folder (variants.sh, bins.sh): variant, round, wall seconds, exit code and
CPU seconds of relays and driver from the lab's /proc sampler; then each variant's mean.

    summary.py /tmp/prof/v1 /tmp/prof/v2 ... > results.md   (results.json beside it)
"""
import glob, json, os, statistics, sys

rows = []
for folder in sys.argv[1:]:
    for run in sorted(glob.glob(os.path.join(folder, '*-*'))):
        if not os.path.isdir(run):
            continue
        cpu = glob.glob(run + '/*.cpu')
        summary = glob.glob(run + '/*-k0.json')
        if not cpu or not summary:
            continue
        seconds = json.load(open(cpu[0]))['seconds']
        copy = json.load(open(summary[0]))
        variant, _, round_ = os.path.basename(run).rpartition('-')
        rows.append({'set': os.path.basename(folder), 'variant': variant, 'round': int(round_),
                     'wall_s': round(copy['wall_seconds'], 1), 'exit': copy['exit_code'],
                     'relays_cpu_s': seconds.get('relaycp-relay', 0.0),
                     'driver_cpu_s': seconds.get('relaycp-driver', 0.0)})
print('| set | variant | round | wall s | exit | relays CPU-s | driver CPU-s |')
print('|---|---|---|---|---|---|---|')
for r in rows:
    print(f"| {r['set']} | {r['variant']} | {r['round']} | {r['wall_s']} | {r['exit']} | "
          f"{r['relays_cpu_s']:.1f} | {r['driver_cpu_s']:.1f} |")
print()
print('Means of the compared copies (round 1 and later, exit 0), by set and variant:')
print()
print('| set | variant | copies | wall s | relays CPU-s | driver CPU-s |')
print('|---|---|---|---|---|---|')
means = {}
for key in dict.fromkeys((r['set'], r['variant']) for r in rows):
    got = [r for r in rows if (r['set'], r['variant']) == key and r['round'] >= 1 and r['exit'] == 0]
    if got:
        m = {k: round(statistics.mean(r[k] for r in got), 1) for k in ('wall_s', 'relays_cpu_s', 'driver_cpu_s')}
        means['/'.join(key)] = dict(copies=len(got), **m)
        print(f"| {key[0]} | {key[1]} | {len(got)} | {m['wall_s']} | {m['relays_cpu_s']} | {m['driver_cpu_s']} |")
json.dump({'copies': rows, 'means': means}, open('results.json', 'w'), indent=1)
