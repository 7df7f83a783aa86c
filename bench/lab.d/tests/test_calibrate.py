import json
import math

import pytest

from labreport import calibrate, output, parse


def test_a_round_gives_each_route_one_chunk_and_more_only_while_more_wait_than_routes():
    assert calibrate.relaycp_rounds(3, 3, 16) == 1
    # Four files on three routes: three in the first round; the fourth waits, as no more
    # files wait than there are routes.
    assert calibrate.relaycp_rounds(4, 3, 16) == 2
    # 480 files fill all 48 chunks at once for nine rounds; in the tenth the last three are
    # held back (no more wait than there are routes) and take an eleventh.
    assert calibrate.relaycp_rounds(480, 3, 16) == 11
    assert calibrate.relaycp_rounds(0, 3, 16) == 0


def test_distcp_costs_are_solved_in_closed_form_from_the_committed_probes(committed):
    results = committed("lab-2026-11-23-pm")
    probes = results["startup_seconds"]["distcp"]
    lab = results["lab"]
    slots = lab["datanodes_per_site"] * lab["slots_per_node"]

    fit = calibrate.distcp_overheads(probes, slots)

    lone = (probes["V"] - probes["T"]) / (calibrate.V_FILES - 1)
    per_map_u = math.ceil(calibrate.U_FILES / slots)
    per_map_w = math.ceil(calibrate.W_FILES / slots)
    wide = (probes["W"] - probes["U"]) / (per_map_w - per_map_u)
    assert lone < wide
    assert fit["per_file"] == pytest.approx(lone)
    assert fit["concurrent_files"] == pytest.approx(slots * lone / wide)
    assert fit["job"] == pytest.approx(probes["T"] - calibrate.DISTCP_TASK_SECONDS - lone)
    assert fit["task"] == pytest.approx(probes["U"] - fit["job"] - per_map_u * wide)


def test_each_file_s_bytes_are_taken_out_of_the_distcp_costs(committed):
    results = committed("lab-2026-11-23-pm")
    probes = results["startup_seconds"]["distcp"]
    slots = 6
    external = 5e6

    without = calibrate.distcp_overheads(probes, slots)
    with_bytes = calibrate.distcp_overheads(probes, slots, external)

    bytes_seconds = calibrate.PROBE_FILE_BYTES / external
    assert with_bytes["lone_per_file"] == pytest.approx(without["lone_per_file"] - bytes_seconds)
    assert with_bytes["wide_per_file"] == pytest.approx(without["wide_per_file"] - bytes_seconds)
    assert calibrate.distcp_overheads({"U": 1.0}, slots) is None


# The DistCp probes' seconds and the closed-form fit the two maps-timed fits below start from.
PROBE_SECONDS = {"T": 31.9, "U": 74.1, "V": 76.0, "W": 129.5}
CLOSED_FORM = {"job": 0.0, "task": 1.0, "per_file": 0.3, "concurrent_files": 0.0,
               "lone_per_file": 0.3, "wide_per_file": 0.3}


def one_wave_planner(binary, arguments):
    """A stand-in for the planner's DistCp model: the job's start-up, one wave of maps each
    paying the task's start-up, then its files, each its cost per file and its close wait."""
    value = {arguments[i]: arguments[i + 1] for i in range(len(arguments) - 1)
             if arguments[i].startswith("--")}
    files = int(value["--file-sizes"].split("x")[0])
    maps = int(value["--distcp-maps"])
    per_file = (float(value["--distcp-file-seconds"])
                + float(value.get("--distcp-close-wait-seconds", 0)))
    return {"distcpSeconds": float(value["--distcp-job-seconds"])
            + float(value["--distcp-task-seconds"]) + math.ceil(files / maps) * per_file}


def test_with_the_maps_starts_the_task_is_a_lone_start_and_the_job_is_solved_on_u(monkeypatch):
    monkeypatch.setattr(calibrate, "plan_json", one_wave_planner)

    fit = calibrate.calibrate_distcp("relaycp", [], PROBE_SECONDS, 6, CLOSED_FORM,
                                     {"lone": 0.33, "wide": 0.33, "start": 6.4})

    assert fit["task"] == 6.4
    # U, 50 files a map: 74.1 = job + 6.4 + 50 x 0.33.
    assert fit["job"] == pytest.approx(74.1 - 6.4 - 50 * 0.33, abs=0.06)


