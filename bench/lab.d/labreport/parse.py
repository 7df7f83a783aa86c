"""Reading a lab run folder: the lab's settings, the cap probe, each copy's record and its
sampled timeline, and the start-up probes' figures. Also each copy's analysis against the
physical limit, which reads only its record and timeline.

MB is 10^6 bytes throughout. "steady" is the rate over the middle 80% of the bytes: the times
when the bytes that crossed the router from src to dst reached 10% and 90% of their total, and
80% of the payload over that span."""
import csv
import functools
import glob
import json
import os
import statistics

from labreport import flow, links

# The start-up probes' file counts; each file is PROBE_FILE_BYTES (run.sh's dataset_parts).
U_FILES = 300
V_FILES = 300
# Each start-up probe's files are this size (run.sh's dataset_parts).
PROBE_FILE_BYTES = 65536
W_FILES = 1200
X_FILES = 1200
Y_FILES = 3000
# The spawned-pairs probe's dataset since 2026-11-28 (Y's before, see spawned_probe_dataset).
Z_FILES = 9000
# relaycp_phases' keys of the spawned-pairs probe: its dataset over spawned pairs too.
SPAWNED_SUFFIX = "+spawned"
Y_SPAWNED = "Y" + SPAWNED_SUFFIX
Z_SPAWNED = "Z" + SPAWNED_SUFFIX
# Every start-up probe's file count by its phase name, the one table the report reads them from.
PROBE_FILES = {"U": U_FILES, "V": V_FILES, "W": W_FILES, "X": X_FILES, "Y": Y_FILES,
               "Z": Z_FILES, Y_SPAWNED: Y_FILES, Z_SPAWNED: Z_FILES}
# relaycp's route window for small files: a reader relay streams 16 chunks at once
# (relaycp.relay.parallel-streams) out of the 32 a route may have outstanding
# (relaycp.copy.chunks-in-flight-per-route); RelaycpSettings.chunksAtOnce.


def load_folder(folder):
    """The run folder's lab.json, probe.json (empty without one) and runs/*.json, as
    (lab, probe, [(path, run)]) with the runs in file-name order."""
    lab = json.load(open(os.path.join(folder, "lab.json")))
    probe = json.load(open(os.path.join(folder, "probe.json"))) if os.path.exists(os.path.join(folder, "probe.json")) else []
    paths = sorted(glob.glob(os.path.join(folder, "runs", "*.json")))
    return lab, probe, [(path, json.load(open(path))) for path in paths]


def hand_relays_run(folder):
    """The full run's L copy at k = 0 over relay daemons started before the copy (hand/), the
    figure YARN's relays are held to; None when the run has none."""
    path = os.path.join(folder, "hand", "L-relaycp-k0.json")
    if not os.path.exists(path):
        return None
    run = json.load(open(path))
    summary = run.get("relaycp_summary") or {}
    return {"wall_seconds": run.get("wall_seconds"), "exit_code": run.get("exit_code"),
            "verified": (run.get("verify") or {}).get("ok") is True,
            "copying_seconds": (summary.get("phaseSeconds") or {}).get("copying"),
            "local_read_fraction": summary.get("localReadFraction")}


def timeline(csv_path):
    rows = []
    with open(csv_path) as f:
        for r in csv.DictReader(f):
            rows.append({k: float(v) for k, v in r.items()})
    return rows


def cpu_pct(rows, column):
    """The share of the machine's CPU time a timeline's `column` took (sample.py's cpu_busy or
    cpu_steal, the time the hypervisor gave to others), in percent; None for a timeline without
    the column (cpu_steal is newer than the rest) or too short to have any CPU time."""
    if len(rows) < 2 or column not in rows[0]:
        return None
    total = rows[-1]["cpu_total"] - rows[0]["cpu_total"]
    return round(100.0 * (rows[-1][column] - rows[0][column]) / total, 1) if total else None


