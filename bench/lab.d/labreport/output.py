"""The report of a lab run: the checks and the issue's targets, results.json, results.md and
the charts. matplotlib comes from the lab's virtualenv (bench/lab.d/requirements.txt)."""
import json
import os

from .calibrate import distcp_overheads
from .links import FULL
from .parse import (datanodes, placement_text, probe_rate, spawned_probe_unusable, startup_seconds,
                    warm_up_text)


def load_matplotlib():
    """matplotlib with the Agg backend; the lab installs it (bench/lab.d/requirements.txt)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def target_checks(runs, hand=None):
    """The issue's performance targets, for the runs present: relaycp against DistCp on the
    same dataset in the same lab run, the fraction of the limit, prediction errors, and L at
    k = 0 over YARN's relays against relays started before the copy (hand), when the run has
    that copy."""
    targets = []
    yarn_l0 = [r for r in runs if r["tool"] == "relaycp" and r["dataset"] == "L" and r["k"] == 0
               and "status" not in r and r.get("wall_seconds")
               and (r.get("relaycp_summary") or {}).get("provisioner") == "yarn"]
    if hand and hand.get("wall_seconds") and yarn_l0:
        yarn, by_hand = yarn_l0[0]["wall_seconds"], hand["wall_seconds"]
        over = 100.0 * (yarn / by_hand - 1)
        # The wall time holds the containers' start, which relays started by hand paid before
        # the clock: say how the copying phases compare and what the start took.
        phases = (yarn_l0[0].get("relaycp_summary") or {}).get("phaseSeconds") or {}
        apart = ""
        if phases.get("copying") and hand.get("copying_seconds"):
            copying = phases["copying"]
            apart = (f"; copying {copying:.1f} s against {hand['copying_seconds']:.1f} s "
                     f"({100.0 * (copying / hand['copying_seconds'] - 1):+.1f}%)")
            if phases.get("relays") is not None:
                apart += f", after the containers' start of {phases['relays']:.1f} s"
        targets.append((f"L relaycp k=0 with YARN relays within 5% of relays started by hand: "
                        f"{yarn:.1f} s against {by_hand:.1f} s ({over:+.1f}%){apart}",
                        over <= 5 and hand.get("exit_code") == 0 and hand.get("verified")))
    ok_runs = [r for r in runs if "status" not in r and r.get("mb_per_s")]
    # relaycp is held to the faster DistCp of the run: with its defaults or as an expert runs it.
    distcp = {}
    for r in ok_runs:
        if r["tool"] in ("distcp", "distcp-expert"):
            best = distcp.get(r["dataset"])
            if best is None or r["mb_per_s"] > best["mb_per_s"]:
                distcp[r["dataset"]] = r
    for r in ok_runs:
        if r["tool"] != "relaycp" or r["dataset"] not in distcp:
            continue
        ratio = r["mb_per_s"] / distcp[r["dataset"]]["mb_per_s"]
        against = "DistCp's" if distcp[r["dataset"]]["tool"] == "distcp" else "expert DistCp's"
        if r["dataset"] == "L" and r["k"] == 0:
            targets.append((f"L relaycp k=0 at least 0.9x {against} MB/s: {ratio:.2f}x", ratio >= 0.9))
        if r["dataset"] == "L" and r["k"] == 6:
            targets.append((f"L relaycp k=6 at least 2.5x {against} MB/s: {ratio:.2f}x", ratio >= 2.5))
            frac = r.get("fraction_of_limit") or 0
            targets.append((f"L relaycp k=6 at least 90% of the physical limit in steady state: "
                            f"{100 * frac:.0f}%", frac >= 0.9))
        if r["dataset"] == "S":
            targets.append((f"S relaycp k={r['k']} at least 3x {against} MB/s: {ratio:.2f}x", ratio >= 3))
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


def checks(probe, runs):
    """The lab's own checks: each cap within its bounds, each copy exited 0 and verified."""
    found = []
    for p in probe:
        ratio = p["mbit_per_s"] / p["cap_mbit"]
        if "cross-site" in p["kind"]:
            found.append((f"cap {p['kind']} {p['from']}->{p['to']}: {p['mbit_per_s']} Mbit/s within 10% of v_e",
                           0.9 <= ratio <= 1.1))
        else:
            found.append((f"cap in-site {p['from']}->{p['to']}: {p['mbit_per_s']} Mbit/s at least 80% of v_i",
                           0.8 <= ratio <= 1.1))
    for r in runs:
        if "status" in r:
            continue
        ok = r.get("exit_code") == 0 and (r.get("verify") or {}).get("ok") is True
        found.append((f"{r['dataset']} {r['tool']} k={r['k']}: exit 0 and verified", ok))
    return found


