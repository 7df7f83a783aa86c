"""Each host's link over a copy's steady window, from links.py's samples: <run>.links-src.csv and
<run>.links-dst.csv beside the run's .csv, one row per bridge port and sample (t, host,
bytes_in, bytes_out, the port's counters since it was made). Runs recorded before the lab
sampled its links have neither file, and get no figures.

A port counts a host's in-site and WAN bytes together: against v_i, the cap of the whole link,
it is the link's use; against v_e, the cap of the WAN part alone, it is at most the WAN part's.
Besides its mean over the window, each direction's time full: the share of the window's
seconds in which it carried at least FULL of its cap, which a mean below the cap can hide
(a link full half the time and idle the rest). MB is 10^6 bytes."""
import bisect
import csv
import math
import os

SITES = ("src", "dst")
# How many of the fullest links results.md names for each copy.
BUSIEST = 3
# A link is full over a second in which it carried at least this share of its cap.
FULL = 0.9
SECOND = 1.0


def paths(base):
    """The link sample files of the run whose files start with `base` (its .csv without .csv)."""
    return [f"{base}.links-{site}.csv" for site in SITES]


def read(path):
    """One sampler's file as [(t, {host: (bytes_in, bytes_out)})], one entry per sample."""
    samples = []
    with open(path) as f:
        for row in csv.DictReader(f):
            t = float(row["t"])
            if not samples or samples[-1][0] != t:
                samples.append((t, {}))
            samples[-1][1][row["host"]] = (int(row["bytes_in"]), int(row["bytes_out"]))
    return samples


def counted(samples):
    """Each host's bytes in and out counted from the first sample, as {host: [(t, in, out)]}: a
    host there at the first sample from its counters then; a host whose port appeared later
    from 0 at the sample before (its port is new); a port that went and came back (a spawned
    host released and made again) from 0 again at the sample before it came back, added to
    what its earlier port carried; a counter that fell, likewise (a new port between two
    samples). A host whose port is gone keeps its last count."""
    points, last, previous_t = {}, {}, None
    for t, ports in samples:
        for host, (received, sent) in ports.items():
            if previous_t is None:
                points[host] = [(t, 0, 0)]
                last[host] = (received, sent)
                continue
            if host not in points:
                points[host] = [(previous_t, 0, 0)]
            elif host not in last:
                points[host].append((previous_t,) + points[host][-1][1:])
            _, done_in, done_out = points[host][-1]
            before = last.get(host, (0, 0))
            if received < before[0] or sent < before[1]:
                before = (0, 0)
            points[host].append((t, done_in + received - before[0], done_out + sent - before[1]))
            last[host] = (received, sent)
        last = {host: counters for host, counters in last.items() if host in ports}
        previous_t = t
    return points


def at(points, t):
    """A host's counted (bytes in, bytes out) at time t, linear between samples; before its
    first point what that point says (0), after its last what the last says."""
    i = bisect.bisect_left(points, (t,))
    if i == 0:
        return points[0][1:]
    if i == len(points):
        return points[-1][1:]
    (ta, ia, oa), (tb, ib, ob) = points[i - 1], points[i]
    x = (t - ta) / (tb - ta) if tb > ta else 1.0
    return ia + x * (ib - ia), oa + x * (ob - oa)


def load(base):
    """Every host's counted points from the run's link samples, {host: [(t, in, out)]}; None
    where the run has none."""
    found = [path for path in paths(base) if os.path.exists(path)]
    if not found:
        return None
    points = {}
    for path in found:
        points.update(counted(read(path)))
    return points


def window(points, t0, t1):
    """A host's MB/s in and out over t0..t1, and over each second of it (the last one shorter):
    ((in, out), [(seconds, in, out)])."""
    edges = [t0 + i * SECOND for i in range(math.ceil((t1 - t0) / SECOND))] + [t1]
    counts = [at(points, t) for t in edges]
    seconds = [(tb - ta, (ib - ia) / (tb - ta) / 1e6, (ob - oa) / (tb - ta) / 1e6)
               for ta, tb, (ia, oa), (ib, ob) in zip(edges, edges[1:], counts, counts[1:])
               if tb > ta]
    (i0, o0), (i1, o1) = counts[0], counts[-1]
    return ((i1 - i0) / (t1 - t0) / 1e6, (o1 - o0) / (t1 - t0) / 1e6), seconds


def time_full(seconds, way, cap):
    """The share of a window's time in which one direction carried at least FULL of `cap`."""
    column = 1 if way == "in" else 2
    total = sum(s[0] for s in seconds)
    return round(sum(s[0] for s in seconds if s[column] >= FULL * cap) / total, 3) if total else None


# flow.py's names of a link, by their end: the direction a port counts and the cap.
KINDS = {"link out (v_i)": ("out", "v_i"), "link in (v_i)": ("in", "v_i"),
         "to the other site (v_e)": ("out", "v_e"), "from the other site (v_e)": ("in", "v_e")}


def use(base, lab, t0, t1, bound_by=()):
    """The hosts' links over the window t0..t1 (epoch seconds) for results.json: each host's MB/s
    in and out, their share of v_i and their time full; the fullest BUSIEST directions (by
    share of v_i, or of v_e where the lab has no v_i); and the links that bound the copy's
    limit (flow.py's names, `bound_by`) as measured against their own cap. None without link
    samples."""
    points = load(base)
    if points is None or t1 <= t0:
        return None
    caps = {"v_e": lab["v_e_mbit"] / 8.0}
    if lab.get("v_i_mbit"):
        caps["v_i"] = lab["v_i_mbit"] / 8.0
    name = "v_i" if "v_i" in caps else "v_e"
    link = caps[name]
    measured = {host: window(p, t0, t1) for host, p in sorted(points.items())}
    hosts = {}
    for host, ((received, sent), seconds) in measured.items():
        hosts[host] = {"in_mb_per_s": round(received, 3), "out_mb_per_s": round(sent, 3),
                       f"in_of_{name}": round(received / link, 3),
                       f"out_of_{name}": round(sent / link, 3),
                       "in_time_full": time_full(seconds, "in", link),
                       "out_time_full": time_full(seconds, "out", link)}
    # The fullest first; among equals by name.
    directions = sorted((-round(rate / link, 6), host, way) for host, (pair, _) in measured.items()
                        for way, rate in zip(("in", "out"), pair))
    busiest = [{"link": f"{host} {way}", "mb_per_s": hosts[host][f"{way}_mb_per_s"],
                f"of_{name}": hosts[host][f"{way}_of_{name}"],
                "time_full": hosts[host][f"{way}_time_full"]}
               for _, host, way in directions[:BUSIEST]]
    bound = []
    for link_name in bound_by or ():
        host, _, kind = link_name.partition(": ")
        if kind not in KINDS or host not in measured:
            continue
        way, cap = KINDS[kind]
        (pair, seconds) = measured[host]
        rate = pair[0 if way == "in" else 1]
        bound.append({"link": link_name, "mb_per_s": round(rate, 3),
                      f"of_{cap}": round(rate / caps[cap], 3) if cap in caps else None,
                      "time_full": time_full(seconds, way, caps[cap]) if cap in caps else None})
    return {"caps_mb_per_s": caps, "full_at": FULL, "hosts": hosts, "busiest": busiest,
            "bound": bound}