def when_crossed(rows, fraction):
    """The moment `fraction` of a timeline's bytes had crossed the WAN from the source site
    (src_to_dst), interpolated between its samples; its last sample's time when they never
    did."""
    base, crossed = rows[0]["src_to_dst"], rows[-1]["src_to_dst"] - rows[0]["src_to_dst"]
    goal = base + fraction * crossed
    for a, b in zip(rows, rows[1:]):
        if b["src_to_dst"] >= goal:
            span = b["src_to_dst"] - a["src_to_dst"]
            x = (goal - a["src_to_dst"]) / span if span else 0
            return a["t"] + x * (b["t"] - a["t"])
    return rows[-1]["t"]


def startup_steal(folder):
    """cpu_steal_pct of every start-up probe's timeline (startup/*.csv), by its name."""
    found = {}
    for path in sorted(glob.glob(os.path.join(folder, "startup", "*.csv"))):
        if path.endswith((".links-src.csv", ".links-dst.csv")):
            continue
        steal = cpu_pct(timeline(path), "cpu_steal")
        if steal is not None:
            found[os.path.basename(path)[:-len(".csv")]] = steal
    return found


def datanodes(lab, side):
    """Datanodes of one site ("src" or "dst"); runs before 2026-11-25 had one count for both."""
    return lab.get(f"{side}_datanodes", lab["datanodes_per_site"])


def routes(lab):
    """relaycp's datanode routes: one relay per datanode on each site, so the larger count."""
    return max(datanodes(lab, "src"), datanodes(lab, "dst"))


def load_placement(folder, lab, dataset):
    """Where a dataset's bytes were on the source cluster (run.sh's placement/<dataset>.json,
    from its blocks' locations) as flow.py's {holder hosts: share}; None where the run has no
    record, which the limit reads as spread evenly. A holder is named from its address: the
    lab numbers a site's datanodes from .11 (common.sh, host_ip)."""
    path = os.path.join(folder, "placement", f"{dataset}.json")
    if not os.path.exists(path):
        return None
    groups = json.load(open(path)).get("groups") or []
    total = sum(g["bytes"] for g in groups)
    if not total:
        return None
    placement = {}
    count = datanodes(lab, "src")
    for group in groups:
        hosts = []
        for address in group["holders"]:
            number = int(address.rsplit(".", 1)[1]) - 10
            if not 1 <= number <= count:
                raise ValueError(f"{path}: {address} is not one of the {count} source datanodes")
            hosts.append(f"src-dn{number}")
        key = tuple(sorted(hosts))
        placement[key] = placement.get(key, 0.0) + group["bytes"] / total
    return placement


def placement_text(placement, lab):
    """A placement as the report states it: each source datanode's share of the bytes it holds
    (a block on several counts on each)."""
    if placement is None:
        return "no record (taken as spread evenly)"
    shares = {}
    for hosts, share in placement.items():
        for host in hosts:
            shares[host] = shares.get(host, 0.0) + share
    count = datanodes(lab, "src")
    return ", ".join(f"dn{i} {100 * shares.get(f'src-dn{i}', 0.0):.0f}%" for i in range(1, count + 1))


def placement_option(placement, total_bytes):
    """The planner's --placement for a recorded placement of `total_bytes`: "even" without a
    record, else each set of holders (datanode numbers from 1, joined by +) with its bytes,
    e.g. "1=8589934592B,2+3=0B" (Placement.parse)."""
    if placement is None:
        return "even"
    parts = []
    for hosts, share in sorted(placement.items()):
        numbers = "+".join(str(int(host.rsplit("dn", 1)[1])) for host in hosts)
        parts.append(f"{numbers}={round(share * total_bytes)}B")
    return ",".join(parts)


def hosts_up(run, lab, side, t):
    """Hosts of one side (src sends, dst receives) that exist at epoch time t: the datanodes,
    and each spawned host once its boot delay has passed; never more than the run used at
    once (its senders or receivers), since a spawned host that failed was replaced by
    another."""
    up = datanodes(lab, side)
    for host, at in (run.get("spawned_up_at") or {}).items():
        if host.startswith(side + "-") and at <= t:
            up += 1
    most = run.get("senders" if side == "src" else "receivers")
    return min(up, most) if most else up


