"""Every kept lab run's relaycp prediction again, from two builds: python3 replay.py OLD NEW results.json..."""
import json, shlex, subprocess, sys
old_bin, new_bin = sys.argv[1], sys.argv[2]
cache = {}
def plan(binary, cmd):
    key = (binary, cmd)
    if key not in cache:
        p = subprocess.run([binary] + shlex.split(cmd)[1:], capture_output=True, text=True)
        cache[key] = json.loads(p.stdout) if p.returncode == 0 else None
    return cache[key]
rows = []
for path in sys.argv[3:]:
    d = json.load(open(path))
    if not isinstance(d, dict): continue
    for r in d.get('runs', []):
        cmd = r.get('prediction_command')
        if not cmd or r['tool'] != 'relaycp' or not r.get('wall_seconds'): continue
        out = {}
        for name, b in (('old', old_bin), ('new', new_bin)):
            p = plan(b, cmd)
            out[name] = None if p is None else next((row['seconds'] for row in p['rows'] if row['pairs'] == r['k']), None)
        wall = r['wall_seconds']
        rows.append(dict(run=path.split('/')[-2], dataset=r['dataset'], k=r['k'], wall=round(wall, 1),
                         stored=r.get('predicted_seconds'),
                         old=out['old'] and round(out['old'], 1), new=out['new'] and round(out['new'], 1),
                         old_err=out['old'] and round(100 * (out['old'] - wall) / wall, 1),
                         new_err=out['new'] and round(100 * (out['new'] - wall) / wall, 1),
                         files_flag='--relaycp-spawned-cpu-files' in cmd))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
json.dump(rows, sys.stdout, indent=1)
