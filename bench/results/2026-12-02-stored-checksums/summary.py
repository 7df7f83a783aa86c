"""The A/B's copies of S at k = 0, one row each, with each role's CPU-s:
summary.py DIR [OUT.json] (DIR holds old-N and new-N, as ab.sh writes them)."""
import glob, json, os, sys

directory = sys.argv[1]
rows = []
for d in sorted(glob.glob(os.path.join(directory, '*-*'))):
    build, rnd = os.path.basename(d).split('-')
    out, meta, cpu = (os.path.join(d, 'S-relaycp-k0.' + ext) for ext in ('out', 'json', 'cpu'))
    if not all(os.path.exists(f) and os.path.getsize(f) > 0 for f in (out, meta, cpu)):
        continue
    r, m = json.load(open(out)), json.load(open(meta))
    seconds = json.load(open(cpu))['seconds']
    p = r['phaseSeconds']
    rows.append(dict(round=int(rnd), build=build, wall=m['wall_seconds'], copying=p['copying'],
                     verifying=p['verifying'], committing=p['committing'], relays=p['relays'],
                     verified=r['verified'], driver_cpu=seconds['relaycp-driver'],
                     relay_cpu=seconds['relaycp-relay'], datanode_cpu=seconds['datanode'],
                     namenode_cpu=seconds['namenode'],
                     cpu=sum(v for k, v in seconds.items() if k != 'other')))
rows.sort(key=lambda x: (x['round'], x['build'] != 'old'))
print('| round | build | wall s | copying s | verifying s | committing s | relays s'
      ' | CPU-s (not "other") | driver CPU-s | relays CPU-s | datanodes | namenodes |')
print('|---|---|---|---|---|---|---|---|---|---|---|---|')
for x in rows:
    print(f"| {x['round']} | {x['build']} | {x['wall']:.1f} | {x['copying']:.1f} | {x['verifying']:.2f}"
          f" | {x['committing']:.2f} | {x['relays']:.1f} | {x['cpu']:.1f} | {x['driver_cpu']:.1f}"
          f" | {x['relay_cpu']:.1f} | {x['datanode_cpu']:.1f} | {x['namenode_cpu']:.1f} |")
if len(sys.argv) > 2:
    json.dump(rows, open(sys.argv[2], 'w'), indent=1)