def results_document(lab, probe, runs, startup, spawned, checks_found, targets, hand=None):
    """results.json's content."""
    results = {"lab": lab, "probe": probe, "runs": runs, "startup_seconds": startup,
               "hand_relays_L_k0": hand,
               "spawned_cpu": ({key: spawned[key] for key in
                                ("cpu_seconds", "start_cpu_seconds", "pairs", "dataset",
                                 "copying_seconds_over_alone", "model_seconds_over_alone",
                                 "start_seconds", "files_per_route")
                                if key in spawned} if spawned else None),
               "checks": [{"check": c, "passed": ok} for c, ok in checks_found],
               "targets": [{"target": c, "met": ok} for c, ok in targets],
               "units": {"MB": "10^6 bytes", "caps": "Mbit/s on the wire"}}
    return results



# A share of stolen CPU time worth naming copy by copy.
STEAL_NAMED_PCT = 1.0


def steal_text(runs, startup):
    """One paragraph on the CPU time the hypervisor gave to other machines while the copies and
    the start-up probes ran (None where no timeline records it): it slows every process and
    raises its CPU seconds alike, so a copy or a probe that ran under it is not comparable
    with one that did not."""
    copies = [(f"{r['dataset']} {r['tool']} k={r['k']}", r["cpu_steal_pct"])
              for r in runs if r.get("cpu_steal_pct") is not None]
    probes = sorted(startup.items())
    parts = []
    for what, items in (("the copies", copies), ("the start-up probes", probes)):
        if not items:
            continue
        worst = max(items, key=lambda item: item[1])
        named = [f"{name} {fmt(pct)}%" for name, pct in items
                 if pct >= STEAL_NAMED_PCT and name != worst[0]]
        parts.append(f"{what} at most {fmt(worst[1])}% ({worst[0]})"
                     + (f", {STEAL_NAMED_PCT:g}% or more also in {', '.join(named)}" if named else ""))
    if not parts:
        return None
    return ("CPU time the hypervisor gave to other machines (steal, /proc/stat), which slows every "
            "process here and raises its CPU seconds alike: " + "; ".join(parts) + ".")


def cpu_against_probes_text(runs):
    """One sentence on the copies calibrate.cpu_against_probes measured (None without any): on
    these shared cores their seconds follow their CPU, so a copy that spent more than its probes
    imply came out slower than its prediction."""
    ratios = [f"{r['dataset']} {fmt(r['cpu_against_probes'], 2)}x" for r in runs
              if r.get("cpu_against_probes") is not None]
    if not ratios:
        return None
    return ("relaycp at k = 0 on files of the probes' size spent, against the CPU that the "
            "start-up probes Y and Z imply for as many files (every process but the lab's tools): "
            + ", ".join(ratios) + ". On the shared cores such a copy's seconds follow its CPU: "
            "above 1 it runs slower than its probes priced it, below 1 faster.")


CPU_ROLES = ("relaycp-relay", "relaycp-driver", "relaycp-pool", "distcp-client", "distcp-am", "distcp-map",
             "namenode", "datanode", "nodemanager", "resourcemanager", "other")


