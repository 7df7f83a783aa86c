#!/usr/bin/env python3
"""Inclusive and self frames of one thread group (by name prefix) in `perf script` output.

    iothreads.py script.txt PID,PID,... relay-io
"""
import collections, re, sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '2026-11-29-relay-cpu-perf'))
from perf_window import read_samples, thread_group, symbol
path, pids, group = sys.argv[1], set(sys.argv[2].split(',')), sys.argv[3]
samples = [s for s in read_samples(path, pids) if thread_group(s[1]).startswith(group)]
total = len(samples)
print(f'{group}: {total} samples = {total/199:.1f} CPU-s')
inc = collections.Counter(); leaf = collections.Counter()
JAVA = re.compile(r'([\w$]+(?:\.[\w$<>]+)+)\(')
for s in samples:
    names = set()
    for f in s[3]:
        m = JAVA.search(symbol(f))
        names.add(m.group(1) if m else symbol(f)[:80])
    inc.update(names)
    leaf[symbol(s[3][0])[:100] if s[3] else '?'] += 1
print('inclusive:')
for k, c in inc.most_common(70): print(f'  {100*c/total:5.1f}% {k[:150]}')
print('leaf:')
for k, c in leaf.most_common(30): print(f'  {100*c/total:5.1f}% {k}')