@functools.lru_cache(maxsize=None)
def _flow_limit(v_e, v_i, senders, receivers, src_datanodes, dst_datanodes, replication,
                placement):
    return flow.copy_limit(v_e, v_i, senders, src_datanodes, receivers, dst_datanodes,
                           placement=dict(placement) if placement else None,
                           replication=replication, source_replication=replication)


def flow_limit(lab, senders, receivers, placement=None):
    """The physical limit with these many hosts sending and receiving (datanodes first, then
    spawned hosts), in MB/s of wire bytes, and the links that bound it: the maximum flow over
    the hosts' links (flow.py), with the bytes where `placement` says (None: spread evenly over
    the source datanodes) and the lab's replication on both sites. Without v_i in the lab's
    record, in-site links are taken as unlimited: the least of the summed v_e of the senders
    and of the receivers."""
    v_i = lab.get("v_i_mbit")
    frozen = tuple(sorted(placement.items())) if placement else None
    rate, links = _flow_limit(lab["v_e_mbit"] / 8.0, v_i / 8.0 if v_i else None, senders,
                              receivers, datanodes(lab, "src"), datanodes(lab, "dst"),
                              lab.get("replication", 1), frozen)
    return round(rate, 3), links


def limit_at(run, lab, t, placement=None):
    """The physical limit at time t, in MB/s of wire bytes, over the hosts that exist then."""
    if "spawned_up_at" not in run:
        return flow_limit(lab, run.get("senders", 0), run.get("receivers", 0), placement)[0]
    return flow_limit(lab, hosts_up(run, lab, "src", t), hosts_up(run, lab, "dst", t),
                      placement)[0]


# Each tool's own processes, whose CPU is the tool's cost (process_cpu.py's roles).
TOOL_ROLES = {"relaycp": ("relaycp-relay", "relaycp-driver", "relaycp-pool"),
              "distcp": ("distcp-client", "distcp-am", "distcp-map"),
              "distcp-expert": ("distcp-client", "distcp-am", "distcp-map")}


def process_cpu(run, cpu_path):
    """The run's CPU seconds by role (process_cpu.py's JSON, when the run has one) and the
    tool's own (its relays and driver, or DistCp's client, application master and maps) per GB
    and per 1,000 files copied: {"seconds": {...}, "tool_seconds", "per_gb", "per_1000_files"},
    or None."""
    if not os.path.exists(cpu_path):
        return None
    seconds = json.load(open(cpu_path)).get("seconds") or {}
    tool = sum(seconds.get(role, 0.0) for role in TOOL_ROLES.get(run["tool"], ()))
    verify = run.get("verify") or {}
    out = {"seconds": seconds, "tool_seconds": round(tool, 2)}
    if verify.get("bytes"):
        out["per_gb"] = round(tool / (verify["bytes"] / 1e9), 2)
    if verify.get("files"):
        out["per_1000_files"] = round(tool / (verify["files"] / 1000), 2)
    return out


def cpu_at(timeline, t, roles):
    """The CPU seconds `roles` had spent by time t on a process_cpu.py timeline
    ([[t, {role: CPU s so far}], ...]), linear between its samples; before the first sample
    what that sample says, after the last what the last says."""
    before = None
    for when, totals in timeline:
        value = sum(totals.get(role, 0.0) for role in roles)
        if when >= t:
            if before is None or when <= before[0]:
                return value
            return before[1] + (value - before[1]) * (t - before[0]) / (when - before[0])
        before = (when, value)
    return before[1] if before else 0.0


def tool_cpu_between(cpu_path, tool, t_from, t_to):
    """The CPU seconds `tool`'s own processes spent between two moments (seconds since the
    epoch), from the run's process_cpu.py timeline; None where the run has no timeline (its
    sampler older than 042fcf1, 2026-11-25) or it does not span them."""
    if not os.path.exists(cpu_path):
        return None
    samples = json.load(open(cpu_path)).get("timeline") or []
    if len(samples) < 2 or samples[0][0] > t_from or samples[-1][0] < t_to:
        return None
    roles = TOOL_ROLES.get(tool, ())
    return cpu_at(samples, t_to, roles) - cpu_at(samples, t_from, roles)