def test_the_files_close_waits_are_kept_apart_and_the_expert_waits_its_own_first_retry(monkeypatch):
    monkeypatch.setattr(calibrate, "plan_json", one_wave_planner)
    # Half of V's files and 60% of W's waited HDFS's 400 ms for their close.
    fit = calibrate.calibrate_distcp("relaycp", [], PROBE_SECONDS, 6, CLOSED_FORM,
                                     {"lone": 0.30, "wide": 0.36, "start": 6.4,
                                      "lone_waits": 0.5, "wide_waits": 0.6})

    assert fit["per_file"] == pytest.approx(0.30 - 0.5 * 0.4)
    assert fit["close_wait"] == pytest.approx(0.6 * 0.4)
    # The maps' work: 0.10 s a file alone, 0.12 with every slot busy: 6 x 0.10 / 0.12 at once.
    assert fit["concurrent_files"] == pytest.approx(5.0)
    assert "--distcp-close-wait-seconds" in calibrate.distcp_options(fit)
    lab = {"block_size": 33554432, "expert_close_retry_ms": 25}
    assert calibrate.expert_distcp_options("5000x65536", lab, fit) == [
        "--distcp-strategy", "dynamic", "--distcp-close-wait-seconds", "0.0150"]
    # A run from before the expert set its retry waited HDFS's.
    assert calibrate.expert_distcp_options("5000x65536", {"block_size": 33554432}, fit)[-1] == "0.2400"


def test_an_option_given_again_replaces_the_first_with_its_value():
    assert calibrate.overriding(["--a", "1", "--b", "2", "--what-if"], ["--b", "3"]) == [
        "--a", "1", "--what-if", "--b", "3"]


def test_relaycp_options_from_wall_times_give_its_start_up_and_cost_per_file(committed):
    results = committed("lab-2026-11-23-pm")
    startup, lab = results["startup_seconds"], results["lab"]
    relaycp = startup["relaycp"]

    options = calibrate.overhead_options({"relaycp": relaycp}, lab)

    routes = lab["datanodes_per_site"]
    rounds_u = calibrate.relaycp_rounds(calibrate.U_FILES, routes, calibrate.RELAYCP_CHUNKS_AT_ONCE)
    rounds_w = calibrate.relaycp_rounds(calibrate.W_FILES, routes, calibrate.RELAYCP_CHUNKS_AT_ONCE)
    per_file = (relaycp["W"] - relaycp["U"]) / (rounds_w - rounds_u)
    assert options == ["--relaycp-start-seconds", f"{relaycp['T'] - per_file:.1f}",
                       "--relaycp-file-seconds", f"{per_file:.3f}"]


def test_without_the_planner_there_are_no_predictions(tmp_path):
    lab = {"relaycp_bin": str(tmp_path / "no-relaycp"), "datanodes_per_site": 3, "slots_per_node": 2}

    assert calibrate.predict(str(tmp_path), lab, [], []) == ({}, None, None)
    fitted = {"job": 1.0}
    assert calibrate.calibrate_distcp(None, [], {"T": 1.0}, 6, fitted) is fitted


def test_the_committed_targets_follow_from_the_committed_runs(committed):
    for name in ("lab-2026-11-23-pm", "lab-2026-11-24-full-yarn"):
        results = committed(name)

        targets = output.target_checks(results["runs"])

        assert [{"target": text, "met": met} for text, met in targets] == results["targets"]


def _probe_cpu(folder, k, seconds):
    startup = folder / "startup"
    startup.mkdir(exist_ok=True)
    (startup / f"Y-relaycp-k{k}.cpu").write_text(json.dumps({"seconds": seconds}))


