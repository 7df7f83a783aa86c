"""Samples, until SIGTERM, the bytes the lab's router forwards between the sites and
the machine's CPU use. Runs inside the router namespace, where /proc/net/dev shows
the router's own legs: r-dst transmits what crossed from src to dst, r-src the reverse.
Writes CSV: t (seconds since the epoch, to line up with the lab's other clocks), bytes src->dst, bytes dst->src, cpu busy jiffies, cpu total jiffies, cpu steal jiffies (time the hypervisor gave this
machine's CPUs to others, counted in busy: it makes every process slower and costlier)."""
import signal
import sys
import time

out, interval = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.25
running = True


def stop(*_):
    global running
    running = False


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)


def tx(iface_lines, name):
    for line in iface_lines:
        if line.strip().startswith(name + ":"):
            return int(line.split(":", 1)[1].split()[8])
    return 0


def cpu():
    f = open("/proc/stat").readline().split()[1:]
    v = [int(x) for x in f]
    idle = v[3] + v[4]
    steal = v[7] if len(v) > 7 else 0
    return sum(v) - idle, sum(v), steal


with open(out, "w") as o:
    o.write("t,src_to_dst,dst_to_src,cpu_busy,cpu_total,cpu_steal\n")
    while running:
        lines = open("/proc/net/dev").readlines()
        b, t, st = cpu()
        o.write(f"{time.time():.3f},{tx(lines, 'r-dst')},{tx(lines, 'r-src')},{b},{t},{st}\n")
        o.flush()
        time.sleep(interval)
