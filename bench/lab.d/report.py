"""Turns one lab run folder (bench/results/lab-<date>/) into results.json, results.md
and PNG charts. Input: lab.json, probe.json, runs/<dataset>-<tool>[-k<k>].json with
the sampler's .csv beside each. Installs matplotlib with pip when it is missing.

MB is 10^6 bytes throughout. "steady" is the rate over the middle 80% of the bytes:
the times when the bytes that crossed the router from src to dst reached 10% and 90%
of their total, and 80% of the payload over that span."""
import csv
import glob
import json
import math
import os
import subprocess
import sys


def load_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"], check=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def timeline(csv_path):
    rows = []
    with open(csv_path) as f:
        for r in csv.DictReader(f):
            rows.append({k: float(v) for k, v in r.items()})
    return rows


def hosts_up(run, lab, side, t):
    """Hosts of one side (src sends, dst receives) that exist at epoch time t: the datanodes,
    and each spawned host once its boot delay has passed."""
    up = lab["datanodes_per_site"]
    for host, at in (run.get("spawned_up_at") or {}).items():
        if host.startswith(side + "-") and at <= t:
            up += 1
    return up


def limit_at(run, lab, t):
    """The physical limit at time t, in MB/s of wire bytes: the least of the summed v_e of the
    hosts that can send and of those that can receive at that moment."""
    if "spawned_up_at" not in run:
        return min(run.get("senders", 0), run.get("receivers", 0)) * lab["v_e_mbit"] / 8.0
    return min(hosts_up(run, lab, "src", t), hosts_up(run, lab, "dst", t)) * lab["v_e_mbit"] / 8.0


def analyse(run, lab, csv_path, predictions):
    bytes_ = (run.get("verify") or {}).get("bytes")
    wall = run.get("wall_seconds")
    out = dict(run)
    limit = min(run.get("senders", 0), run.get("receivers", 0)) * lab["v_e_mbit"] / 8.0
    out["physical_limit_mb_per_s"] = round(limit, 3)
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
    busy = rows[-1]["cpu_busy"] - base["cpu_busy"]
    total = rows[-1]["cpu_total"] - base["cpu_total"]
    out["cpu_busy_pct"] = round(100.0 * busy / total, 1) if total else None
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

        def when(frac):
            goal = base["src_to_dst"] + frac * wan
            for a, b in zip(rows, rows[1:]):
                if b["src_to_dst"] >= goal:
                    span = b["src_to_dst"] - a["src_to_dst"]
                    x = (goal - a["src_to_dst"]) / span if span else 0
                    return a["t"] + x * (b["t"] - a["t"])
            return rows[-1]["t"]

        t10, t90 = when(0.1), when(0.9)
        if t90 > t10:
            out["steady_mb_per_s"] = round(0.8 * bytes_ / 1e6 / (t90 - t10), 3)
            out["steady_window_s"] = [round(t10 - base["t"], 2), round(t90 - base["t"], 2)]
            # The limit over the window counts a spawned host from when it has booted: a VM
            # that does not exist yet is not a host in use. Without spawned hosts it is the
            # plain limit.
            steps = 200
            dt = (t90 - t10) / steps
            window_limit = sum(limit_at(run, lab, t10 + (i + 0.5) * dt) for i in range(steps)) / steps
            out["steady_limit_mb_per_s"] = round(window_limit, 3)
            if window_limit:
                out["fraction_of_limit"] = round(out["steady_mb_per_s"] / window_limit, 3)
            if limit:
                out["fraction_of_full_limit"] = round(out["steady_mb_per_s"] / limit, 3)
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


# The planner's defaults for a DistCp map's start-up and per-file cost (DistcpSettings).
DISTCP_TASK_SECONDS = 4.0
DISTCP_FILE_SECONDS = 0.1


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


def relaycp_phases(folder):
    """relaycp's own phase seconds (its --json phaseSeconds) of each start-up probe."""
    out = {}
    for ds in ("T", "U", "W", "X", "Y"):
        path = os.path.join(folder, "startup", f"{ds}-relaycp-k0.out")
        try:
            out[ds] = json.load(open(path))["phaseSeconds"]
        except (OSError, ValueError, KeyError):
            pass
    return out


U_FILES = 300
V_FILES = 300
# Each start-up probe's files are this size (run.sh's dataset_parts).
PROBE_FILE_BYTES = 65536
W_FILES = 1200
X_FILES = 1200
Y_FILES = 3000
# relaycp's route window for small files: a reader relay streams 16 chunks at once
# (relaycp.relay.parallel-streams) out of the 32 a route may have outstanding
# (relaycp.copy.chunks-in-flight-per-route); RelaycpSettings.chunksAtOnce.
RELAYCP_CHUNKS_AT_ONCE = min(16, 32)