def test_a_spawned_relays_cpu_is_measured_on_the_probes_not_solved_for(tmp_path):
    # Y alone: 120 CPU-s on the machine; over two spawned pairs 168: 12 more per spawned relay,
    # of which the probe's start, 3.05, comes before it serves; a start above that is cut to it.
    _probe_cpu(tmp_path, 0, {"relaycp-relay": 60.0, "datanode": 20.0, "other": 40.0})
    _probe_cpu(tmp_path, 2, {"relaycp-relay": 96.0, "datanode": 20.0, "other": 52.0})
    (tmp_path / "startup" / "Y-relaycp-k0.out").write_text(json.dumps({"phaseSeconds": {"copying": 45.5}}))
    spawned = calibrate.spawned_cpu(str(tmp_path), {"pairs": 2, "copying": 67.0, "start_cpu": 3.05})
    assert spawned["cpu_seconds"] == pytest.approx(12.0)
    assert spawned["start_cpu_seconds"] == pytest.approx(3.05)
    assert spawned["copying_seconds_over_alone"] == pytest.approx(21.5)
    assert spawned["dataset"] == "Y"
    too_long = calibrate.spawned_cpu(str(tmp_path), {"pairs": 2, "copying": 67.0, "start_cpu": 15.0})
    assert too_long["start_cpu_seconds"] == pytest.approx(12.0)


def test_a_probe_without_the_starts_or_its_cpu_gives_what_it_has(tmp_path):
    # A probe from before the starts were recorded: no start; the machine spent less with the
    # spawned pairs than without (noise): nothing. Without Y alone's CPU: None.
    _probe_cpu(tmp_path, 0, {"relaycp-relay": 60.0})
    _probe_cpu(tmp_path, 1, {"relaycp-relay": 59.0})
    spawned = calibrate.spawned_cpu(str(tmp_path), {"pairs": 1, "copying": 50.0, "start_cpu": None})
    assert spawned["cpu_seconds"] == 0.0 and spawned["start_cpu_seconds"] is None
    assert spawned["copying_seconds_over_alone"] is None
    (tmp_path / "startup" / "Y-relaycp-k0.cpu").unlink()
    assert calibrate.spawned_cpu(str(tmp_path), {"pairs": 1, "copying": 50.0}) is None
    assert calibrate.spawned_cpu(str(tmp_path), None) is None


def test_a_spawned_probe_on_z_is_priced_against_z_alone_not_y(tmp_path):
    # Y alone and Z alone ran at very different totals; the probe over Z's pairs is priced
    # against Z's: (150 - 130) / 4 spawned relays.
    _probe_cpu(tmp_path, 0, {"relaycp-relay": 60.0})
    startup = tmp_path / "startup"
    (startup / "Z-relaycp-k0.cpu").write_text(json.dumps({"seconds": {"relaycp-relay": 130.0}}))
    (startup / "Z-relaycp-k2.cpu").write_text(json.dumps({"seconds": {"relaycp-relay": 150.0}}))
    (startup / "Z-relaycp-k0.out").write_text(json.dumps({"phaseSeconds": {"copying": 120.0}}))
    spawned = calibrate.spawned_cpu(str(tmp_path), {"dataset": "Z", "pairs": 2, "copying": 131.0,
                                                    "start_cpu": 4.4})
    assert spawned["cpu_seconds"] == pytest.approx(5.0)
    assert spawned["start_cpu_seconds"] == pytest.approx(4.4)
    assert spawned["copying_seconds_over_alone"] == pytest.approx(11.0)
    assert spawned["dataset"] == "Z"


def test_distcps_cpu_a_file_is_v_less_t_over_the_maps_datanodes_and_namenodes(tmp_path):
    # T (one file) and V (300 files), one map each: (20 + 6 + 4) - (8 + 1 + 0.5) over the 299
    # files between them. The application master, YARN's daemons and the client are not
    # counted: their work is per job and per second, not per file.
    _cpu(tmp_path, "T-distcp", {"distcp-map": 8.0, "datanode": 1.0, "namenode": 0.5,
                                "distcp-am": 9.0, "nodemanager": 3.0})
    _cpu(tmp_path, "V-distcp", {"distcp-map": 20.0, "datanode": 6.0, "namenode": 4.0,
                                "distcp-am": 13.0, "nodemanager": 3.2})
    assert calibrate.distcp_cpu_per_file(str(tmp_path)) == pytest.approx(20.5 / 299)
    _cpu(tmp_path, "V-distcp", {"distcp-map": 7.0, "datanode": 1.0, "namenode": 0.5})
    assert calibrate.distcp_cpu_per_file(str(tmp_path)) is None
    (tmp_path / "startup" / "T-distcp.cpu").unlink()
    assert calibrate.distcp_cpu_per_file(str(tmp_path)) is None


