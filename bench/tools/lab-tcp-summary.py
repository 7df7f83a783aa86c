"""Summarises lab-tcp-probe.sh's samples of the source datanodes over named windows.

    python3 bench/tools/lab-tcp-summary.py OUT NAME=HH:MM:SS-HH:MM:SS [...]

For each window (UTC) and source datanode: the median backlog of its WAN class (HTB 1:20),
the share of samples in which that class was empty, connections to the other site a sample,
their smoothed RTT (median and 90th percentile), and the share of connection samples with
bytes not yet sent. A link-bound copy keeps a queue and unsent bytes in every sample.
"""
import datetime
import glob
import os
import re
import statistics
import sys


def size(text):
    text = text.rstrip("b")
    scale = {"K": 1000, "M": 1000 ** 2}.get(text[-1:], 1)
    return float(text.rstrip("KM")) * scale


def summarise(path, start, end):
    clock = None
    backlog, rtts, unsent, per_sample = [], [], [], []
    for line in open(path):
        if line.startswith("=="):
            clock = datetime.datetime.fromtimestamp(
                float(line.split()[1]), datetime.timezone.utc).strftime("%H:%M:%S")
            if start <= clock <= end:
                per_sample.append(0)
            continue
        if clock is None or not start <= clock <= end:
            continue
        if line.startswith("class 1:20 "):
            backlog.append(size(line.split()[2]))
        elif not line.startswith("class"):
            per_sample[-1] += 1
            rtt = re.search(r"rtt:([\d.]+)/", line)
            if rtt:
                rtts.append(float(rtt.group(1)))
            waiting = re.search(r"notsent:(\d+)", line)
            unsent.append(int(waiting.group(1)) if waiting else 0)
    if not backlog:
        return None
    row = {
        "samples": len(backlog),
        "wan_backlog_median_bytes": statistics.median(backlog),
        "wan_empty_share": sum(1 for b in backlog if b == 0) / len(backlog),
        "connections_per_sample": statistics.mean(per_sample),
    }
    if len(rtts) > 2:
        row["srtt_median_ms"] = statistics.median(rtts)
        row["srtt_p90_ms"] = statistics.quantiles(rtts, n=10)[-1]
    if unsent:
        row["unsent_share"] = sum(1 for u in unsent if u > 0) / len(unsent)
        row["unsent_median_bytes"] = statistics.median(unsent)
    return row


def main(folder, windows):
    for window in windows:
        name, span = window.split("=", 1)
        start, end = span.split("-")
        print(f"## {name} {start}-{end} UTC")
        for path in sorted(glob.glob(os.path.join(folder, "*src-dn*.txt"))):
            row = summarise(path, start, end)
            if row:
                host = os.path.basename(path)[:-4]
                print(host, " ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                                     for k, v in row.items()))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
