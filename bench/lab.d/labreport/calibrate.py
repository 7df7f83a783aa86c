"""Calibrating the planner's models on a lab run: each tool's start-up and per-file costs
solved from the start-up probes so that `relaycp plan`'s own models give the probes' seconds
back, and the planner's predictions for every copy of the run."""
import math
import os
import statistics
import subprocess
import json
import sys

from .parse import (PROBE_FILE_BYTES, PROBE_FILES, U_FILES, V_FILES, W_FILES, X_FILES, Y_FILES,
                    Y_SPAWNED, Z_FILES, Z_SPAWNED,
                    datanodes, placement_option, probe_rate, relaycp_phases,
                    routes as relaycp_routes, spawned_probe, spawned_start_seconds, startup_seconds,
                    cpu_at, distcp_map_costs, timeline, when_crossed)

# The planner's defaults for a DistCp map's start-up and per-file cost (DistcpSettings).
DISTCP_TASK_SECONDS = 4.0
DISTCP_FILE_SECONDS = 0.1
# HDFS's first wait before a client asks its namenode again to close a file
# (dfs.client.block.write.locateFollowingBlock.initial.delay.ms), which the probes' DistCp runs
# with.
HDFS_CLOSE_RETRY_SECONDS = 0.4


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


def overhead_options(startup, lab, phases=None, external=None, distcp_fit=None, cpu_per_byte=None):
    """The planner's start-up and per-file options from the start-up probes, solved so that
    the planner's own models give their seconds back.

    DistCp: see distcp_overheads, or distcp_fit when given (calibrate_distcp's).

    relaycp: U's and Y's files take relaycp_rounds rounds over every datanode relay's route,
    so a stream's steady cost per file with every route busy is F = (copying(Y) -
    copying(U)) / (rounds(Y) - rounds(U)) from relaycp's own phase times (U alone would count
    the first files' start-up), or the mean of that and Z's alone where the run has Z
    (steady_round); commit and verification per file are after_per_file's, the
    median over the probes with more files than U. Results from before Y existed use W (1,200
    files) in its place. X is 1,200 files with a quarter of the streams (every route, fewer
    chunks in flight on each): its cost per file is f = (copying(X) - copying(T)) /
    (rounds(X) - 1).
    Where f is below F the streams share the per-file work: the model's concurrent files are
    streams x f / F, so that the streams sharing them go at F. One file's bytes at the
    route's WAN rate are taken out of each round (the model adds them itself, and starts a
    route's streams apart so that their bytes seldom meet); where X's files' bytes one after
    another fill most of its round, X was held by the network and says nothing about sharing.
    The start-up is what is left of T: T - f - commit - verification.
    Without phase times, F comes from the wall times, (Y - U) / (rounds(Y) - rounds(U)).

    With cpu_per_byte (byte_cpu's) on the lab's shared cores, the model asks for a file's
    bytes' CPU beside its file work, so F, which Y measured on cores its bytes used too, is
    taken without them: with every stream busy the cores did streams / F files a second, each
    costing cores x F / streams CPU-s, of which a 64 KiB file's bytes are PROBE_FILE_BYTES x
    cpu_per_byte. f (X's fewer streams, not held by the cores) keeps its bytes. Without
    concurrent files the bytes' CPU is only a cap in the model, and F is kept whole."""
    options = []
    slots = datanodes(lab, "src") * lab["slots_per_node"]
    distcp, relaycp = startup.get("distcp", {}), startup.get("relaycp", {})
    fitted = distcp_fit or distcp_overheads(distcp, slots, external)
    if fitted is not None:
        options += distcp_options(fitted)
    if "T" in relaycp:
        per_file = None
        routes = relaycp_routes(lab)
        phases = phases or {}
        steady = "Y" if "Y" in phases or "Y" in relaycp else "W"
        rounds_u = relaycp_rounds(U_FILES, routes, RELAYCP_CHUNKS_AT_ONCE)
        rounds_steady = relaycp_rounds(PROBE_FILES[steady], routes, RELAYCP_CHUNKS_AT_ONCE)
        after = 0.0
        # In a round each stream moves one file. The model starts a route's streams apart, so
        # that a file's bytes mostly have the route to themselves while the others pay their
        # per-file cost, as in a copy: a round is the cost plus one file's bytes at the route's
        # WAN rate, which the model adds itself.
        round_bytes = (PROBE_FILE_BYTES / external) if external else 0.0
        if "U" in phases and steady in phases and rounds_steady > rounds_u:
            per_file = max(0.0, steady_round(phases, steady, routes, rounds_u) - round_bytes)
            commit = after_per_file(phases, "committing")
            verify = after_per_file(phases, "verifying")
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
            streams = routes * RELAYCP_CHUNKS_AT_ONCE
            # The file work on the shared lanes, without the bytes' share, which the model asks
            # for beside it; only the lanes (concurrent files) share it so.
            shared_per_file = per_file
            if cpu_per_byte:
                shared_per_file = max(0.0, per_file - PROBE_FILE_BYTES * cpu_per_byte * streams
                                      / (lab.get("cores") or 2))
            if "X" in phases and "T" in phases and x_routes * x_at_once < routes * RELAYCP_CHUNKS_AT_ONCE \
                    and rounds_x > 1:
                x_round = max(0.0, phases["X"]["copying"] - phases["T"]["copying"]) / (rounds_x - 1)
                fewer = max(0.0, x_round - round_bytes)
                # Where X's rounds were mostly its bytes crossing the WAN (each route's files
                # one after another), X measured the network, not what fewer streams pay.
                if 0 < fewer < shared_per_file and x_link_seconds < 0.8 * x_round:
                    options += ["--relaycp-concurrent-files",
                                f"{max(1.0, streams * fewer / shared_per_file):.1f}"]
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