def relaycp_rounds(files, routes, at_once):
    """Rounds of per-file cost the planner's relaycp model needs for `files` one-chunk files
    over `routes` routes of `at_once` chunks each: in each round a route with no chunk takes
    one, and takes more only while more chunks wait than there are routes (the copy's
    hold-back rule, StreamSimulation's holdBack)."""
    rounds, left = 0, files
    while left > 0:
        rounds += 1
        taken = 0
        for slot in range(at_once):
            for _ in range(routes):
                if left == 0 or (slot > 0 and left <= routes):
                    continue
                left -= 1
                taken += 1
        if taken == 0:
            break
    return rounds


def distcp_overheads(distcp, slots, external=None):
    """DistCp's job start-up, task start-up, cost per file and concurrent files, solved from
    its start-up probes so that the planner's DistCp model gives their seconds back.

    A map's cost per file depends on how many maps pay it at once (they share the namenodes
    and, in the WAN lab, two cores). V is one map copying 300 files after T's one, so a lone
    map's cost is f = (V - T) / 299. W and U are all `slots` maps at once, with w and u files
    each, so a map's cost with every slot busy is F = (W - U) / (w - u); the model's concurrent
    files are then slots x f / F, so that `slots` maps sharing them go at F. T is the job
    start-up, a lone map's start-up (the planner's default) and one file: J = T - task - f.
    U is J, a wave of map start-ups (JVMs and their first files, slower side by side) and u
    files at F: the model's task start-up is U - J - u F, which it applies to every map.
    Each file's bytes, at a host's WAN rate `external` (bytes/s), are taken out of f and F:
    the model adds them itself.

    Without V the cost does not depend on the maps at once; without W, F comes from U and T
    (F = (U - T) / (u - 1)), which counts the slower wave of start-ups as cost per file."""
    if "T" not in distcp:
        return None
    per_map_u = math.ceil(U_FILES / slots)
    per_map_w = math.ceil(W_FILES / slots)
    wide = lone = None
    if "U" in distcp and "W" in distcp and per_map_w > per_map_u:
        wide = max(0.0, distcp["W"] - distcp["U"]) / (per_map_w - per_map_u)
    elif "U" in distcp and per_map_u > 1:
        wide = max(0.0, distcp["U"] - distcp["T"]) / (per_map_u - 1)
    if "V" in distcp:
        lone = max(0.0, distcp["V"] - distcp["T"]) / (V_FILES - 1)
    bytes_seconds = PROBE_FILE_BYTES / external if external else 0.0
    if wide is not None:
        wide = max(0.0, wide - bytes_seconds)
    if lone is not None:
        lone = max(0.0, lone - bytes_seconds)
    per_file, concurrent = DISTCP_FILE_SECONDS, 0.0
    if wide is not None:
        per_file = wide
        if lone is not None and 0 < lone < wide:
            per_file, concurrent = lone, max(1.0, slots * lone / wide)
    job = max(0.0, distcp["T"] - DISTCP_TASK_SECONDS - (lone if lone is not None else per_file))
    task = DISTCP_TASK_SECONDS
    if "U" in distcp and "W" in distcp and wide is not None:
        task = max(0.0, distcp["U"] - job - per_map_u * wide)
    return {"job": job, "task": task, "per_file": per_file, "concurrent_files": concurrent,
            "lone_per_file": lone, "wide_per_file": wide}


