"""Per-map timings of one DistCp job, from its containers' logs in the lab.

    python3 maps.py LAB_DIR DISTCP_STDERR > OUT.txt

Finds the job's id in DistCp's stderr ("Running job: job_<cluster>_<n>"), reads every map
container's syslog under LAB_DIR/hosts/*/nm-logs/application_<cluster>_<n>/, and prints one
line per map: its host, files copied, seconds from the container's first log line to its first
copy, seconds copying, seconds per file, how many files took 0.3 s or more, and the seconds per
file over the first and the second half of its files (whether a map gets faster as its JVM
warms up: in the lab only over its first 25 files or so; the report reads the first five
columns and the waits). Those are
mostly the HDFS client's completeFile back-off: a file's close waits 400 ms (then 800, ...)
whenever the destination datanode has not yet reported the block to its namenode, so a small
file's cost is bimodal, ~0.05 s or ~0.45 s, and a map's cost per file follows the share that
wait.
"""
import datetime
import glob
import os
import re
import sys


def timestamp(line):
    return datetime.datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()


def main(lab_dir, stderr_path):
    match = re.search(r"Running job: job_(\d+_\d+)", open(stderr_path, errors="replace").read())
    if not match:
        print(f"no job id in {stderr_path}")
        return 0
    app = "application_" + match.group(1)
    print(f"# {app}: per map (AM containers have no copies)")
    print(f"{'container':<40} {'host':<9} {'files':>6} {'start s':>8} {'copying s':>10} "
          f"{'s/file':>7} {'waits':>6} {'1st half':>8} {'2nd half':>8}")
    total_files = total_waits = 0
    for path in sorted(glob.glob(os.path.join(lab_dir, "hosts", "*", "nm-logs", app, "*", "syslog"))):
        host = path.split(os.sep)[-5]
        lines = [line for line in open(path, errors="replace") if line[:2] == "20"]
        copies = [timestamp(line) for line in lines if "CopyMapper: Copying" in line]
        if not lines or not copies:
            continue
        gaps = [b - a for a, b in zip(copies, copies[1:])]
        waits = sum(1 for gap in gaps if gap >= 0.3)
        total_files += len(copies)
        total_waits += waits
        per_file = (copies[-1] - copies[0]) / max(1, len(gaps))
        half = len(gaps) // 2
        first = sum(gaps[:half]) / half if half else per_file
        second = sum(gaps[half:]) / (len(gaps) - half) if gaps else per_file
        print(f"{path.split(os.sep)[-2]:<40} {host:<9} {len(copies):>6} "
              f"{copies[0] - timestamp(lines[0]):>8.1f} {copies[-1] - copies[0]:>10.1f} "
              f"{per_file:>7.3f} {waits:>6} {first:>8.3f} {second:>8.3f}")
    if total_files:
        print(f"# {total_files} entries copied; {total_waits} took 0.3 s or more "
              f"({100 * total_waits / total_files:.0f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
