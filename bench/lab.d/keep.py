#!/usr/bin/env python3
"""Copies the summary of a WAN lab run into bench/results/: what a person reads and what later
runs compare against (results.md, results.json, the charts, NOTES.md), never the raw logs.
results.json keeps every figure but the per-file verification lists, which only repeat that
each file's checksum matched (their count and the verdict stay). Everything else the run
wrote (lab.json, probe.txt/json, cleanup.txt, the tools' .out/.err, the sampled .csv, the
hosts' link samples .links-src.csv and .links-dst.csv, whose figures over each copy's
steady window results.json keeps under `links`, iperf3's JSON, the start-up probes' runs) is
packed into target/lab-raw/<name>.tar.gz, which report.py can be run on again once unpacked
and git never sees.

    bench/lab.d/keep.py RUN_DIR bench/results/lab-<date>[-name]
"""
import json
import shutil
import sys
import tarfile
from pathlib import Path

# lab.json and probe.json are inside results.json ("lab", "probe"); probe.txt is in results.md.
SUMMARY = ("results.md", "results-as-run.md", "NOTES.md", "cleanup.txt")
RAW = Path(__file__).resolve().parent.parent.parent / "target" / "lab-raw"


def strip(results):
    for run in results.get("runs", []):
        summary = run.get("relaycp_summary")
        if isinstance(summary, dict) and isinstance(summary.get("verification"), list):
            files = summary.pop("verification")
            summary["verifiedFiles"] = sum(1 for f in files if f.get("verified"))
    return results


def keep(run_dir, destination):
    destination.mkdir(parents=True, exist_ok=True)
    kept = []
    for name in SUMMARY:
        if (run_dir / name).is_file():
            shutil.copy2(run_dir / name, destination / name)
            kept.append(name)
    for chart in sorted(run_dir.glob("*.png")):
        shutil.copy2(chart, destination / chart.name)
        kept.append(chart.name)
    if (run_dir / "results.json").is_file():
        results = strip(json.loads((run_dir / "results.json").read_text()))
        (destination / "results.json").write_text(json.dumps(results, indent=1) + "\n")
        kept.append("results.json")
    return kept


def pack(run_dir, name):
    """The whole run folder as target/lab-raw/<name>.tar.gz; returns the tarball's path."""
    RAW.mkdir(parents=True, exist_ok=True)
    tarball = RAW / f"{name}.tar.gz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(run_dir, arcname=name)
    return tarball


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    names = keep(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"kept {len(names)} files in {sys.argv[2]}: {', '.join(names)}")
    print(f"raw logs packed in {pack(Path(sys.argv[1]), Path(sys.argv[2]).name)}")