def test_distcps_background_cores_are_w_less_u_over_the_seconds_between_them(tmp_path):
    # U (300 files) and W (1,200), as many maps each: the application master, the client and
    # YARN's daemons spent (11 + 7 + 5 + 4.5) - (9 + 5 + 3 + 2) = 8.5 CPU-s more over the 50 s
    # W took beyond U. The maps, datanodes and namenodes are not counted: theirs is per file.
    _cpu(tmp_path, "U-distcp", {"distcp-am": 9.0, "distcp-client": 5.0, "nodemanager": 3.0,
                                "resourcemanager": 2.0, "distcp-map": 36.0, "datanode": 3.0})
    _cpu(tmp_path, "W-distcp", {"distcp-am": 11.0, "distcp-client": 7.0, "nodemanager": 5.0,
                                "resourcemanager": 4.5, "distcp-map": 68.0, "datanode": 13.0})
    seconds = {"T": 20.0, "U": 40.0, "V": 80.0, "W": 90.0}
    assert calibrate.distcp_background_cores(str(tmp_path), seconds) == pytest.approx(8.5 / 50)
    assert calibrate.distcp_background_cores(str(tmp_path), dict(seconds, W=40.0)) is None
    assert calibrate.distcp_background_cores(str(tmp_path), {"U": 40.0}) is None
    (tmp_path / "startup" / "U-distcp.cpu").unlink()
    assert calibrate.distcp_background_cores(str(tmp_path), seconds) is None


def _cpu(folder, name, seconds, timeline=None):
    startup = folder / "startup"
    startup.mkdir(exist_ok=True)
    (startup / f"{name}.cpu").write_text(
        json.dumps({"seconds": seconds, "timeline": timeline or []}))


def _router(folder, name, crossed):
    """The router's timeline of a probe: (t, bytes crossed src -> dst so far) a row each."""
    rows = ["t,src_to_dst,dst_to_src,cpu_busy,cpu_total"]
    rows += [f"{t},{1000 + b},0,0,0" for t, b in crossed]
    (folder / "startup" / f"{name}.csv").write_text("\n".join(rows) + "\n")


def test_a_bytes_cpu_is_taken_over_bs_steady_window_from_the_processes_that_move_bytes(tmp_path):
    # B's 400 MB cross at 10 MB/s from t = 10 to 50; its relays start at a burst of 20 CPU-s
    # before the bytes, then every role spends a steady rate. The window runs from 100 MB
    # (t = 20) to 360 MB (t = 46): relays 0.3, datanodes 0.1 and the driver 0.05 CPU-s a
    # second count; the namenode's and YARN's and the lab's own tools' do not.
    rates = {"relaycp-relay": 0.3, "datanode": 0.1, "relaycp-driver": 0.05,
             "namenode": 0.5, "resourcemanager": 0.5, "nodemanager": 0.5, "other": 1.0}
    timeline = [[t, {role: (20.0 if role == "relaycp-relay" and t >= 5 else 0.0) + rate * t
                     for role, rate in rates.items()}] for t in range(0, 61)]
    _cpu(tmp_path, "B-relaycp-k0", {}, timeline)
    crossed = [(t / 4, int(max(0, min(400e6, (t / 4 - 10) * 10e6)))) for t in range(0, 241)]
    _router(tmp_path, "B-relaycp-k0", crossed)
    assert calibrate.byte_cpu(str(tmp_path)) == pytest.approx(0.45 * 26 / 260e6, rel=0.02)
    (tmp_path / "startup" / "B-relaycp-k0.csv").unlink()
    assert calibrate.byte_cpu(str(tmp_path)) is None


