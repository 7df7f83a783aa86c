"""Samples, until SIGTERM, the bytes each lab host sent and received over its link. Runs inside
one site's switch namespace, where every host's veth peer p-<host> is a port of the bridge
(net.sh): what the port transmits is what the host received, what it receives is what the host
sent. The port list is read again at every sample, so spawned hosts are counted from when their
port appears. Each sample is one read of /proc/net/dev.

    ip netns exec rcl-sw-src python3 links.py OUT.csv [INTERVAL]

Writes CSV, one row per port and sample: t (seconds since the epoch, the clock of sample.py),
host, bytes_in, bytes_out: the port's counters as the kernel keeps them since the port was made
(frames with their Ethernet headers, as the HTB caps count them)."""
import signal
import sys
import time

PORT_PREFIX = "p-"


def ports(dev_text):
    """{host: (bytes_in, bytes_out)} of the bridge ports in /proc/net/dev's text."""
    found = {}
    for line in dev_text.splitlines()[2:]:
        name, _, counters = line.partition(":")
        name = name.strip()
        if not name.startswith(PORT_PREFIX):
            continue
        fields = counters.split()
        # Receive bytes come first, transmit bytes ninth.
        found[name[len(PORT_PREFIX):]] = (int(fields[8]), int(fields[0]))
    return found


def main():
    out = sys.argv[1]
    interval = float(sys.argv[2]) if len(sys.argv) > 2 else 0.25
    running = [True]

    def stop(*_):
        running[0] = False

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    with open(out, "w") as o, open("/proc/net/dev") as dev:
        o.write("t,host,bytes_in,bytes_out\n")
        while running[0]:
            dev.seek(0)
            now = f"{time.time():.3f}"
            o.write("".join(f"{now},{host},{received},{sent}\n"
                            for host, (received, sent) in sorted(ports(dev.read()).items())))
            o.flush()
            time.sleep(interval)


if __name__ == "__main__":
    main()