# The probes that copy many of the probes' files over the datanode relays alone, each a
# measurement of a stream's steady cost per file: Y, and Z where the run has it.
STEADY_PROBES = ("Y", "Z")


def steady_round(phases, steady, routes, rounds_u):
    """A round's seconds with every route busy, (copying(P) - copying(U)) / (rounds(P) -
    rounds_u), for `steady` and, where `steady` is Y, for every probe of STEADY_PROBES with
    phase times: their mean. rounds_u is U's rounds over the same routes. Each measures the
    same cost, and one probe that the shared cores ran fast or slow moves a mean of two by
    half as much: Y once copied in 29.6 s where the six copies of the same Y before it took
    35.1-46.0 s, which put S's predictions 21-22% under
    (bench/results/lab-2026-11-28-spawned-probe/NOTES.md). Z, three times Y's files,
    measures it over a longer copy."""
    probes = [name for name in STEADY_PROBES if name in phases] if steady == "Y" else [steady]
    rounds = [max(0.0, phases[name]["copying"] - phases["U"]["copying"])
              / (relaycp_rounds(PROBE_FILES[name], routes, RELAYCP_CHUNKS_AT_ONCE) - rounds_u)
              for name in probes]
    return statistics.mean(rounds)


# The probes whose files outnumber U's, which each measure the driver's commit and verification
# per file beside U: the same work whatever the routes and streams.
AFTER_PROBES = ("Y", "W", "X", Y_SPAWNED, "Z", Z_SPAWNED)


def after_per_file(phases, phase):
    """The driver's seconds a file in one of its phases after the copying ("committing",
    "verifying"): (phase(P) - phase(U)) / (files(P) - files(U)) for every probe P of
    AFTER_PROBES with phase times, their median. The driver does this work alone after the
    copying, so each probe measures the same thing, and one probe slowed by other work on the
    shared cores moves a median of three little: Y alone once gave 0.0055 s a file against the
    afternoon's 0.0021, and S's prediction +17 s (bench/results/lab-2026-11-27-tls-native/
    NOTES.md). 0 without U or any other probe."""
    if "U" not in phases:
        return 0.0
    rates = [max(0.0, phases[name][phase] - phases["U"][phase]) / (PROBE_FILES[name] - U_FILES)
             for name in AFTER_PROBES if name in phases]
    return statistics.median(rates) if rates else 0.0


