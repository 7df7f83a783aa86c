"""Fit a fresh relay's warm-up to the sweep's runs:  python3 fit.py runs.txt

The relays' copy CPU (all six, from each one listening to the copy's end) of a tree of N files
over P = 3 pairs, n = N / P files a route, as

    CPU(N) = 2P x (a + W x (1 - exp(-n / tau))) + s x N

a: what each relay pays at once (its first connections, the classes and HDFS clients they
load); W: the rest of its warm-up, falling off by e every tau files its route carries; s: the
steady CPU per file. Least squares in (a, W, s) for each tau of a grid; prints each fit, then
the best one's share paid at once, a / (a + W), and its residuals.
"""
import math, re, sys
PAIRS = 3
RELAYS = 2 * PAIRS
points = []
for line in open(sys.argv[1]):
    m = re.search(r'run \d+: (\d+) files.*total CPU-s: driver ([\d.]+), relays ([\d.]+) \+ ([\d.]+)', line)
    if m:
        points.append((int(m[1]), float(m[3])))
points.sort()


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(tau):
    x = [[RELAYS, RELAYS * (1 - math.exp(-(n / PAIRS) / tau)), n] for n, _ in points]
    y = [cpu for _, cpu in points]
    k = len(x[0])
    normal = [[sum(r[i] * r[j] for r in x) for j in range(k)] for i in range(k)]
    rhs = [sum(r[i] * v for r, v in zip(x, y)) for i in range(k)]
    c = solve(normal, rhs)
    predicted = [sum(ci * xi for ci, xi in zip(c, r)) for r in x]
    return c, predicted, sum((p - v) ** 2 for p, v in zip(predicted, y))


print(f"{len(points)} runs, {PAIRS} pairs")
print("tau files | a CPU-s/relay | W CPU-s/relay | s CPU-s/1000 files | residual")
best = None
for tau in (10, 20, 30, 40, 50, 60, 70, 80, 100, 150, 200, 300, 500, 1000):
    c, predicted, residual = fit(tau)
    print(f"{tau:9} | {c[0]:13.2f} | {c[1]:13.2f} | {1000 * c[2]:18.2f} | {residual:8.1f}")
    if best is None or residual < best[3]:
        best = (tau, c, predicted, residual)
tau, c, predicted, residual = best
print(f"best tau {tau}: at once {c[0] / (c[0] + c[1]):.2f} of the warm-up ({c[0]:.2f} of {c[0] + c[1]:.2f} CPU-s a relay)")
for (n, cpu), p in zip(points, predicted):
    print(f"  {n:5} files: measured {cpu:5.1f}, fit {p:5.1f}")
