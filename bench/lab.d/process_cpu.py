#!/usr/bin/env python3
"""Samples, until SIGTERM, the CPU time every process in the lab's namespaces has used, and
writes it by role as JSON (name it without .json: a run folder's *.json are its runs): {"interval_s", "clock_ticks_per_s", "seconds": {role: CPU s}, "timeline": [[t, {role: CPU s so far}], ...]},
the timeline with one entry per sample (t in seconds since the epoch, to line up with the
run's started_at), so that a phase of the copy (the relays' start, say) can be told apart.

    python3 process_cpu.py OUT.json [INTERVAL]

A process's CPU is counted from the first sample on (a daemon's earlier life is not the copy's)
or from 0 when it started after the first; a process that ends is counted up to its last
sample, so at most INTERVAL of its CPU is lost. Namespaces made after the start (spawned relay
hosts) are sampled from when they appear. Roles come from the command line: relaycp's
relays and driver, DistCp's client, application master and maps, the Hadoop daemons; the
rest of the lab's JVMs and tools are "other"."""
import json
import os
import signal
import sys
import time



def relaycp(arguments):
    return "dev.relaycp.cli.Main" in arguments or "dev.relaycp.bench.BenchMain" in arguments


ROLES = (
    # A relay YARN starts runs RelayContainerMain (before 2026-11-28, `Main relay`).
    ("relaycp-relay", lambda a: "dev.relaycp.cli.RelayContainerMain" in a
     or (relaycp(a) and " relay " in a + " ")),
    # A relay pool (`relaycp relay-pool`): the ApplicationMasters of relays kept for many copies.
    ("relaycp-pool", lambda a: relaycp(a) and " relay-pool " in a + " "),
    ("relaycp-driver", relaycp),
    ("distcp-map", lambda a: "org.apache.hadoop.mapred.YarnChild" in a),
    ("distcp-am", lambda a: "MRAppMaster" in a),
    ("distcp-client", lambda a: "org.apache.hadoop.tools.DistCp" in a),
    ("namenode", lambda a: "server.namenode.NameNode" in a),
    ("datanode", lambda a: "server.datanode.DataNode" in a),
    ("nodemanager", lambda a: "nodemanager.NodeManager" in a),
    ("resourcemanager", lambda a: "resourcemanager.ResourceManager" in a),
)


def role(arguments):
    for name, matches in ROLES:
        if matches(arguments):
            return name
    return "other"


def lab_namespaces():
    inodes = set()
    if os.path.isdir("/run/netns"):
        for name in os.listdir("/run/netns"):
            try:
                inodes.add(os.stat(f"/run/netns/{name}").st_ino)
            except OSError:
                pass
    return inodes


def sample(inodes, first, seen, roles, initial):
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.stat(f"/proc/{pid}/ns/net").st_ino not in inodes:
                continue
            stat = open(f"/proc/{pid}/stat").read()
            fields = stat[stat.rindex(")") + 2:].split()
            ticks = int(fields[11]) + int(fields[12])
            started = int(fields[19])
            key = (pid, started)
            # A process seen as "other" is looked at again: a launcher script (bin/relaycp)
            # execs the JVM in the same process, whose role shows only after the exec; all its
            # CPU, the script's included, then counts to that role.
            if roles.get(key, "other") == "other":
                arguments = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(
                    "utf-8", "replace")
                roles[key] = role(arguments)
                # A process already running at the first sample counts from there.
                first.setdefault(key, ticks if initial else 0)
            seen[key] = ticks
        except (OSError, ValueError, IndexError):
            pass


def totals(first, seen, roles, hz):
    """CPU seconds by role from the first sample to the last one taken."""
    seconds = {}
    for key, ticks in seen.items():
        used = (ticks - first.get(key, 0)) / hz
        seconds[roles[key]] = round(seconds.get(roles[key], 0.0) + used, 2)
    return seconds


def watch(namespaces, interval, keep_running, on_sample=lambda first, seen, roles: None):
    """Samples every `interval` seconds while keep_running() says so; the namespaces are read
    again each time, since a spawned relay's host is one made during the copy. Calls
    on_sample after each sample. Returns (first, seen, roles) as sample() fills them."""
    first, seen, roles = {}, {}, {}
    sample(namespaces(), first, seen, roles, True)
    on_sample(first, seen, roles)
    while keep_running():
        time.sleep(interval)
        sample(namespaces(), first, seen, roles, False)
        on_sample(first, seen, roles)
    return first, seen, roles


def main():
    out = sys.argv[1]
    interval = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
    running = [True]

    def stop(*_):
        running[0] = False

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    hz = os.sysconf("SC_CLK_TCK")
    timeline = []
    first, seen, roles = watch(
        lab_namespaces, interval, lambda: running[0],
        lambda f, s, r: timeline.append([round(time.time(), 3), totals(f, s, r, hz)]))
    json.dump({"interval_s": interval, "clock_ticks_per_s": hz,
               "seconds": totals(first, seen, roles, hz), "timeline": timeline},
              open(out, "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