def test_with_a_bytes_cpu_the_steady_cost_per_file_is_taken_without_its_bytes():
    # Three routes of 16 streams on two cores; Y's steady rounds give F, X's fewer streams f.
    lab = {"datanodes_per_site": 3, "slots_per_node": 2, "cores": 2, "x_chunks_in_flight": 4}
    phases = {ds: {"copying": seconds, "committing": 0.0, "verifying": 0.0}
              for ds, seconds in (("T", 2.0), ("U", 6.0), ("Y", 40.0), ("X", 30.0))}
    startup = {"relaycp": {"T": 10.0, "U": 14.0, "Y": 48.0, "X": 38.0}}
    cpu_per_byte = 80e-9

    def option(options, name):
        return float(options[options.index(name) + 1])

    without = calibrate.overhead_options(startup, lab, phases)
    with_bytes = calibrate.overhead_options(startup, lab, phases, cpu_per_byte=cpu_per_byte)

    streams = 3 * calibrate.RELAYCP_CHUNKS_AT_ONCE
    rounds = [calibrate.relaycp_rounds(files, 3, calibrate.RELAYCP_CHUNKS_AT_ONCE)
              for files in (calibrate.U_FILES, parse.Y_FILES)]
    steady = (40.0 - 6.0) / (rounds[1] - rounds[0])
    f = option(without, "--relaycp-file-seconds")
    assert option(with_bytes, "--relaycp-file-seconds") == f
    assert option(without, "--relaycp-concurrent-files") == pytest.approx(streams * f / steady, abs=0.05)
    bytes_share = calibrate.PROBE_FILE_BYTES * cpu_per_byte * streams / 2
    assert option(with_bytes, "--relaycp-concurrent-files") == pytest.approx(
        streams * f / (steady - bytes_share), abs=0.05)


def test_without_concurrent_files_the_steady_cost_per_file_keeps_its_bytes():
    # X as slow a file as Y: the streams do not share the file work, the model has no lanes,
    # and the bytes' CPU is only its cap, so F stays as Y measured it.
    lab = {"datanodes_per_site": 3, "slots_per_node": 2, "cores": 2, "x_chunks_in_flight": 4}
    rounds_x = calibrate.relaycp_rounds(calibrate.X_FILES, 3, 4)
    rounds = [calibrate.relaycp_rounds(files, 3, calibrate.RELAYCP_CHUNKS_AT_ONCE)
              for files in (calibrate.U_FILES, parse.Y_FILES)]
    steady = (40.0 - 6.0) / (rounds[1] - rounds[0])
    x_copying = 2.0 + 2 * steady * (rounds_x - 1)
    phases = {ds: {"copying": seconds, "committing": 0.0, "verifying": 0.0}
              for ds, seconds in (("T", 2.0), ("U", 6.0), ("Y", 40.0), ("X", x_copying))}
    startup = {"relaycp": {"T": 10.0, "U": 14.0, "Y": 48.0, "X": 10.0 + x_copying}}

    with_bytes = calibrate.overhead_options(startup, lab, phases, cpu_per_byte=80e-9)

    assert "--relaycp-concurrent-files" not in with_bytes
    file_seconds = float(with_bytes[with_bytes.index("--relaycp-file-seconds") + 1])
    assert file_seconds == pytest.approx(steady, abs=0.001)


def _phases_out(folder, name, committing, verifying):
    startup = folder / "startup"
    startup.mkdir(exist_ok=True)
    (startup / f"{name}.out").write_text(json.dumps({"phaseSeconds": {
        "copying": 10.0, "committing": committing, "verifying": verifying}}))


def test_commit_and_verification_a_file_are_the_median_of_the_probes_so_one_slow_probe_moves_them_little(tmp_path):
    # U: 300 files; Y and the spawned probe 3,000, X 1,200. Y ran beside other work and took
    # three times as long to commit and verify as the other two say.
    _phases_out(tmp_path, "U-relaycp-k0", 1.0, 2.0)
    _phases_out(tmp_path, "X-relaycp-k0", 1.0 + 900 * 0.002, 2.0 + 900 * 0.001)
    _phases_out(tmp_path, "Y-relaycp-k0", 1.0 + 2700 * 0.006, 2.0 + 2700 * 0.003)
    _phases_out(tmp_path, "Y-relaycp-k2", 1.0 + 2700 * 0.0021, 2.0 + 2700 * 0.0011)
    phases = calibrate.relaycp_phases(str(tmp_path))
    assert set(phases) == {"U", "X", "Y", calibrate.Y_SPAWNED}

    assert calibrate.after_per_file(phases, "committing") == pytest.approx(0.0021)
    assert calibrate.after_per_file(phases, "verifying") == pytest.approx(0.0011)
    # Y alone gives what it measured; without U there is nothing to subtract, and no cost.
    only_y = {name: phases[name] for name in ("U", "Y")}
    assert calibrate.after_per_file(only_y, "committing") == pytest.approx(0.006)
    assert calibrate.after_per_file({"Y": phases["Y"]}, "committing") == 0.0