def cpu_markdown(runs):
    """The CPU seconds each run's processes used, by role (process_cpu.py), and the tool's own
    per GB and per 1,000 files; nothing when no run has the figures."""
    rows = []
    for r in runs:
        cpu = r.get("process_cpu")
        if not cpu:
            continue
        seconds = cpu["seconds"]
        rows.append("| " + " | ".join(
            [r["dataset"], r["tool"], str(r["k"])] + [fmt(seconds.get(role)) for role in CPU_ROLES]
            + [fmt(cpu.get("tool_seconds")), fmt(cpu.get("per_gb")), fmt(cpu.get("per_1000_files")),
               fmt(cpu.get("steady_per_gb")), fmt(cpu.get("steady_per_1000_files"))])
            + " |")
    if not rows:
        return []
    return ["", "## CPU seconds by process", "",
            "Sampled from /proc every 0.5 s in every lab namespace (bench/lab.d/process_cpu.py), "
            "from the copy's start; a process that ended loses at most its last half second. "
            "The tool's own: relaycp's relays, driver and relay pool (relaycp-pool, the "
            "ApplicationMasters of relays kept for many copies, where a run used one), or "
            "DistCp's client, application master and maps. Steady: the tool's own CPU while "
            "the copy's 10% to 90% of bytes crossed the WAN (the window of steady MB/s), per GB "
            "and per 1,000 files of what crossed in it (files in proportion to bytes): a file's "
            "cost once started and warm, without the fixed cost of the copy's start.", "",
            "| dataset | tool | k | " + " | ".join(CPU_ROLES) + " | tool's own | per GB | per 1,000 files"
            " | steady per GB | steady per 1,000 files |",
            "|" + "---|" * (len(CPU_ROLES) + 8)] + rows


def link_text(name, rate, share, cap, full=None):
    """One measured link: "dst-dn1 in 9.12 MB/s, 91% of v_i, full 60% of the time". Against v_e
    both figures are upper bounds ("at most"), since a port counts in-site bytes too; a port
    above v_e carried in-site bytes, and says so rather than bound nothing."""
    if share is None:
        return f"{name} {rate:.2f} MB/s"
    if cap == "v_e" and share > 1:
        return f"{name} {rate:.2f} MB/s, above v_e: in-site bytes too, its WAN share not known"
    bound = "at most " if cap == "v_e" else ""
    text = f"{name} {rate:.2f} MB/s, {bound}{100 * share:.0f}% of {cap}"
    return text if full is None else f"{text}, full {bound}{100 * full:.0f}% of the time"


def seconds_range(epochs, started):
    """Epoch times as 'a-b' seconds after `started` (one figure if they agree), or '–'."""
    if not epochs or started is None:
        return "–"
    low, high = min(epochs) - started, max(epochs) - started
    return fmt(low) if round(low, 1) == round(high, 1) else f"{fmt(low)}-{fmt(high)}"


def relays_markdown(runs):
    """relaycp's relays: containers, their start, the spawned hosts' and relays' timeline."""
    rows = []
    for r in runs:
        summary = r.get("relaycp_summary") or {}
        if r["tool"] != "relaycp" or not summary:
            continue
        started = summary.get("relaysStarted") or {}
        joined = [route.get("joinedSeconds") for route in summary.get("routeRates") or []
                  if route.get("joinedSeconds") is not None]
        rows.append("| " + " | ".join([
            r["dataset"], str(r["k"]), summary.get("provisioner", "static"),
            f"{started.get('src', '–')} / {started.get('dst', '–')}",
            fmt((summary.get("phaseSeconds") or {}).get("relays")),
            seconds_range(list((r.get("spawned_up_at") or {}).values()), r.get("started_at")),
            seconds_range(list((r.get("spawned_listening_at") or {}).values()),
                          r.get("started_at")),
            fmt(max(joined) if joined else None),
            fmt(summary.get("localReadFraction"), 3), str(summary.get("routesDropped", "–"))]) + " |")
    if not rows:
        return []
    return ["", "## relaycp's relays", "",
            "Containers started (src / dst) and their start-up: the first pair is relaycp's"
            " `relays` phase, from the end of the listing until one relay of each site had"
            " announced itself, when the copy starts. Spawned hosts up: when their boot delay"
            " ended and they joined their site; spawned relays listening: when each spawned"
            " relay's JVM had started and listened (seen four times a second); the last route"
            " joined: when the driver had both relays of the last pair answering, all in seconds"
            " after the copy began (listing included), the copy running meanwhile on the routes"
            " already up. The copy's seconds above include them. Local reads: the share of bytes"
            " a relay read on a datanode holding them.", "",
            "| dataset | k | provisioner | containers | first pair s | spawned hosts up s |"
            " spawned relays listening s | last route joined s | local reads | routes dropped |",
            "|---|---|---|---|---|---|---|---|---|---|"] + rows