def analyse(run, lab, csv_path, predictions, placement=None):
    """One copy against the physical limit (its dataset's bytes where `placement` says) and
    its prediction."""
    bytes_ = (run.get("verify") or {}).get("bytes")
    wall = run.get("wall_seconds")
    out = dict(run)
    # Not *.json: the run folder's *.json are the runs themselves.
    cpu = process_cpu(run, csv_path[:-len(".csv")] + ".cpu")
    if cpu:
        out["process_cpu"] = cpu
    limit, bound_by = flow_limit(lab, run.get("senders", 0), run.get("receivers", 0), placement)
    out["physical_limit_mb_per_s"] = limit
    if bound_by:
        out["limit_bound_by"] = bound_by
    predicted = predictions.get((run["dataset"], run["tool"], run["k"]))
    if predicted:
        out["predicted_seconds"] = predicted["seconds"]
        out["prediction_command"] = predicted["command"]
    if not os.path.exists(csv_path) or not wall:
        return out
    rows = timeline(csv_path)
    if len(rows) < 3:
        return out
    base = rows[0]
    wan = rows[-1]["src_to_dst"] - base["src_to_dst"]
    out["wan_bytes_src_to_dst"] = int(wan)
    out["cpu_busy_pct"] = cpu_pct(rows, "cpu_busy")
    steal = cpu_pct(rows, "cpu_steal")
    if steal is not None:
        out["cpu_steal_pct"] = steal
    # Per-second series for the charts: MB/s crossing the WAN.
    series = []
    for a, b in zip(rows, rows[1:]):
        dt = b["t"] - a["t"]
        if dt > 0:
            series.append((round(b["t"] - base["t"], 2), round((b["src_to_dst"] - a["src_to_dst"]) / dt / 1e6, 3)))
    out["_series"] = series
    if bytes_ and wan > 0:
        out["bytes"] = bytes_
        out["mb_per_s"] = round(bytes_ / 1e6 / wall, 3)

        t10, t90 = when_crossed(rows, 0.1), when_crossed(rows, 0.9)
        if t90 > t10:
            out["steady_mb_per_s"] = round(0.8 * bytes_ / 1e6 / (t90 - t10), 3)
            out["steady_window_s"] = [round(t10 - base["t"], 2), round(t90 - base["t"], 2)]
            # The tool's CPU over the same window, against the 80% of the files and bytes
            # that crossed in it (files counted in proportion to bytes: exact where they are
            # of one size, as in S): what a file costs once the processes have started and
            # warmed up, without the fixed cost of a copy's start.
            steady_cpu = tool_cpu_between(csv_path[:-len(".csv")] + ".cpu", run["tool"], t10, t90)
            tool_cpu = out.get("process_cpu")
            if tool_cpu and steady_cpu is not None:
                tool_cpu["steady_tool_seconds"] = round(steady_cpu, 2)
                tool_cpu["steady_per_gb"] = round(steady_cpu / (0.8 * bytes_ / 1e9), 2)
                files = (run.get("verify") or {}).get("files")
                if files:
                    tool_cpu["steady_per_1000_files"] = round(steady_cpu / (0.8 * files / 1000), 2)
            # The limit over the window counts a spawned host from when it has booted: a VM
            # that does not exist yet is not a host in use. Without spawned hosts it is the
            # plain limit.
            steps = 200
            dt = (t90 - t10) / steps
            window_limit = sum(limit_at(run, lab, t10 + (i + 0.5) * dt, placement)
                               for i in range(steps)) / steps
            out["steady_limit_mb_per_s"] = round(window_limit, 3)
            if window_limit:
                out["fraction_of_limit"] = round(out["steady_mb_per_s"] / window_limit, 3)
            if limit:
                out["fraction_of_full_limit"] = round(out["steady_mb_per_s"] / limit, 3)
            # Each host's link over the same window, where the run sampled them.
            used = links.use(csv_path[:-len(".csv")], lab, t10, t90, bound_by)
            if used:
                out["links"] = used
    cpu = out.get("cpu_busy_pct") or 0
    frac = out.get("fraction_of_limit") or 0
    if cpu >= 85 and frac < 0.85:
        out["bound"] = "CPU-bound: machine CPU >= 85% busy (all work on the machine) while below 85% of the network limit"
    elif frac >= 0.85:
        out["bound"] = "network-bound"
    else:
        out["bound"] = "neither cap nor CPU saturated (overheads)"
    if out.get("predicted_seconds"):
        out["prediction_error_pct"] = round(100.0 * (out["predicted_seconds"] - wall) / wall, 1)
    return out


