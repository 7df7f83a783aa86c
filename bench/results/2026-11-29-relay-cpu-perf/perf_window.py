#!/usr/bin/env python3
"""Where some processes' CPU went in a time window of a `perf record -a -g` run.

Reads `perf script -F time,pid,tid,comm,ip,sym,dso` output; JIT-compiled Java frames resolve
through the JVMs' /tmp/perf-PID.map (-XX:+DumpPerfMapAtExit). The window is given as fractions
of the span from the processes' first sample to their last. Prints the share of samples by
thread (numbers dropped from names), by the leaf frame's library, by leaf symbol, by the
Hadoop/Netty/relaycp methods on the stack (inclusive), and by the first named Java frame from
the leaf (self time, by package and by method).

    perf_window.py script.txt --pids 1,2,3 --from 0.5 --to 0.95
"""
import argparse
import collections
import re

HEADER = re.compile(r'^(.*?)\s+(\d+)/(\d+)\s+([\d.]+):\s*$')
INCLUSIVE = re.compile(r'((?:dev\.relaycp|org\.apache\.hadoop|io\.netty)\.[\w.$]+)\(')
JAVA_METHOD = re.compile(r'([\w$]+(?:\.[\w$]+)+)\(')


def read_samples(path, pids):
    """[(pid, thread name, time, [frames from the leaf])] of the given pids."""
    samples, current = [], None
    with open(path, errors='replace') as lines:
        for line in lines:
            if not line.strip():
                continue
            if line[0] not in ' \t':
                match = HEADER.match(line.rstrip('\n'))
                current = None
                if match and match.group(2) in pids:
                    current = (match.group(2), match.group(1).strip(), float(match.group(4)), [])
                    samples.append(current)
                continue
            parts = line.strip().split(' ', 1)
            if current is not None and len(parts) == 2:
                current[3].append(parts[1])
    return samples


def thread_group(name):
    return re.sub(r'[-#]?\d+.*$', '', name)


def library(frame):
    match = re.search(r'\(([^)]*)\)\s*$', frame)
    name = match.group(1) if match else '?'
    if name.startswith('/tmp/perf-'):
        return 'JIT-compiled or interpreted Java'
    if 'kernel' in name:
        return 'kernel'
    return name.rsplit('/', 1)[-1]


def symbol(frame):
    return frame.rsplit(' (', 1)[0]


def first_java_method(frames):
    for frame in frames:
        match = JAVA_METHOD.search(symbol(frame))
        if '/tmp/perf-' in frame and match:
            return match.group(1)
    return '(no named Java frame: interpreter, JVM or kernel only)'


def print_shares(title, counts, total, top):
    print(f'\n{title}')
    for key, count in counts.most_common(top):
        print(f'  {100 * count / total:5.1f}% {key[:160]}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('script')
    parser.add_argument('--pids', required=True, help='comma-separated')
    parser.add_argument('--from', dest='start', type=float, default=0.0)
    parser.add_argument('--to', dest='end', type=float, default=1.0)
    parser.add_argument('--top', type=int, default=25)
    parser.add_argument('--hz', type=float, default=199, help="perf record's -F")
    arguments = parser.parse_args()
    every = read_samples(arguments.script, set(arguments.pids.split(',')))
    first = min(sample[2] for sample in every)
    last = max(sample[2] for sample in every)
    low = first + (last - first) * arguments.start
    high = first + (last - first) * arguments.end
    chosen = [sample for sample in every if low <= sample[2] <= high]
    total = len(chosen)
    print(f'processes sampled over {last - first:.1f} s; window {low - first:.1f}-'
          f'{high - first:.1f} s: {total} samples = {total / arguments.hz:.1f} CPU-s, '
          f'{total / arguments.hz / max(high - low, 1e-9):.2f} cores')
    print_shares('by thread', collections.Counter(thread_group(s[1]) for s in chosen), total,
                 arguments.top)
    print_shares('by the leaf frame\'s library',
                 collections.Counter(library(s[3][0]) if s[3] else '?' for s in chosen), total, 8)
    print_shares('by leaf symbol',
                 collections.Counter(symbol(s[3][0]) if s[3] else '?' for s in chosen), total,
                 arguments.top)
    inclusive = collections.Counter()
    for sample in chosen:
        inclusive.update({match.group(1) for match in map(INCLUSIVE.search, map(symbol, sample[3]))
                          if match})
    print_shares('on the stack (inclusive)', inclusive, total, arguments.top * 2)
    methods = collections.Counter(first_java_method(s[3]) for s in chosen)
    packages = collections.Counter()
    for method, count in methods.items():
        packages['.'.join(method.split('.')[:3])] += count
    print_shares('self, by package of the first named Java frame', packages, total, 15)
    print_shares('self, by the first named Java frame', methods, total, arguments.top)


if __name__ == '__main__':
    main()