def links_markdown(runs):
    """Each copy's links over its steady window (labreport/links.py): the links that bound its
    limit as measured, and the fullest; nothing when no run sampled its links."""
    rows = []
    for r in runs:
        used = r.get("links")
        if not used:
            continue
        bound = []
        for link in used["bound"]:
            host, _, kind = link["link"].partition(": ")
            way = "in" if kind.startswith(("link in", "from")) else "out"
            cap = "v_e" if "of_v_e" in link else "v_i"
            bound.append(link_text(f"{host} {way}", link["mb_per_s"], link.get(f"of_{cap}"), cap,
                                   link.get("time_full")))
        busiest = []
        for link in used["busiest"]:
            cap = "v_i" if "of_v_i" in link else "v_e"
            busiest.append(link_text(link["link"], link["mb_per_s"], link.get(f"of_{cap}"), cap,
                                     link.get("time_full")))
        rows.append(f"| {r['dataset']} | {r['tool']} | {r['k']} | {'; '.join(bound) or '–'} | "
                    f"{'; '.join(busiest)} |")
    if not rows:
        return []
    return ["", "## Links in the steady window", "",
            "Each host's bytes in and out at its port on its site's bridge, sampled every 0.25 s "
            "(bench/lab.d/links.py; `runs/*.links-src.csv`, `*.links-dst.csv`), over the same "
            "window as steady MB/s: the links that bound the copy's physical limit, as measured, "
            "and the fullest links of any host, by their share of v_i; each with the share of the "
            f"window's seconds in which it carried at least {100 * FULL:.0f}% of its cap (full). A port counts "
            "in-site and WAN bytes together, so against v_e (the cap of the WAN part) both figures "
            "are upper bounds, and a port above v_e says only that it carried in-site bytes too. "
            "Every host's figures are in results.json (`links`).", "",
            "| dataset | tool | k | the limit's links, measured | fullest links |",
            "|---|---|---|---|---|"] + rows


def bound_links(links):
    """flow.py's links, one phrase per kind of link: "src-dn1, src-dn2: to the other site"."""
    hosts = {}
    for link in links:
        host, _, kind = link.partition(": ")
        hosts.setdefault(kind, []).append(host)
    return "; ".join(f"{', '.join(names)}: {kind}" for kind, names in hosts.items())