def test_the_steady_cost_per_file_is_the_mean_of_y_and_z_alone_where_the_run_has_z():
    # Three routes; Y copied its 3,000 files at one round a second, Z alone its 9,000 at 1.5 s
    # a round. Z over the spawned pairs is not a steady probe of the datanode relays.
    routes, at_once = 3, calibrate.RELAYCP_CHUNKS_AT_ONCE
    rounds = {name: calibrate.relaycp_rounds(files, routes, at_once)
              for name, files in parse.PROBE_FILES.items() if name in ("U", "Y", "Z")}
    phases = {"U": {"copying": 6.0},
              "Y": {"copying": 6.0 + 1.0 * (rounds["Y"] - rounds["U"])},
              "Z": {"copying": 6.0 + 1.5 * (rounds["Z"] - rounds["U"])},
              parse.Z_SPAWNED: {"copying": 1000.0}}

    assert calibrate.steady_round(phases, "Y", routes, rounds["U"]) == pytest.approx(1.25)
    without_z = {name: phases[name] for name in ("U", "Y")}
    assert calibrate.steady_round(without_z, "Y", routes, rounds["U"]) == pytest.approx(1.0)


def _recording_planner(tmp_path):
    """A stand-in for `relaycp plan` that answers every call with the same JSON and appends its
    arguments, one call a line, to calls.txt."""
    calls = tmp_path / "calls.txt"
    planner = tmp_path / "relaycp"
    planner.write_text("#!/bin/sh\n"
                       f"echo \"$*\" >> '{calls}'\n"
                       "echo '{\"distcpSeconds\": 1.0, \"rows\": [{\"pairs\": 0, \"seconds\": 1.0}]}'\n")
    planner.chmod(0o755)
    return planner, calls


@pytest.mark.parametrize("relays, told", [("yarn", True), ("hand", False)])
def test_an_uncalibrated_relaycp_prediction_counts_the_relay_containers_start_where_yarn_starts_them(
        tmp_path, relays, told):
    planner, calls = _recording_planner(tmp_path)
    lab = {"relaycp_bin": str(planner), "datanodes_per_site": 1, "slots_per_node": 2,
           "replication": 1, "block_size": 33554432, "boot_delay_s": 20.0, "relays": relays,
           "file_sizes": {"Q": "4x16777216"}}
    probe = [{"kind": "cross-site", "mbit_per_s": 38.0}, {"kind": "in-site", "mbit_per_s": 370.0}]
    runs = [{"dataset": "Q", "tool": "relaycp", "k": 0}, {"dataset": "Q", "tool": "distcp", "k": 0}]

    predicted, _, _ = calibrate.predict(str(tmp_path), lab, probe, runs)

    assert predicted[("Q", "relaycp", 0)]["seconds"] == 1.0
    relaycp_calls = [line.split() for line in calls.read_text().splitlines()
                     if "--model relaycp" in line]
    assert relaycp_calls
    for arguments in relaycp_calls:
        assert ("yarn" in arguments and arguments[arguments.index("yarn") - 1] == "--relays") == told


def test_a_small_file_copy_at_k0_is_set_against_the_cpu_its_probes_imply(tmp_path):
    # Y: 60 CPU-s for 3,000 files; Z: 180 for 9,000, so 0.02 a file beyond Y's. 5,000 files
    # imply 60 + 2,000 x 0.02 = 100 CPU-s; the copy spent 105 (its "other" not counted).
    _cpu(tmp_path, "Y-relaycp-k0", {"relaycp-relay": 40.0, "datanode": 20.0, "other": 9.0})
    _cpu(tmp_path, "Z-relaycp-k0", {"relaycp-relay": 120.0, "datanode": 60.0})
    run = {"tool": "relaycp", "k": 0,
           "verify": {"files": 5000, "bytes": 5000 * calibrate.PROBE_FILE_BYTES},
           "process_cpu": {"seconds": {"relaycp-relay": 70.0, "namenode": 35.0, "other": 3.0}}}

    assert calibrate.cpu_against_probes(str(tmp_path), run) == pytest.approx(1.05)
    assert calibrate.cpu_against_probes(str(tmp_path), dict(run, k=2)) is None
    large = dict(run, verify={"files": 8, "bytes": 8 * 268435456})
    assert calibrate.cpu_against_probes(str(tmp_path), large) is None
    (tmp_path / "startup" / "Z-relaycp-k0.cpu").unlink()
    assert calibrate.cpu_against_probes(str(tmp_path), run) is None