def overhead_options(startup, lab, phases=None, external=None, distcp_fit=None):
    """The planner's start-up and per-file options from the start-up probes, solved so that
    the planner's own models give their seconds back.

    DistCp: see distcp_overheads, or distcp_fit when given (calibrate_distcp's).

    relaycp: U's and Y's files take relaycp_rounds rounds over every datanode relay's route,
    so a stream's steady cost per file with every route busy is F = (copying(Y) -
    copying(U)) / (rounds(Y) - rounds(U)) from relaycp's own phase times (U alone would count
    the first files' start-up); commit and verification per file are (phase(Y) - phase(U)) /
    (3000 - 300). Results from before Y existed use W (1,200 files) in its place. X is 1,200
    files with a quarter of the streams (every route, fewer chunks in flight on each): its
    cost per file is f = (copying(X) - copying(T)) / (rounds(X) - 1).
    Where f is below F the streams share the per-file work: the model's concurrent files are
    streams x f / F, so that the streams sharing them go at F. One file's bytes at the
    route's WAN rate are taken out of each round (the model adds them itself, and starts a
    route's streams apart so that their bytes seldom meet); where X's files' bytes one after
    another fill most of its round, X was held by the network and says nothing about sharing.
    The start-up is what is left of T: T - f - commit - verification.
    Without phase times, F comes from the wall times, (Y - U) / (rounds(Y) - rounds(U))."""
    options = []
    slots = lab["datanodes_per_site"] * lab["slots_per_node"]
    distcp, relaycp = startup.get("distcp", {}), startup.get("relaycp", {})
    fitted = distcp_fit or distcp_overheads(distcp, slots, external)
    if fitted is not None:
        options += distcp_options(fitted)
    if "T" in relaycp:
        per_file = None
        routes = lab["datanodes_per_site"]
        phases = phases or {}
        steady, steady_files = ("Y", Y_FILES) if "Y" in phases or "Y" in relaycp else ("W", W_FILES)
        rounds_u = relaycp_rounds(U_FILES, routes, RELAYCP_CHUNKS_AT_ONCE)
        rounds_steady = relaycp_rounds(steady_files, routes, RELAYCP_CHUNKS_AT_ONCE)
        after = 0.0
        # In a round each stream moves one file. The model starts a route's streams apart, so
        # that a file's bytes mostly have the route to themselves while the others pay their
        # per-file cost, as in a copy: a round is the cost plus one file's bytes at the route's
        # WAN rate, which the model adds itself.
        round_bytes = (PROBE_FILE_BYTES / external) if external else 0.0
        if "U" in phases and steady in phases and rounds_steady > rounds_u:
            u, w = phases["U"], phases[steady]
            per_file = max(0.0, max(0.0, w["copying"] - u["copying"]) / (rounds_steady - rounds_u)
                           - round_bytes)
            commit = max(0.0, w["committing"] - u["committing"]) / (steady_files - U_FILES)
            verify = max(0.0, w["verifying"] - u["verifying"]) / (steady_files - U_FILES)
            after = commit + verify
            options += ["--relaycp-commit-seconds", f"{commit:.4f}",
                        "--relaycp-verify-seconds", f"{verify:.4f}"]
            # X: every route with x_at_once chunks in flight (runs before 2026-11-23 10:00
            # sent X over one route, which its WAN cap held below W's rate).
            x_at_once = min(RELAYCP_CHUNKS_AT_ONCE, lab.get("x_chunks_in_flight", 0)) or None
            x_routes = routes if x_at_once else 1
            x_at_once = x_at_once or RELAYCP_CHUNKS_AT_ONCE
            rounds_x = relaycp_rounds(X_FILES, x_routes, x_at_once)
            x_link_seconds = (x_at_once * PROBE_FILE_BYTES / external) if external else 0.0
            if "X" in phases and "T" in phases and x_routes * x_at_once < routes * RELAYCP_CHUNKS_AT_ONCE \
                    and rounds_x > 1:
                x_round = max(0.0, phases["X"]["copying"] - phases["T"]["copying"]) / (rounds_x - 1)
                fewer = max(0.0, x_round - round_bytes)
                # Where X's rounds were mostly its bytes crossing the WAN (each route's files
                # one after another), X measured the network, not what fewer streams pay.
                if 0 < fewer < per_file and x_link_seconds < 0.8 * x_round:
                    streams = routes * RELAYCP_CHUNKS_AT_ONCE
                    options += ["--relaycp-concurrent-files",
                                f"{max(1.0, streams * fewer / per_file):.1f}"]
                    per_file = fewer
        elif "U" in relaycp and steady in relaycp and rounds_steady > rounds_u:
            per_file = max(0.0, relaycp[steady] - relaycp["U"]) / (rounds_steady - rounds_u)
        elif "U" in relaycp and rounds_u > 1:
            per_file = max(0.0, relaycp["U"] - relaycp["T"]) / (rounds_u - 1)
        start = relaycp["T"] - (per_file or 0.0) - after
        options += ["--relaycp-start-seconds", f"{max(0.0, start):.1f}"]
        if per_file is not None:
            options += ["--relaycp-file-seconds", f"{per_file:.3f}"]
    return options


def warm_up_text(folder):
    """How the lab was warmed before the probes, from the copies in startup/warm-up/ (of Y;
    of W before 2026-11-23 16:30)."""
    for name in ("Y", "W"):
        copies = glob.glob(os.path.join(folder, "startup", "warm-up", f"{name}-*.json"))
        if copies:
            return f"{len(copies)} untimed relaycp copies of {name} (`startup/warm-up/`)"
    return "one untimed relaycp copy of W"