def plan_json(binary, arguments):
    """`relaycp plan` run with `arguments`, its JSON answer parsed; RuntimeError with the
    planner's own message when it exits non-zero."""
    res = subprocess.run([binary, "plan"] + arguments, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(res.stderr.strip())
    return json.loads(res.stdout)


def file_groups(file_sizes):
    """A dataset's COUNTxBYTES groups (run.sh's dataset_histogram) as (count, bytes) pairs."""
    return [tuple(int(n) for n in group.split("x")) for group in file_sizes.split(",")
            if "x" in group]


def expert_distcp_options(file_sizes, lab, fitted=None):
    """The planner's options for DistCp as the lab's expert run starts it (run.sh's
    run_distcp_expert): the dynamic strategy, -blocksperchunk 1 where a file of the dataset
    (COUNTxBYTES groups) spans more than one block, and where the fit kept the files' close
    waits apart, the expert's: as many files wait as in the probes, each for the expert's
    first retry (lab "expert_close_retry_ms"; HDFS's 400 ms in runs from before 2026-11-29,
    whose expert did not set it)."""
    options = ["--distcp-strategy", "dynamic"]
    if any(size > lab["block_size"] for _, size in file_groups(file_sizes)):
        options += ["--distcp-blocks-per-chunk", "1"]
    if fitted and fitted.get("close_wait_share") is not None:
        retry = lab.get("expert_close_retry_ms") or HDFS_CLOSE_RETRY_SECONDS * 1000
        options += ["--distcp-close-wait-seconds",
                    f"{fitted['close_wait_share'] * retry / 1000:.4f}"]
    return options


def distcp_options(fitted):
    """The planner's DistCp options for a fit; precise enough that calibrate_distcp's secant
    steps see the model move."""
    options = ["--distcp-job-seconds", f"{fitted['job']:.2f}",
               "--distcp-task-seconds", f"{fitted['task']:.2f}",
               "--distcp-file-seconds", f"{fitted['per_file']:.4f}",
               "--distcp-concurrent-files", f"{fitted['concurrent_files']:.3f}"]
    if fitted.get("close_wait"):
        options += ["--distcp-close-wait-seconds", f"{fitted['close_wait']:.4f}"]
    return options


def overriding(arguments, extra):
    """`arguments` then `extra`, where an option `extra` gives again is taken out of
    `arguments` with its value (the planner takes each option once). Every option in `extra`
    takes one value."""
    given = {value for value in extra if value.startswith("--")}
    kept, skip = [], False
    for value in arguments:
        if skip:
            skip = False
        elif value in given:
            skip = True
        else:
            kept.append(value)
    return kept + extra


def calibrate_distcp(binary, lab_options, distcp, slots, fitted, map_costs=None, external=None):
    """distcp_overheads solved in closed form, then corrected so that the planner's DistCp model
    itself gives the probes' seconds back. The closed form takes each file's bytes out at one
    host's WAN rate, while the model shares a node's rate among its slots and sends blocks to
    random datanodes, so it put W some 6% above what W took (2026-11-23). In turn, by the
    secant method on the model: a lone map's cost per file from V (one map), the concurrent
    files from W (every slot busy), the task start-up from U. Where the maps' own timings are
    there (`map_costs`, distcp_map_costs), the costs per file come from them instead (a lone
    map's from V's map, one with every slot busy from W's), the task start-up is the maps' own
    start when alone, and the job start-up is solved on U; until 2026-11-28 evening the task
    and job start-ups were solved on U and T, which charged every later map the first wave's
    crowded start (52.2 s where L's later maps started in 5.1 s). The files' waits for their
    close (the share of the maps' files that waited, map_costs' *_waits, times HDFS's first
    retry) are taken out of both costs per file and kept as the model's close wait, which holds
    no shared lane ("close_wait", "close_wait_share"; since 2026-11-29). Returns the corrected
    fit, or `fitted` where a probe or the planner is missing."""
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
        if map_costs and all(key in map_costs for key in ("lone", "wide", "start")):
            # The maps' own timings give the costs per file (less each file's bytes at a
            # host's WAN rate, which the model adds) and a map's start-up when it starts alone;
            # what a wave of maps starting together costs beyond that is paid once, so the
            # job's start-up, solved on U, holds it. T, with fewer maps than slots, is not
            # given back.
            bytes_seconds = PROBE_FILE_BYTES / external if external else 0.0
            # A file whose close the namenode refused first sleeps HDFS's first retry, on no
            # shared machinery: that is kept apart (the model's close wait), so the maps' work
            # alone is shared, and a DistCp run with another first retry is priced by it.
            lone_wait = wide_wait = 0.0
            if "lone_waits" in map_costs and "wide_waits" in map_costs:
                lone_wait = map_costs["lone_waits"] * HDFS_CLOSE_RETRY_SECONDS
                wide_wait = map_costs["wide_waits"] * HDFS_CLOSE_RETRY_SECONDS
                fit["close_wait_share"] = map_costs["wide_waits"]
                fit["close_wait"] = wide_wait
            lone = max(0.0, map_costs["lone"] - bytes_seconds - lone_wait)
            wide = max(0.0, map_costs["wide"] - bytes_seconds - wide_wait)
            fit["per_file"] = lone
            fit["concurrent_files"] = max(1.0, slots * lone / wide) if 0 < lone < wide else 0.0
            fit["lone_per_file"], fit["wide_per_file"] = lone, max(lone, wide)
            fit["task"] = map_costs["start"]
            solve("job", U_FILES, slots, distcp["U"], 0.0)
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


def spawned_cpu(folder, probe):
    """What a spawned relay costs the lab's shared cores, measured on the start-up probes (not
    solved for): every process's CPU seconds (the .cpu files) in the probe's dataset (Z; Y
    before 2026-11-28) over its spawned pairs less those in the dataset alone, per spawned relay
    (two a pair): its JVM's start and warm-up, its host's set-up, the driver's share, and what
    its files cost beyond a datanode relay's; and the probe's start (parse.spawned_probe's
    start_cpu), at most that. Returns {"cpu_seconds", "start_cpu_seconds", "pairs", "dataset",
    "copying_seconds_over_alone", "files_per_route"} (what the probe's spawned routes copied,
    parse.spawned_probe's), or None without both probes' CPU."""
    if probe is None:
        return None
    pairs, dataset = probe["pairs"], probe.get("dataset", "Y")
    totals = {}
    for k in (0, pairs):
        path = os.path.join(folder, "startup", f"{dataset}-relaycp-k{k}.cpu")
        if not os.path.exists(path):
            return None
        totals[k] = sum(json.load(open(path))["seconds"].values())
    per_relay = max(0.0, (totals[pairs] - totals[0]) / (2 * pairs))
    start = None if probe.get("start_cpu") is None else min(per_relay, probe["start_cpu"])
    phases = relaycp_phases(folder)
    over_alone = probe["copying"] - phases[dataset]["copying"] if dataset in phases else None
    return {"cpu_seconds": per_relay, "start_cpu_seconds": start, "pairs": pairs,
            "dataset": dataset, "copying_seconds_over_alone": over_alone,
            "files_per_route": probe.get("files_per_route")}


# The processes whose work grows with the bytes copied, as `--cpu-seconds-per-gb` counts them:
# the relays, the driver and the datanodes (not the namenodes' or YARN's daemons, whose work
# is per file and per container and which run whether bytes move or not).
BYTE_ROLES = ("relaycp-relay", "relaycp-driver", "datanode")
# The part of B's bytes over which its CPU is taken: from a quarter of them across the WAN,
# past the relays' start and warm-up, to nine tenths, before the files' completion.
B_WINDOW = (0.25, 0.9)


def byte_cpu(folder):
    """What a byte copied costs the lab's shared cores, measured on the start-up probe B (six
    64 MiB files, WAN-bound): the CPU seconds of BYTE_ROLES between the moments a quarter and
    nine tenths of B's bytes had crossed the WAN (the router's timeline), over the bytes that
    crossed meanwhile. It holds the relays' TLS, checksums and copies, the driver's share and
    the datanodes' reads and writes. Taken over B's steady window, not as B's total less T's:
    most of either total is the relays' start, which both pay, and its noise went into the
    difference (36.6 to 74.1 CPU-s per GB over the lab's five runs of 2026-11-29, against 33.4
    to 41.4 over the window). None without B's CPU and router timelines."""
    stem = os.path.join(folder, "startup", "B-relaycp-k0")
    if not os.path.exists(stem + ".cpu") or not os.path.exists(stem + ".csv"):
        return None
    cpu = json.load(open(stem + ".cpu")).get("timeline") or []
    rows = timeline(stem + ".csv")
    if len(cpu) < 2 or len(rows) < 2:
        return None
    crossed = rows[-1]["src_to_dst"] - rows[0]["src_to_dst"]
    window_bytes = (B_WINDOW[1] - B_WINDOW[0]) * crossed
    if window_bytes <= 0:
        return None
    first, last = (when_crossed(rows, fraction) for fraction in B_WINDOW)
    seconds = cpu_at(cpu, last, BYTE_ROLES) - cpu_at(cpu, first, BYTE_ROLES)
    return max(0.0, seconds) / window_bytes


# The processes whose work grows with the files DistCp copies, as
# `--distcp-cpu-seconds-per-file` counts them: its maps, the datanodes and the namenodes (not
# its application master, YARN's daemons or its client, whose work is per job and per
# container, and per second of their heartbeats).
DISTCP_FILE_ROLES = ("distcp-map", "datanode", "namenode")


def distcp_cpu_per_file(folder):
    """What a file DistCp copies costs the lab's shared cores, measured on the start-up probes
    (not solved for): DISTCP_FILE_ROLES' CPU seconds in V (one map, V_FILES files) less those
    in T (one map, one file), over the files between them. One map, so the maps' JVM starts
    cancel out; alone, so the figure is the work a file needs, not what crowding adds. None
    without both probes' CPU."""
    t, v = (_startup_cpu(folder, f"{ds}-distcp") for ds in ("T", "V"))
    if t is None or v is None:
        return None
    per_file = sum(v.get(role, 0.0) - t.get(role, 0.0) for role in DISTCP_FILE_ROLES) / (V_FILES - 1)
    return per_file if per_file > 0 else None


# The processes whose work grows with a DistCp job's seconds rather than its files, as
# `--distcp-background-cores` counts them: its application master (heartbeats for its
# containers), its client (polling the job) and YARN's daemons (scheduling, and monitoring each
# container).
DISTCP_BACKGROUND_ROLES = ("distcp-am", "distcp-client", "nodemanager", "resourcemanager")


def distcp_background_cores(folder, seconds):
    """The cores a DistCp job keeps busy beside its files while its maps copy, measured on the
    start-up probes (not solved for): DISTCP_BACKGROUND_ROLES' CPU seconds in W (every slot a
    map, W_FILES files) less those in U (as many maps, U_FILES), over the seconds W took beyond
    U (`seconds`, startup_seconds' "distcp"). As many maps in both, so the job's and the maps'
    starts cancel out and what is left is the job's work per second of copying. None without
    both probes' CPU and times, or where W did not take longer."""
    u, w = (_startup_cpu(folder, f"{ds}-distcp") for ds in ("U", "W"))
    if u is None or w is None or not seconds.get("U") or not seconds.get("W"):
        return None
    longer = seconds["W"] - seconds["U"]
    if longer <= 0:
        return None
    cores = sum(w.get(role, 0.0) - u.get(role, 0.0) for role in DISTCP_BACKGROUND_ROLES) / longer
    return cores if cores > 0 else None


def _startup_cpu(folder, stem):
    """A start-up probe's CPU seconds by role (its `startup/STEM.cpu`); None without the file."""
    path = os.path.join(folder, "startup", f"{stem}.cpu")
    if not os.path.exists(path):
        return None
    return json.load(open(path)).get("seconds") or {}


def _machine_cpu(seconds):
    """Every process's CPU seconds of a .cpu file's roles but the lab's own tools ("other")."""
    return sum(value for role, value in seconds.items() if role != "other")


def cpu_against_probes(folder, run):
    """What a relaycp copy at k = 0 of the probes' files alone (every file PROBE_FILE_BYTES)
    spent on the machine's cores against what its start-up probes imply for as many files: Y's
    CPU (every process but the lab's tools) plus Z's beyond Y's per file for the files beyond
    Y's. On the shared cores a copy of small files is held by its CPU, so a ratio above 1 is a
    copy slower than its probes priced it, whatever the model. None for other copies, or
    without the figures."""
    if run.get("tool") != "relaycp" or run.get("k") != 0 or not run.get("process_cpu"):
        return None
    files = (run.get("verify") or {}).get("files")
    if not files or (run.get("verify") or {}).get("bytes") != files * PROBE_FILE_BYTES:
        return None
    y, z = (_startup_cpu(folder, f"{ds}-relaycp-k0") for ds in ("Y", "Z"))
    if y is None or z is None:
        return None
    y, z = _machine_cpu(y), _machine_cpu(z)
    implied = y + (z - y) / (Z_FILES - Y_FILES) * (files - Y_FILES)
    spent = _machine_cpu(run["process_cpu"]["seconds"])
    return round(spent / implied, 3) if implied > 0 else None


def spawned_model_over_alone(binary, lab_options, options, pairs, files):
    """The copying seconds the relaycp model adds to the spawned probe's dataset (`files` x 64
    KiB) with `pairs` spawned pairs, given the lab's options: the probe's own measurement, told
    back by a model that did not fit it. None where the planner fails."""
    def seconds(k):
        return plan_json(binary, ["--what-if", "--json", "--file-sizes", f"{files}x{PROBE_FILE_BYTES}"]
                         + lab_options + options + ["--model", "relaycp", "--pairs", str(k)])["rows"][0]["seconds"]
    try:
        return seconds(pairs) - seconds(0)
    except RuntimeError as e:
        print(f"spawned relays' model not run: {e}", file=sys.stderr)
        return None


def predict(folder, lab, probe, runs, placements=None):
    """The planner's predicted seconds for every run, from `relaycp plan --what-if` given
    the lab's own figures: the dataset's file sizes, node counts, slots, block size, boot
    delay, and the per-host rates the cap probe measured (as `relaycp probe` would have
    recorded them), keyed by (dataset, tool, k); the DistCp fit they used; and the spawned
    relays' CPU of spawned_cpu with what the model makes of the probe (None for each without
    predictions or without the probes). placements: each dataset's recorded placement (parse.load_placement); a
    dataset without one is taken as spread evenly."""
    binary = lab.get("relaycp_bin")
    placements = placements or {}
    external, internal = probe_rate(probe, "cross-site"), probe_rate(probe, "in-site")
    startup = startup_seconds(folder)
    sizes = lab.get("file_sizes") or {}
    if not binary or not os.path.exists(binary) or not external or not internal:
        return {}, None, None
    out = {}
    slots = datanodes(lab, "src") * lab["slots_per_node"]
    probe_spawned = spawned_probe(folder, lab)
    spawned = spawned_cpu(folder, probe_spawned)
    # A spawned relay serves after its host's boot delay and, on these shared cores, once its
    # JVM has done its start's CPU (the model's --relaycp-spawned-start-cpu-seconds). A probe
    # from before that figure was recorded counts its measured start instead.
    boot = lab["boot_delay_s"]
    if not spawned or spawned["start_cpu_seconds"] is None:
        boot += spawned_start_seconds(probe_spawned)
    lab_options = ["--source-nodes", str(datanodes(lab, "src")),
                   "--destination-nodes", str(datanodes(lab, "dst")),
                   "--replication", str(lab["replication"]),
                   "--internal", f"{internal:.3f}MB/s", "--external", f"{external:.3f}MB/s",
                   "--boot-seconds", f"{boot:.1f}",
                   "--block-size", str(lab["block_size"]), "--chunk-size", str(lab["block_size"]),
                   "--distcp-slots-per-node", str(lab["slots_per_node"])]
    distcp = startup.get("distcp", {})
    fit = calibrate_distcp(binary, lab_options, distcp, slots,
                           distcp_overheads(distcp, slots, external * 1e6),
                           distcp_map_costs(folder), external * 1e6)
    phases = relaycp_phases(folder)
    per_byte = byte_cpu(folder)
    options = overhead_options(startup, lab, phases, external * 1e6, fit, per_byte)
    # Relays that YARN starts for each copy (the lab's default): without the probes the
    # planner's own start-up then counts the containers' start; a start measured on T
    # (--relaycp-start-seconds) already holds it and is taken as given.
    if lab.get("relays") == "yarn":
        options += ["--relays", "yarn"]
    distcp_cpu = distcp_cpu_per_file(folder)
    cores = lab.get("cores") or 2
    # Half the cores or more is no job's background but a probe gone wrong (a JVM's start
    # counted in W alone): not used.
    background = distcp_background_cores(folder, distcp) if distcp_cpu else None
    if background is not None and background >= cores / 2:
        background = None
    if fit is not None and distcp_cpu:
        fit = dict(fit, cpu_per_file=distcp_cpu, background_cores=background)
    if spawned or per_byte or distcp_cpu:
        options += ["--shared-cores", str(cores)]
    if distcp_cpu:
        options += ["--distcp-cpu-seconds-per-file", f"{distcp_cpu:.4f}"]
    if background:
        options += ["--distcp-background-cores", f"{background:.3f}"]
    if per_byte:
        options += ["--cpu-seconds-per-gb", f"{per_byte * 1e9:.1f}"]
    if spawned:
        options += ["--relaycp-spawned-cpu-seconds", f"{spawned['cpu_seconds']:.2f}",
                    "--relaycp-spawned-start-cpu-seconds", f"{spawned['start_cpu_seconds'] or 0:.2f}"]
        # The probe's spawned relays warmed up on the files their routes copied; a copy with
        # fewer files a route pays that share of the warm-up.
        if spawned.get("files_per_route"):
            options += ["--relaycp-spawned-cpu-files", f"{spawned['files_per_route']:.0f}"]
        spawned["start_seconds"] = (None if spawned["start_cpu_seconds"] is not None
                                    else round(spawned_start_seconds(probe_spawned), 2))
        spawned["model_seconds_over_alone"] = spawned_model_over_alone(
            binary, lab_options + ["--distcp-maps", str(slots)], options, spawned["pairs"],
            probe_spawned["files"])
    for ds in sorted({r["dataset"] for r in runs}):
        if not sizes.get(ds):
            continue
        ks = sorted({r["k"] for r in runs if r["dataset"] == ds and r["tool"] == "relaycp"})
        # Where the dataset's bytes were, from its blocks (the probes' were written evenly).
        total = sum(count * size for count, size in file_groups(sizes[ds]))
        common = ["--what-if", "--json", "--file-sizes", sizes[ds]] + lab_options + [
                  "--distcp-maps", str(slots),
                  "--placement", placement_option(placements.get(ds), total)]
        common += options
        tools = {r["tool"] for r in runs if r["dataset"] == ds}
        variants = [("relaycp", "relaycp", f"0-{max(ks)}" if ks else "0", []),
                    ("distcp", "distcp", "0", [])]
        if "distcp-expert" in tools:
            variants.append(("distcp-expert", "distcp", "0",
                             expert_distcp_options(sizes[ds], lab, fit)))
        for tool, model, pairs, extra in variants:
            arguments = overriding(common, extra) + ["--model", model, "--pairs", pairs]
            shown = " ".join(["plan"] + arguments)
            try:
                plan = plan_json(binary, arguments)
            except RuntimeError as e:
                print(f"prediction failed ({binary} {shown}): {e}", file=sys.stderr)
                continue
            if model == "distcp":
                out[(ds, tool, 0)] = {"seconds": plan["distcpSeconds"], "command": "relaycp " + shown}
            else:
                for row in plan["rows"]:
                    out[(ds, "relaycp", row["pairs"])] = {"seconds": row["seconds"], "command": "relaycp " + shown}
    return out, fit, spawned
