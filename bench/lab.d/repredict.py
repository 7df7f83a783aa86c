"""Each kept run's prediction again, from another relaycp: what a model change does to it.

    python3 bench/lab.d/repredict.py RELAYCP [--against OTHER] [--relaycp-only] results.json...

Runs each run's `prediction_command` (the `relaycp plan --what-if` the report ran) with
RELAYCP, and prints, as JSON, every run's measured seconds, the prediction the report made
with its error, and the new one with its error. With --against, also OTHER's prediction from
the same command (`against`, `against_err`): two builds judged on the same copies, where the
report's own prediction came from whichever build ran that day. A command that a build
refuses (an option it does not know) gives null. Files that are not a lab report are skipped.
"""
import json, shlex, subprocess, sys


def main(argv):
    binary, against, relaycp_only, paths = argv[0], None, False, []
    rest = iter(argv[1:])
    for arg in rest:
        if arg == "--against":
            against = next(rest)
        elif arg == "--relaycp-only":
            relaycp_only = True
        else:
            paths.append(arg)
    cache = {}

    def predicted(build, cmd, run):
        if (build, cmd) not in cache:
            done = subprocess.run([build] + shlex.split(cmd)[1:], capture_output=True, text=True)
            cache[build, cmd] = json.loads(done.stdout) if done.returncode == 0 else None
        plan = cache[build, cmd]
        if plan is None:
            return None
        if run['tool'].startswith('distcp'):
            return plan['distcpSeconds']
        return next((row['seconds'] for row in plan['rows'] if row['pairs'] == run['k']), None)

    def error(seconds, wall):
        return None if seconds is None else round(100 * (seconds - wall) / wall, 1)

    rows = []
    for path in paths:
        d = json.load(open(path))
        if not isinstance(d, dict) or 'lab' not in d:
            continue
        lab = d['lab']
        for r in d['runs']:
            cmd = r.get('prediction_command')
            if not cmd or not r.get('wall_seconds') or (relaycp_only and r['tool'] != 'relaycp'):
                continue
            wall = r['wall_seconds']
            new = predicted(binary, cmd, r)
            row = dict(run=path.split('/')[-2], tool=r['tool'], dataset=r['dataset'], k=r['k'],
                       wall=round(wall, 1), old=r.get('predicted_seconds'),
                       old_err=r.get('prediction_error_pct'),
                       new=None if new is None else round(new, 1), new_err=error(new, wall),
                       fraction=r.get('fraction_of_limit'),
                       layout=f"vi={lab.get('v_i_mbit')} src={lab.get('src_datanodes')} "
                              f"dst={lab.get('dst_datanodes')} r={lab.get('replication')} "
                              f"wf={lab.get('write_from')}")
            if against:
                other = predicted(against, cmd, r)
                row.update(against=None if other is None else round(other, 1),
                           against_err=error(other, wall))
            rows.append(row)
    json.dump(rows, sys.stdout, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