def plan_json(binary, arguments):
    """`relaycp plan` run with `arguments`, its JSON answer parsed; RuntimeError with the
    planner's own message when it exits non-zero."""
    res = subprocess.run([binary, "plan"] + arguments, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(res.stderr.strip())
    return json.loads(res.stdout)


def distcp_options(fitted):
    """The planner's DistCp options for a fit; precise enough that calibrate_distcp's secant
    steps see the model move."""
    return ["--distcp-job-seconds", f"{fitted['job']:.2f}",
            "--distcp-task-seconds", f"{fitted['task']:.2f}",
            "--distcp-file-seconds", f"{fitted['per_file']:.4f}",
            "--distcp-concurrent-files", f"{fitted['concurrent_files']:.3f}"]


def distcp_map_costs(folder):
    """DistCp's seconds per file as its maps timed them (`startup/*-distcp-maps.txt`, from the
    maps' own logs): a lone map's from V's map, and a map's with every slot busy from W's maps
    (their copying seconds over their files). Job and task start-ups are not in these, so they
    measure the cost per file more steadily than differences of wall times: V - T, what the fit
    used before 2026-11-23 18:30, was 55.3 s where V's map copied for 61.7 s, and so put a lone
    map at 0.155 s a file where M's longest map (2,164 files, mostly alone) took 0.224.
    {"lone": s, "wide": s}, without the key whose probe has no map log."""
    out = {}
    for key, name, least in (("lone", "V", V_FILES // 2), ("wide", "W", W_FILES // 12)):
        files = seconds = 0.0
        try:
            lines = open(os.path.join(folder, "startup", f"{name}-distcp-maps.txt")).read().splitlines()
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) >= 5 and fields[0].startswith("container_") and fields[2].isdigit() \
                    and int(fields[2]) >= least:
                files += int(fields[2])
                seconds += float(fields[4])
        if files:
            out[key] = seconds / files
    return out


def calibrate_distcp(binary, lab_options, distcp, slots, fitted, map_costs=None, external=None):
    """distcp_overheads solved in closed form, then corrected so that the planner's DistCp model
    itself gives the probes' seconds back. The closed form takes each file's bytes out at one
    host's WAN rate, while the model shares a node's rate among its slots and sends blocks to
    random datanodes, so it put W some 6% above what W took (2026-11-23). In turn, by the
    secant method on the model: a lone map's cost per file from V (one map), the concurrent
    files from W (every slot busy), the task start-up from U. Where the maps' own timings are
    there (`map_costs`, distcp_map_costs), the costs per file come from them instead (a lone
    map's from V's map, one with every slot busy from W's), and the task and job start-ups are
    solved on U and T. Returns the corrected fit, or `fitted` where
    a probe or the planner is missing."""
    if fitted is None or not binary or not all(p in distcp for p in ("T", "U", "V", "W")):
        return fitted
    fit = dict(fitted)

    def model(files, maps):
        return plan_json(binary, ["--what-if", "--json", "--file-sizes", f"{files}x{PROBE_FILE_BYTES}",
                                  "--distcp-maps", str(maps)] + lab_options + distcp_options(fit)
                         + ["--model", "distcp", "--pairs", "0"])["distcpSeconds"]

    def solve(key, files, maps, target, low):
        x0 = fit[key]
        y0 = model(files, maps) - target
        x1 = max(low, x0 * (1 - 0.1 * (1 if y0 > 0 else -1)) if x0 else 0.01)
        for _ in range(6):
            fit[key] = x1
            y1 = model(files, maps) - target
            if abs(y1) < 0.05 or y1 == y0:
                return
            x0, y0, x1 = x1, y1, max(low, x1 - y1 * (x1 - x0) / (y1 - y0))
        fit[key] = x1

    try:
        if map_costs and "lone" in map_costs and "wide" in map_costs:
            # The maps' own timings give the costs per file (less each file's bytes at a
            # host's WAN rate, which the model adds); the start-ups are then solved so that
            # the model gives U and T back.
            bytes_seconds = PROBE_FILE_BYTES / external if external else 0.0
            lone = max(0.0, map_costs["lone"] - bytes_seconds)
            wide = max(0.0, map_costs["wide"] - bytes_seconds)
            fit["per_file"] = lone
            fit["concurrent_files"] = max(1.0, slots * lone / wide) if 0 < lone < wide else 0.0
            fit["lone_per_file"], fit["wide_per_file"] = lone, max(lone, wide)
            for _ in range(2):
                solve("task", U_FILES, slots, distcp["U"], 0.0)
                solve("job", 1, slots, distcp["T"], 0.0)
            return fit
        concurrent = fit["concurrent_files"]
        fit["concurrent_files"] = 0.0          # V is one map: the limit does not apply
        solve("per_file", V_FILES, 1, distcp["V"], 0.0)
        fit["lone_per_file"] = fit["per_file"]
        fit["concurrent_files"] = concurrent or float(slots)
        solve("concurrent_files", W_FILES, slots, distcp["W"], 1.0)
        solve("task", U_FILES, slots, distcp["U"], 0.0)
        fit["wide_per_file"] = fit["per_file"] * slots / fit["concurrent_files"]
    except RuntimeError as e:
        print(f"DistCp calibration failed, using the closed form: {e}", file=sys.stderr)
        return fitted
    return fit


def spawned_probe(folder, lab):
    """The last start-up probe: relaycp's Y over every datanode route and spawned pairs that
    joined at once (startup/Y-relaycp-k<pairs>.*), as {"pairs", "copying", "join"}: copying is
    relaycp's copying phase, join the seconds from the copy's start until the last spawned
    host was attached. None where the run has none (before 2026-11-23 18:00), or where the copy
    failed or dropped a route, which then says nothing about what a spawned relay pays."""
    pairs = lab.get("spawned_probe_pairs") or 0
    path = os.path.join(folder, "startup", f"Y-relaycp-k{pairs}.json")
    if not pairs or not os.path.exists(path):
        return None
    run = json.load(open(path))
    summary = run.get("relaycp_summary") or {}
    copying = (summary.get("phaseSeconds") or {}).get("copying")
    up = run.get("spawned_up_at") or {}
    if run.get("exit_code") != 0 or not copying or summary.get("routesDropped") or len(up) < 2 * pairs:
        return None
    return {"pairs": pairs, "copying": copying,
            "join": max(0.0, max(up.values()) - run["started_at"])}


def calibrate_spawned_factor(binary, lab_options, options, phases, probe):
    """How many times a datanode relay's cost per file a spawned relay pays, solved on the
    planner's relaycp model (bisection on the factor, which only slows the model) so that Y
    over the probe's spawned pairs takes as much longer, or shorter, than Y alone as the probes'
    copying phases did. Returns {"factor", "copying_seconds_over_y", "pairs"}, or None without
    the probes."""
    if not binary or probe is None or "Y" not in phases:
        return None
    measured = probe["copying"] - phases["Y"]["copying"]
    # The probe's spawned hosts joined at `join`, not after the lab's boot delay.
    boot_at = lab_options.index("--boot-seconds") + 1
    boot = lab_options[:boot_at] + [f"{probe['join']:.2f}"] + lab_options[boot_at + 1:]

    def model(factor, pairs):
        return plan_json(binary, ["--what-if", "--json", "--file-sizes", f"{Y_FILES}x{PROBE_FILE_BYTES}"]
                         + boot + options + ["--relaycp-spawned-file-factor", f"{factor:.4f}",
                                             "--model", "relaycp", "--pairs", str(pairs)])["rows"][0]["seconds"]

    def solved(factor):
        return {"factor": factor, "copying_seconds_over_y": measured, "pairs": probe["pairs"]}

    try:
        alone = model(1.0, 0)
        low, high = 0.25, 32.0
        if model(low, probe["pairs"]) - alone >= measured:
            return solved(low)
        if model(high, probe["pairs"]) - alone <= measured:
            return solved(high)
        for _ in range(12):
            middle = math.sqrt(low * high)
            if model(middle, probe["pairs"]) - alone < measured:
                low = middle
            else:
                high = middle
        return solved(math.sqrt(low * high))
    except RuntimeError as e:
        print(f"spawned relays' factor not solved: {e}", file=sys.stderr)
        return None


def predict(folder, lab, probe, runs):
    """The planner's predicted seconds for every run, from `relaycp plan --what-if` given
    the lab's own figures: the dataset's file sizes, node counts, slots, block size, boot
    delay, and the per-host rates the cap probe measured (as `relaycp probe` would have
    recorded them), keyed by (dataset, tool, k); the DistCp fit they used; and the spawned
    relays' factor of calibrate_spawned_factor (None for each without predictions or without
    the probes)."""
    binary = lab.get("relaycp_bin")
    external, internal = probe_rate(probe, "cross-site"), probe_rate(probe, "in-site")
    startup = startup_seconds(folder)
    sizes = lab.get("file_sizes") or {}
    if not binary or not os.path.exists(binary) or not external or not internal:
        return {}, None, None
    out = {}
    slots = lab["datanodes_per_site"] * lab["slots_per_node"]
    lab_options = ["--source-nodes", str(lab["datanodes_per_site"]),
                   "--destination-nodes", str(lab["datanodes_per_site"]),
                   "--replication", str(lab["replication"]),
                   "--internal", f"{internal:.3f}MB/s", "--external", f"{external:.3f}MB/s",
                   "--boot-seconds", str(lab["boot_delay_s"]),
                   "--block-size", str(lab["block_size"]), "--chunk-size", str(lab["block_size"]),
                   "--distcp-slots-per-node", str(lab["slots_per_node"])]
    distcp = startup.get("distcp", {})
    fit = calibrate_distcp(binary, lab_options, distcp, slots,
                           distcp_overheads(distcp, slots, external * 1e6),
                           distcp_map_costs(folder), external * 1e6)
    phases = relaycp_phases(folder)
    options = overhead_options(startup, lab, phases, external * 1e6, fit)
    spawned = calibrate_spawned_factor(binary, lab_options + ["--distcp-maps", str(slots)], options,
                                       phases, spawned_probe(folder, lab))
    if spawned:
        options += ["--relaycp-spawned-file-factor", f"{spawned['factor']:.3f}"]
    for ds in sorted({r["dataset"] for r in runs}):
        if not sizes.get(ds):
            continue
        ks = sorted({r["k"] for r in runs if r["dataset"] == ds and r["tool"] == "relaycp"})
        common = ["--what-if", "--json", "--file-sizes", sizes[ds]] + lab_options + [
                  "--distcp-maps", str(slots)]
        common += options
        for model, pairs in (("relaycp", f"0-{max(ks)}" if ks else "0"), ("distcp", "0")):
            arguments = common + ["--model", model, "--pairs", pairs]
            shown = " ".join(["plan"] + arguments)
            try:
                plan = plan_json(binary, arguments)
            except RuntimeError as e:
                print(f"prediction failed ({binary} {shown}): {e}", file=sys.stderr)
                continue
            if model == "distcp":
                out[(ds, "distcp", 0)] = {"seconds": plan["distcpSeconds"], "command": "relaycp " + shown}
            else:
                for row in plan["rows"]:
                    out[(ds, "relaycp", row["pairs"])] = {"seconds": row["seconds"], "command": "relaycp " + shown}
    return out, fit, spawned


def target_checks(runs):
    """The issue's performance targets, for the runs present: relaycp against DistCp on the
    same dataset in the same lab run, the fraction of the limit, and prediction errors."""
    targets = []
    ok_runs = [r for r in runs if "status" not in r and r.get("mb_per_s")]
    distcp = {r["dataset"]: r for r in ok_runs if r["tool"] == "distcp"}
    for r in ok_runs:
        if r["tool"] != "relaycp" or r["dataset"] not in distcp:
            continue
        ratio = r["mb_per_s"] / distcp[r["dataset"]]["mb_per_s"]
        if r["dataset"] == "L" and r["k"] == 0:
            targets.append((f"L relaycp k=0 at least 0.9x DistCp's MB/s: {ratio:.2f}x", ratio >= 0.9))
        if r["dataset"] == "L" and r["k"] == 6:
            targets.append((f"L relaycp k=6 at least 2.5x DistCp's MB/s: {ratio:.2f}x", ratio >= 2.5))
            frac = r.get("fraction_of_limit") or 0
            targets.append((f"L relaycp k=6 at least 90% of the physical limit in steady state: "
                            f"{100 * frac:.0f}%", frac >= 0.9))
        if r["dataset"] == "S":
            targets.append((f"S relaycp k={r['k']} at least 3x DistCp's MB/s: {ratio:.2f}x", ratio >= 3))
    for r in ok_runs:
        if r.get("prediction_error_pct") is not None:
            e = r["prediction_error_pct"]
            targets.append((f"{r['dataset']} {r['tool']} k={r['k']}: predicted {r['predicted_seconds']:.1f} s "
                            f"against {r['wall_seconds']:.1f} s measured ({e:+.1f}%), within 15%", abs(e) <= 15))
    return targets


def fmt(v, nd=1):
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{nd}f}"
    return str(v)


def main(folder):
    lab = json.load(open(os.path.join(folder, "lab.json")))
    probe = json.load(open(os.path.join(folder, "probe.json"))) if os.path.exists(os.path.join(folder, "probe.json")) else []
    raw = [json.load(open(path)) for path in sorted(glob.glob(os.path.join(folder, "runs", "*.json")))]
    predictions, distcp_fit, spawned = predict(folder, lab, probe, [r for r in raw if "status" not in r])
    runs = []
    for path, run in zip(sorted(glob.glob(os.path.join(folder, "runs", "*.json"))), raw):
        runs.append(analyse(run, lab, path[:-5] + ".csv", predictions))
    series = {f'{r["dataset"]}-{r["tool"]}-k{r["k"]}': r.pop("_series", None) for r in runs}
    checks = []
    for p in probe:
        ratio = p["mbit_per_s"] / p["cap_mbit"]
        if "cross-site" in p["kind"]:
            checks.append((f"cap {p['kind']} {p['from']}->{p['to']}: {p['mbit_per_s']} Mbit/s within 10% of v_e",
                           0.9 <= ratio <= 1.1))
        else:
            checks.append((f"cap in-site {p['from']}->{p['to']}: {p['mbit_per_s']} Mbit/s at least 80% of v_i",
                           0.8 <= ratio <= 1.1))
    for r in runs:
        if "status" in r:
            continue
        ok = r.get("exit_code") == 0 and (r.get("verify") or {}).get("ok") is True
        checks.append((f"{r['dataset']} {r['tool']} k={r['k']}: exit 0 and verified", ok))
    targets = target_checks(runs)
    results = {"lab": lab, "probe": probe, "runs": runs, "startup_seconds": startup_seconds(folder),
               "spawned_file_factor": ({key: spawned[key] for key in ("factor", "copying_seconds_over_y")}
                                       if spawned else None),
               "checks": [{"check": c, "passed": ok} for c, ok in checks],
               "targets": [{"target": c, "met": ok} for c, ok in targets],
               "units": {"MB": "10^6 bytes", "caps": "Mbit/s on the wire"}}
    json.dump(results, open(os.path.join(folder, "results.json"), "w"), indent=2)

    md = [f"# WAN lab results ({os.path.basename(folder)})", "",
          f"v_i = {lab['v_i_mbit']} Mbit/s, v_e = {lab['v_e_mbit']} Mbit/s per host; "
          f"{lab['datanodes_per_site']} datanodes per site; {lab['slots_per_node']} map slots per NodeManager; "
          f"replication {lab['replication']}; boot delay {lab['boot_delay_s']} s; {lab['cores']} cores. "
          "MB = 10^6 bytes. The physical limit is the least of the summed v_e of the sending and "
          "receiving hosts, on the wire (TCP/IP headers take about 5% of it, so ~95% is the payload ceiling). "
          "'limit MB/s' counts every host of the run; 'steady limit' averages it over the steady window "
          "(middle 80% of the bytes), counting a spawned host only once its boot delay has passed, and "
          "'fraction' is the steady MB/s over the steady limit.",
          "", "## Caps (iperf3)", "", "| kind | from | to | Mbit/s | cap | % of cap |", "|---|---|---|---|---|---|"]
    for p in probe:
        md.append(f"| {p['kind']} | {p['from']} | {p['to']} | {p['mbit_per_s']} | {p['cap_mbit']} | "
                  f"{100 * p['mbit_per_s'] / p['cap_mbit']:.1f} |")
    md += ["", "## Copies", "",
           "| dataset | tool | k | seconds | MB/s | steady MB/s | limit MB/s | steady limit | fraction | "
           "predicted s | error % | CPU % | verified | bound |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        if "status" in r:
            md.append(f"| {r['dataset']} | {r['tool']} | {r['k']} | {r['status']} ||||||||||")
            continue
        v = r.get("verify") or {}
        md.append("| " + " | ".join([
            r["dataset"], r["tool"], str(r["k"]), fmt(r.get("wall_seconds")), fmt(r.get("mb_per_s"), 2),
            fmt(r.get("steady_mb_per_s"), 2), fmt(r.get("physical_limit_mb_per_s"), 2),
            fmt(r.get("steady_limit_mb_per_s"), 2),
            fmt(r.get("fraction_of_limit"), 2), fmt(r.get("predicted_seconds")),
            fmt(r.get("prediction_error_pct")), fmt(r.get("cpu_busy_pct")),
            ("yes" if v.get("ok") else f"NO ({v.get('problemCount', '?')} problems)") + f", {v.get('files', '?')} files",
            r.get("bound", "–")]) + " |")
    relay_rows = []
    for r in runs:
        summary = r.get("relaycp_summary") or {}
        if r["tool"] != "relaycp" or not summary:
            continue
        started = summary.get("relaysStarted") or {}
        joined = [route.get("joinedSeconds") for route in summary.get("routeRates") or []
                  if route.get("joinedSeconds") is not None]
        relay_rows.append("| " + " | ".join([
            r["dataset"], str(r["k"]), summary.get("provisioner", "static"),
            f"{started.get('src', '–')} / {started.get('dst', '–')}",
            fmt((summary.get("phaseSeconds") or {}).get("relays")),
            fmt(max(joined) if joined else None),
            fmt(summary.get("localReadFraction"), 3), str(summary.get("routesDropped", "–"))]) + " |")
    if relay_rows:
        md += ["", "## relaycp's relays", "",
               "Containers started (src / dst) and their start-up: the first pair is relaycp's"
               " `relays` phase, from the end of the listing until one relay of each site had"
               " announced itself, when the copy starts; the last route joined that many seconds"
               " after the copy began (listing included), the copy running meanwhile on the"
               " routes already up. The copy's seconds above include both. Local reads: the share"
               " of bytes a relay read on a datanode holding them.", "",
               "| dataset | k | provisioner | containers | first pair s | last route joined s |"
               " local reads | routes dropped |",
               "|---|---|---|---|---|---|---|---|"] + relay_rows
    md += ["", "## Checks", ""] + [f"- {'PASS' if ok else 'FAIL'} {c}" for c, ok in checks]
    md += ["", "## Targets (issue 4; performance, so reported, not failed on)", ""]
    md += [f"- {'MET' if ok else 'MISSED'} {c}" for c, ok in targets] or ["- none apply to these runs"]
    commands = sorted({r["prediction_command"] for r in runs if r.get("prediction_command")})
    startup = startup_seconds(folder)
    d, r = startup.get("distcp", {}), startup.get("relaycp", {})
    md += ["", "Predicted seconds: `relaycp plan --what-if` with the lab's figures, the probe's "
           "measured rates, and each tool's start-up and cost per file from copies of one 64 KiB "
           f"file (T: DistCp {fmt(d.get('T'))} s, relaycp {fmt(r.get('T'))} s), of 300 "
           f"(U: DistCp {fmt(d.get('U'))} s, relaycp {fmt(r.get('U'))} s); DistCp also copied "
           f"1,200 (W: {fmt(d.get('W'))} s) and 300 with one map (V: {fmt(d.get('V'))} s); "
           f"relaycp copied 3,000 (Y: {fmt(r.get('Y'))} s"
           + (f"; these runs had 1,200, W: {fmt(r.get('W'))} s" if "W" in r else "")
           + f") and 1,200 with a quarter of its streams (X: {fmt(r.get('X'))} s), "
           f"after {warm_up_text(folder)} to warm the "
           "namenodes, datanodes and datanode relays; all in `startup/`, with DistCp's "
           "per-map timings in `*-distcp-maps.txt`:", ""]
    external = probe_rate(probe, "cross-site")
    fitted = distcp_fit or distcp_overheads(
        d, lab["datanodes_per_site"] * lab["slots_per_node"], external * 1e6 if external else None)
    if fitted:
        md += [f"DistCp solved from them: job start-up {fmt(fitted['job'])} s, task start-up "
               f"{fmt(fitted['task'])} s, a lone map's cost per file {fmt(fitted['lone_per_file'], 3)} s, "
               f"a map's with every slot busy {fmt(fitted['wide_per_file'], 3)} s, so "
               f"{fmt(fitted['concurrent_files'], 2)} concurrent files (0: no limit).", ""]
    if spawned:
        md += [f"relaycp copied Y again over {spawned['pairs']} spawned pairs that joined at once "
               f"(`startup/Y-relaycp-k{spawned['pairs']}.*`): its copying took "
               f"{spawned['copying_seconds_over_y']:+.1f} s against Y alone, which the relaycp model gives back with a "
               f"spawned relay paying {fmt(spawned['factor'], 2)} times a datanode relay's cost per file "
               "(`--relaycp-spawned-file-factor`): a fresh JVM "
               f"(`{lab.get('spawned_java_opts', '')}`) on the cores every other relay and daemon uses.", ""]
    md += [f"- `{c}`" for c in commands]
    md += ["",
           "", "Charts: `time_vs_k.png` (seconds against spawned pairs k, DistCp as a line), "
           "`timeline-<dataset>.png` (MB/s crossing the WAN, sampled at the router every 0.25 s)"
           + (", `predicted_vs_measured.png`" if any(r.get("predicted_seconds") for r in runs) else "") + ".", ""]
    open(os.path.join(folder, "results.md"), "w").write("\n".join(md))

    plt = load_matplotlib()
    datasets = sorted({r["dataset"] for r in runs})
    fig, axes = plt.subplots(1, max(1, len(datasets)), figsize=(5 * max(1, len(datasets)), 4), squeeze=False)
    for ax, ds in zip(axes[0], datasets):
        rc = sorted([r for r in runs if r["dataset"] == ds and r["tool"] == "relaycp" and r.get("wall_seconds")],
                    key=lambda r: r["k"])
        if rc:
            ax.plot([r["k"] for r in rc], [r["wall_seconds"] for r in rc], "o-", label="relaycp")
            pr = [r for r in rc if r.get("predicted_seconds")]
            if pr:
                ax.plot([r["k"] for r in pr], [r["predicted_seconds"] for r in pr], "x--", label="relaycp predicted")
        else:
            ax.text(0.5, 0.5, "relaycp: not run yet", ha="center", transform=ax.transAxes)
        for r in runs:
            if r["dataset"] == ds and r["tool"] == "distcp" and r.get("wall_seconds"):
                ax.axhline(r["wall_seconds"], color="C3", label=f"DistCp (-m {lab['datanodes_per_site'] * lab['slots_per_node']})")
        ks = [int(k) for k in str(lab.get("k", "0")).split(",") if k.strip().isdigit()]
        if ks:
            ax.set_xticks(ks)
            ax.set_xlim(min(ks) - 0.5, max(ks) + 0.5)
        ax.set_title(f"dataset {ds}")
        ax.set_xlabel("spawned relay pairs k")
        ax.set_ylabel("seconds")
        ax.set_ylim(bottom=0)
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "time_vs_k.png"), dpi=110)
    plt.close(fig)

    for ds in datasets:
        fig, ax = plt.subplots(figsize=(7, 4))
        for key, s in series.items():
            if key.startswith(ds + "-") and s:
                ax.plot([p[0] for p in s], [p[1] for p in s], label=key[len(ds) + 1:], lw=1)
        lim = [r for r in runs if r["dataset"] == ds and r["tool"] == "distcp"]
        if lim:
            ax.axhline(lim[0]["physical_limit_mb_per_s"], ls=":", color="k", label="DistCp physical limit")
        ax.set_title(f"dataset {ds}: bytes crossing the WAN (src -> dst)")
        ax.set_xlabel("seconds")
        ax.set_ylabel("MB/s")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(folder, f"timeline-{ds}.png"), dpi=110)
        plt.close(fig)

    pr = [r for r in runs if r.get("predicted_seconds") and r.get("wall_seconds")]
    if pr:
        fig, ax = plt.subplots(figsize=(5, 5))
        for tool, m in (("distcp", "s"), ("relaycp", "o")):
            sel = [r for r in pr if r["tool"] == tool]
            ax.scatter([r["wall_seconds"] for r in sel], [r["predicted_seconds"] for r in sel], marker=m, label=tool)
        top = max(max(r["wall_seconds"], r["predicted_seconds"]) for r in pr) * 1.1
        ax.plot([0, top], [0, top], "k:")
        ax.set_xlabel("measured seconds")
        ax.set_ylabel("predicted seconds")
        ax.legend()
        fig.savefig(os.path.join(folder, "predicted_vs_measured.png"), dpi=110)
        plt.close(fig)
    print(open(os.path.join(folder, "results.md")).read())
    for c, ok in checks:
        print(("PASS " if ok else "FAIL ") + c)
    failed = sum(1 for _, ok in checks if not ok)
    for c, ok in targets:
        print(("MET    " if ok else "MISSED ") + c)
    print(f"lab: {len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