def results_markdown(folder, lab, probe, runs, checks_found, targets, distcp_fit, spawned,
                     placements=None, cpu_per_byte=None, startup_steal=None):
    """results.md's text; placements as calibrate.predict takes them, startup_steal as
    parse.startup_steal gives it."""
    placements = placements or {}
    md = [f"# WAN lab results ({os.path.basename(folder)})", "",
          f"v_i = {lab['v_i_mbit']} Mbit/s, v_e = {lab['v_e_mbit']} Mbit/s per host; "
          f"{datanodes(lab, 'src')} source and {datanodes(lab, 'dst')} destination datanodes; "
          f"{lab['slots_per_node']} map slots per NodeManager; "
          f"replication {lab['replication']}; boot delay {lab['boot_delay_s']} s; {lab['cores']} cores. "
          "MB = 10^6 bytes. The physical limit is the maximum flow over the hosts' links (each link's v_i "
          "shared by in-site and WAN traffic, v_e on the WAN part; the bytes where each dataset's blocks "
          "were, below; replicas crossing the destination's links; labreport/flow.py), on the wire "
          "(TCP/IP headers take about 5% of it, so ~95% is the payload ceiling); the links that bound it "
          "are listed under the table. "
          "'limit MB/s' counts every host of the run; 'steady limit' averages it over the steady window "
          "(middle 80% of the bytes), counting a spawned host only once its boot delay has passed, and "
          "'fraction' is the steady MB/s over the steady limit.",
          "", "## Where the bytes were", "",
          f"Written from {'src-dn1 alone' if lab.get('write_from') == 'one' else 'every source datanode'}; "
          "each datanode's share of each dataset's bytes, from its blocks' locations "
          "(`placement/`; a block with several replicas counts on each):", ""]
    for ds in sorted({r["dataset"] for r in runs}):
        md.append(f"- {ds}: {placement_text(placements.get(ds), lab)}")
    md += ["", "## Caps (iperf3)", "", "| kind | from | to | Mbit/s | cap | % of cap |", "|---|---|---|---|---|---|"]
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
    steal = steal_text(runs, startup_steal or {})
    if steal:
        md += ["", steal]
    against = cpu_against_probes_text(runs)
    if against:
        md += ["", against]
    bounds = [f"- {r['dataset']} {r['tool']} k={r['k']}: {fmt(r['physical_limit_mb_per_s'], 2)} MB/s, "
              f"bound by {bound_links(r['limit_bound_by'])}"
              for r in runs if "status" not in r and r.get("limit_bound_by")]
    if bounds:
        md += ["", "What bounds each copy's physical limit (a minimum cut of the flow):", ""] + bounds
    md += relays_markdown(runs)
    md += links_markdown(runs)
    md += cpu_markdown(runs)
    md += ["", "## Checks", ""] + [f"- {'PASS' if ok else 'FAIL'} {c}" for c, ok in checks_found]
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
        d, datanodes(lab, "src") * lab["slots_per_node"], external * 1e6 if external else None)
    if fitted:
        md += [f"DistCp solved from them: job start-up {fmt(fitted['job'])} s, task start-up "
               f"{fmt(fitted['task'])} s, a lone map's cost per file {fmt(fitted['lone_per_file'], 3)} s, "
               f"a map's with every slot busy {fmt(fitted['wide_per_file'], 3)} s, so "
               f"{fmt(fitted['concurrent_files'], 2)} concurrent files (0: no limit)."
               + (f" Measured, not solved for: a file cost its maps, datanodes and namenodes "
                  f"{fmt(fitted['cpu_per_file'], 4)} CPU-s (V less T, one map each), so on the "
                  f"{lab.get('cores', 2)} shared cores the maps copy no faster than that allows "
                  "(`--distcp-cpu-seconds-per-file`)." if fitted.get("cpu_per_file") else "")
               + (f" Its application master, client and YARN's daemons kept "
                  f"{fmt(fitted['background_cores'], 3)} cores busy while the maps copied (W less "
                  "U, over the seconds between them), which the files do not get "
                  "(`--distcp-background-cores`)." if fitted.get("background_cores") else ""), ""]
    if spawned:
        start = spawned.get("start_cpu_seconds")
        over, model = spawned.get("copying_seconds_over_alone"), spawned.get("model_seconds_over_alone")
        ds = spawned.get("dataset", "Y")
        md += [f"relaycp copied {ds} again over {spawned['pairs']} spawned pairs that joined at once "
               f"(`startup/{ds}-relaycp-k{spawned['pairs']}.*`). Every process on the machine spent "
               f"{fmt(spawned['cpu_seconds'], 1)} CPU-s more per spawned relay than in {ds} alone: a fresh "
               f"JVM (`{lab.get('spawned_java_opts', '')}`) and its host on the {lab.get('cores', 2)} "
               "cores every other relay and daemon uses (`--shared-cores`, "
               "`--relaycp-spawned-cpu-seconds`)"
               + (f", {fmt(start, 2)} CPU-s of it before a relay listened "
                  "(`--relaycp-spawned-start-cpu-seconds`); every prediction counts a spawned relay "
                  "from its boot delay and that start on the shared cores." if start is not None else
                  f"; its relays served {spawned['start_seconds']:.1f} s after their hosts were "
                  "attached, which every prediction adds to the boot delay (the probe predates the "
                  "start's CPU being recorded).")
               + (f" Measured, not fitted: {ds}'s copying took {over:+.1f} s with them, and the model "
                  f"so priced gives {model:+.1f} s." if over is not None and model is not None else ""),
               ""]
    elif (why := spawned_probe_unusable(folder, lab)):
        md += [f"**What a spawned relay costs the shared cores is not measured:** {why}. Every "
               "prediction with spawned pairs counts a spawned relay's CPU as free and its start "
               "as its boot delay alone.", ""]
    if cpu_per_byte:
        md += [f"A byte copied cost the {lab.get('cores', 2)} shared cores "
               f"{fmt(cpu_per_byte * 1e9, 1)} CPU-s per GB: the relays', driver's and datanodes' CPU "
               "while B's six 64 MiB files went from a quarter to nine tenths across the WAN "
               "(`startup/B-relaycp-k0.*`), over the bytes that crossed meanwhile "
               "(`--cpu-seconds-per-gb`); relaycp's per-file cost is taken without its bytes' "
               "share.", ""]
    md += [f"- `{c}`" for c in commands]
    md += ["",
           "", "Charts: `time_vs_k.png` (seconds against spawned pairs k, DistCp as a line), "
           "`timeline-<dataset>.png` (MB/s crossing the WAN, sampled at the router every 0.25 s)"
           + (", `predicted_vs_measured.png`" if any(r.get("predicted_seconds") for r in runs) else "") + ".", ""]
    return "\n".join(md)