def probe_rate(probe, kind):
    """Mean measured goodput of one kind of probe, in MB/s; None without a probe."""
    rates = [p["mbit_per_s"] for p in probe if p["kind"] == kind]
    return sum(rates) / len(rates) / 8.0 if rates else None


def startup_seconds(folder):
    """Wall seconds of each tool's start-up probes, when the run measured them: copies of one
    64 KiB file (T) and of 300 (U); DistCp of 1,200 (W) and of 300 with one map (V);
    relaycp of 3,000 (Y; runs before 2026-11-23 16:30 copied W instead) and of 1,200 with
    fewer streams (X).
    {"distcp": {"T": s, "U": s, "V": s, "W": s}, "relaycp": {"T": s, "U": s, "X": s, "Y": s}}."""
    out = {}
    for tool, suffix in (("distcp", "distcp"), ("relaycp", "relaycp-k0")):
        for ds in ("T", "U", "V", "W", "X", "Y"):
            path = os.path.join(folder, "startup", f"{ds}-{suffix}.json")
            if os.path.exists(path):
                run = json.load(open(path))
                if run.get("exit_code") == 0 and run.get("wall_seconds"):
                    out.setdefault(tool, {})[ds] = run["wall_seconds"]
    return out


def spawned_probe_dataset(folder):
    """The dataset the spawned-pairs probe copied, alone and over spawned pairs: Z (9,000 files)
    where the run has it, else Y (3,000). On the lab's two shared cores a spawned relay listened
    50-55 s after its request, and Y's copy could end first: on 2026-11-28 all four spawned
    relays of Y's probe went unused, and the probe priced a spawned relay at 1.95 CPU-s, against
    12.66 in the run before (bench/results/lab-2026-11-28-spawned-probe/NOTES.md)."""
    z = glob.glob(os.path.join(folder, "startup", "Z-relaycp-k[1-9]*.json"))
    return "Z" if z else "Y"


def relaycp_phases(folder):
    """relaycp's own phase seconds (its --json phaseSeconds) of each start-up probe, by its
    dataset's name; the spawned probe (its dataset over spawned pairs too) as Y_SPAWNED or
    Z_SPAWNED."""
    out = {}
    paths = [(ds, os.path.join(folder, "startup", f"{ds}-relaycp-k0.out"))
             for ds in ("T", "U", "W", "X", "Y", "Z")]
    ds = spawned_probe_dataset(folder)
    paths += [(ds + SPAWNED_SUFFIX, path) for path in
              sorted(glob.glob(os.path.join(folder, "startup", f"{ds}-relaycp-k[1-9]*.out")))[:1]]
    for ds, path in paths:
        try:
            out[ds] = json.load(open(path))["phaseSeconds"]
        except (OSError, ValueError, KeyError):
            pass
    return out


def warm_up_text(folder):
    """How the lab was warmed before the probes, from the copies in startup/warm-up/ (of Y;
    of W before 2026-11-23 16:30)."""
    for name in ("Y", "W"):
        copies = glob.glob(os.path.join(folder, "startup", "warm-up", f"{name}-*.json"))
        if copies:
            return f"{len(copies)} untimed relaycp copies of {name} (`startup/warm-up/`)"
    return "one untimed relaycp copy of W"


