"""Turns one lab run folder (bench/results/lab-<date>/) into results.json, results.md
and PNG charts. Input: lab.json, probe.json, runs/<dataset>-<tool>[-k<k>].json with
the sampler's .csv beside each (and, from runs that sampled them, each host's link in
.links-src.csv and .links-dst.csv), and the start-up probes in startup/.

    python3 bench/lab.d/report.py RUN_DIR

Run it with the lab's virtualenv (bench/lab.d/venv.sh), which has the pinned matplotlib of
bench/lab.d/requirements.txt. The work is in labreport/: parse (reading the folder and
analysing each copy), calibrate (the planner's models fitted to the start-up probes, and its
predictions) and output (checks, results.json, results.md, charts). Exits 1 when a check
failed."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from labreport import calibrate, output, parse  # noqa: E402


def main(folder):
    lab, probe, raw = parse.load_folder(folder)
    placements = {ds: parse.load_placement(folder, lab, ds) for ds in {run["dataset"] for _, run in raw}}
    predictions, distcp_fit, spawned = calibrate.predict(
        folder, lab, probe, [run for _, run in raw if "status" not in run], placements)
    runs = [parse.analyse(run, lab, path[:-5] + ".csv", predictions, placements[run["dataset"]])
            for path, run in raw]
    for run in runs:
        ratio = calibrate.cpu_against_probes(folder, run)
        if ratio is not None:
            run["cpu_against_probes"] = ratio
    series = {f'{r["dataset"]}-{r["tool"]}-k{r["k"]}': r.pop("_series", None) for r in runs}
    checks = output.checks(probe, runs)
    hand = parse.hand_relays_run(folder)
    targets = output.target_checks(runs, hand)
    results = output.results_document(lab, probe, runs, parse.startup_seconds(folder), spawned,
                                      checks, targets, hand)
    startup_steal = parse.startup_steal(folder)
    results["startup_cpu_steal_pct"] = startup_steal
    per_byte = calibrate.byte_cpu(folder)
    results["cpu_seconds_per_gb"] = None if per_byte is None else round(per_byte * 1e9, 2)
    # Each dataset's share of bytes per set of holders (absent: no record, taken as even).
    results["placement"] = {ds: {"+".join(hosts): round(share, 4) for hosts, share in p.items()}
                            for ds, p in placements.items() if p}
    json.dump(results, open(os.path.join(folder, "results.json"), "w"), indent=2)
    markdown = output.results_markdown(folder, lab, probe, runs, checks, targets, distcp_fit,
                                       spawned, placements, per_byte, startup_steal)
    open(os.path.join(folder, "results.md"), "w").write(markdown)
    output.draw_charts(folder, lab, runs, series)
    failed = output.print_summary(open(os.path.join(folder, "results.md")).read(), checks, targets)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