def draw_charts(folder, lab, runs, series):
    """time_vs_k.png, timeline-<dataset>.png and, with predictions, predicted_vs_measured.png."""
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
                ax.axhline(r["wall_seconds"], color="C3", label=f"DistCp (-m {datanodes(lab, 'src') * lab['slots_per_node']})")
            if r["dataset"] == ds and r["tool"] == "distcp-expert" and r.get("wall_seconds"):
                ax.axhline(r["wall_seconds"], color="C4", ls="--", label="DistCp as an expert runs it")
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
        for tool, m in (("distcp", "s"), ("distcp-expert", "^"), ("relaycp", "o")):
            sel = [r for r in pr if r["tool"] == tool]
            ax.scatter([r["wall_seconds"] for r in sel], [r["predicted_seconds"] for r in sel], marker=m, label=tool)
        top = max(max(r["wall_seconds"], r["predicted_seconds"]) for r in pr) * 1.1
        ax.plot([0, top], [0, top], "k:")
        ax.set_xlabel("measured seconds")
        ax.set_ylabel("predicted seconds")
        ax.legend()
        fig.savefig(os.path.join(folder, "predicted_vs_measured.png"), dpi=110)
        plt.close(fig)


def print_summary(markdown, checks_found, targets):
    """The report on standard output; returns the number of failed checks."""
    print(markdown)
    for c, ok in checks_found:
        print(("PASS " if ok else "FAIL ") + c)
    failed = sum(1 for _, ok in checks_found if not ok)
    for c, ok in targets:
        print(("MET    " if ok else "MISSED ") + c)
    print(f"lab: {len(checks_found) - failed} passed, {failed} failed")
    return failed