def _map_lines(folder, name):
    """The map rows of startup/<name>-distcp-maps.txt as (files, start s, copying s, waits), waits
    being how many of its files took 0.3 s or more (None where the file has no such column), or
    [] without the file."""
    try:
        lines = open(os.path.join(folder, "startup", f"{name}-distcp-maps.txt")).read().splitlines()
    except OSError:
        return []
    rows = []
    for line in lines:
        fields = line.split()
        if len(fields) >= 5 and fields[0].startswith("container_") and fields[2].isdigit():
            waits = int(fields[6]) if len(fields) >= 7 and fields[6].isdigit() else None
            rows.append((int(fields[2]), float(fields[3]), float(fields[4]), waits))
    return rows


def distcp_map_costs(folder):
    """DistCp's seconds per file as its maps timed them (`startup/*-distcp-maps.txt`, from the
    maps' own logs): a lone map's from V's map, and a map's with every slot busy from W's maps
    (their copying seconds over their files). Job and task start-ups are not in these, so they
    measure the cost per file more steadily than differences of wall times: V - T, what the fit
    used before 2026-11-23 18:30, was 55.3 s where V's map copied for 61.7 s, and so put a lone
    map at 0.155 s a file where M's longest map (2,164 files, mostly alone) took 0.224.

    Also a map's start-up when it starts alone ("start"): the median, over T's maps (one file,
    at most two maps) and V's (one map), of the seconds from a map's first log line to its first
    copy. A wave of maps starting together on the lab's shared cores each take longer (U's six:
    18-24 s against T's 6.4-6.7 on 2026-11-28), which is a cost the job pays once; a map started
    later, in a slot another map left, starts about alone (L's and S's later maps that day:
    5.1-6.3 s).

    And the share of those maps' files whose close waited ("lone_waits", "wide_waits"): a file
    that took 0.3 s or more, which on the lab's small files is the HDFS client's first retry of
    its close, 400 ms by default (maps.py).

    {"lone": s, "wide": s, "start": s, "lone_waits": share, "wide_waits": share}, without the key
    whose probe has no map log (or whose log counts no waits)."""
    out = {}
    for key, name, least in (("lone", "V", V_FILES // 2), ("wide", "W", W_FILES // 12)):
        rows = [(files, copying, waits) for files, _, copying, waits in _map_lines(folder, name)
                if files >= least]
        if rows:
            files = sum(row[0] for row in rows)
            out[key] = sum(row[1] for row in rows) / files
            if all(row[2] is not None for row in rows):
                out[key + "_waits"] = sum(row[2] for row in rows) / files
    starts = [start for name in ("T", "V") for files, start, _, _ in _map_lines(folder, name)
              if files]
    if starts:
        out["start"] = statistics.median(starts)
    return out


# relaycp numbers spawned pairs' routes from here (SpawnedRelays.FIRST_ROUTE_ID).
FIRST_SPAWNED_ROUTE = 1000


def spawned_serving(run):
    """Seconds from the lab's start of a relaycp copy (its JVM's) until the last spawned route
    joined the copy, or None without one. The summary counts a route's joining from the copy's
    own start, after the driver's JVM started; that start is put back as the time the command
    ran beyond the summary's seconds (the JVM's exit after the summary is short)."""
    summary = run.get("relaycp_summary") or {}
    joined = [r["joinedSeconds"] for r in summary.get("routeRates", [])
              if r.get("route", 0) >= FIRST_SPAWNED_ROUTE and r.get("joinedSeconds") is not None]
    if not joined or summary.get("seconds") is None or run.get("wall_seconds") is None:
        return None
    return max(joined) + max(0.0, run["wall_seconds"] - summary["seconds"])


def spawned_probe(folder, lab):
    """The last start-up probe: relaycp's copy of spawned_probe_dataset over every datanode
    route and spawned pairs that joined at once (startup/<Z or Y>-relaycp-k<pairs>.*), as
    {"dataset", "files", "pairs", "copying", "join", "serving", "start_cpu", "files_per_route"}:
    copying is relaycp's copying phase, join the seconds from the copy's start until the last
    spawned host was attached, serving until its relay served the copy
    (spawned_serving; None where the summary does not say), start_cpu the median CPU seconds a
    spawned relay's JVM had spent when it listened (spawned_start_cpu_s, recorded since
    2026-11-27 06:30; None before), files_per_route what a spawned route copied
    (spawned_files_per_route). None where the run has none (before 2026-11-23 18:00), or
    where the probe cannot be used (spawned_probe_unusable)."""
    pairs = lab.get("spawned_probe_pairs") or 0
    found = _spawned_probe_run(folder, pairs)
    if found is None or _unusable(*found, pairs):
        return None
    dataset, run = found
    up = run["spawned_up_at"]
    summary = run["relaycp_summary"]
    return {"dataset": dataset, "files": summary.get("files") or PROBE_FILES[dataset],
            "pairs": pairs,
            "copying": summary["phaseSeconds"]["copying"],
            "join": max(0.0, max(up.values()) - run["started_at"]),
            "serving": spawned_serving(run), "start_cpu": _median(run.get("spawned_start_cpu_s")),
            "files_per_route": spawned_files_per_route(summary)}


def spawned_files_per_route(summary):
    """The mean chunks (the probe's files are one chunk each) the spawned routes copied, from the
    summary's routeRates; None where it does not say."""
    chunks = [r.get("chunks", 0) for r in summary.get("routeRates") or []
              if r.get("route", 0) >= FIRST_SPAWNED_ROUTE]
    return statistics.mean(chunks) if chunks else None


def _median(by_host):
    values = sorted((by_host or {}).values())
    return statistics.median(values) if values else None


def spawned_probe_unusable(folder, lab):
    """Why the run's spawned-pairs probe, where it has one, says nothing about what a spawned
    relay pays (its copy failed, dropped a route, not every spawned host was attached, or a
    spawned relay served no route), as a phrase; None where it has none or it is usable."""
    pairs = lab.get("spawned_probe_pairs") or 0
    found = _spawned_probe_run(folder, pairs)
    return None if found is None else _unusable(*found, pairs)


def _spawned_probe_run(folder, pairs):
    """(the probe's dataset, its run record), or None where the run has no spawned probe."""
    dataset = spawned_probe_dataset(folder)
    path = os.path.join(folder, "startup", f"{dataset}-relaycp-k{pairs}.json")
    if not pairs or not os.path.exists(path):
        return None
    return dataset, json.load(open(path))


def _unusable(dataset, run, pairs):
    summary = run.get("relaycp_summary") or {}
    name = f"startup/{dataset}-relaycp-k{pairs}"
    if run.get("exit_code") != 0:
        return f"{name} exited {run.get('exit_code')}"
    if not (summary.get("phaseSeconds") or {}).get("copying"):
        return f"{name} has no copying phase"
    if summary.get("routesDropped"):
        return f"{name} dropped {summary['routesDropped']} route(s)"
    attached = len(run.get("spawned_up_at") or {})
    if attached < 2 * pairs:
        return f"{name} had {attached} of its {2 * pairs} spawned hosts attached"
    # A spawned relay that never served a route cost the probe its start and no file: what its
    # files cost is not in the probe, and the CPU difference prices it too low.
    hosts = (summary.get("spawned") or {}).get("hosts") or []
    unrouted = sorted({h.get("outcome") or "no outcome" for h in hosts} - {"routed"})
    if unrouted:
        idle = sum(1 for h in hosts if h.get("outcome") != "routed")
        return (f"{name}: {idle} of its {len(hosts)} spawned relays served no route "
                f"({', '.join(unrouted)}): the copy's work ran out before they answered")
    return None


def spawned_start_seconds(probe):
    """What a spawned relay took from its host's attachment until it served the copy, in the
    start-up probe (spawned_probe): its JVM's start and first handshakes on the lab's shared
    cores, which a cloud's VM pays after its boot too. 0 without the figure."""
    if not probe or probe.get("serving") is None:
        return 0.0
    return max(0.0, probe["serving"] - probe["join"])
