"""Each kept run's prediction again, from another relaycp: what a model change does to it.

    python3 bench/lab.d/repredict.py RELAYCP results.json...

Runs each run's `prediction_command` (the `relaycp plan --what-if` the report ran) with
RELAYCP, and prints, as JSON, every run's measured seconds, the prediction the report made
with its error, and the new one with its error.
"""
import json, shlex, subprocess, sys
binary = sys.argv[1]
cache = {}
rows = []
for path in sys.argv[2:]:
    d = json.load(open(path))
    lab = d['lab']
    for r in d['runs']:
        cmd = r.get('prediction_command')
        if not cmd:
            continue
        if cmd not in cache:
            args = shlex.split(cmd)[1:]
            out = subprocess.run([binary] + args, capture_output=True, text=True, check=True).stdout
            cache[cmd] = json.loads(out)
        plan = cache[cmd]
        if r['tool'].startswith('distcp'):
            new = plan['distcpSeconds']
        else:
            new = next(row['seconds'] for row in plan['rows'] if row['pairs'] == r['k'])
        wall = r['wall_seconds']
        rows.append(dict(run=path.split('/')[-2], tool=r['tool'], dataset=r['dataset'], k=r['k'],
                         wall=round(wall, 1), old=r['predicted_seconds'], old_err=r['prediction_error_pct'],
                         new=round(new, 1), new_err=round(100 * (new - wall) / wall, 1),
                         fraction=r.get('fraction_of_limit'),
                         layout=f"vi={lab['v_i_mbit']} src={lab.get('src_datanodes')} dst={lab.get('dst_datanodes')} r={lab['replication']} wf={lab.get('write_from')}"))
json.dump(rows, sys.stdout, indent=1)
