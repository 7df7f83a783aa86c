import json
import os
import sys
import pytest

from labreport import output, parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import process_cpu  # noqa: E402


def test_roles_come_from_the_command_line():
    assert process_cpu.role("java -cp x dev.relaycp.cli.Main relay --port 0") == "relaycp-relay"
    assert process_cpu.role("java -Xmx384m dev.relaycp.cli.RelayContainerMain"
                            " hdfs://nn/s/relays hdfs://nn/s/heartbeat") == "relaycp-relay"
    assert process_cpu.role("java dev.relaycp.bench.BenchMain relay --port 7070") == "relaycp-relay"
    assert process_cpu.role("java dev.relaycp.bench.BenchMain copy hdfs://a hdfs://b") == "relaycp-driver"
    assert process_cpu.role("java dev.relaycp.cli.Main relay-pool --pool-file /l/p.json"
                            " --for 12h") == "relaycp-pool"
    assert process_cpu.role("java org.apache.hadoop.mapred.YarnChild 10.0.0.1") == "distcp-map"
    assert process_cpu.role("java org.apache.hadoop.hdfs.server.datanode.DataNode") == "datanode"
    assert process_cpu.role("iperf3 -s") == "other"


def test_a_namespace_that_appears_after_the_first_sample_counts_its_processes_from_their_start():
    # This test's own network namespace stands for a spawned host's, made during the copy:
    # absent at the first sample, present at the next.
    own = os.stat("/proc/self/ns/net").st_ino
    looks = iter([set(), {own}])
    rounds = iter([True, False])

    first, seen, _ = process_cpu.watch(lambda: next(looks), 0.0, lambda: next(rounds))

    mine = [key for key in seen if key[0] == str(os.getpid())]
    assert mine and first[mine[0]] == 0 and seen[mine[0]] > 0


def test_a_runs_tool_cpu_is_its_own_processes_per_gb_and_per_thousand_files(tmp_path):
    cpu = tmp_path / "L-relaycp-k0.cpu"
    cpu.write_text(json.dumps({"seconds": {"relaycp-relay": 30.0, "relaycp-driver": 10.0,
                                           "datanode": 50.0}}))
    run = {"tool": "relaycp", "verify": {"bytes": 2_000_000_000, "files": 8}}

    found = parse.process_cpu(run, str(cpu))

    assert found["tool_seconds"] == 40.0
    assert found["per_gb"] == 20.0
    assert found["per_1000_files"] == 5000.0
    table = "\n".join(output.cpu_markdown([{"dataset": "L", "tool": "relaycp", "k": 0,
                                             "process_cpu": found}]))
    assert "| L | relaycp | 0 | 30.0 | 10.0 |" in table
    assert parse.process_cpu(run, str(tmp_path / "missing.cpu")) is None


def test_the_steady_figures_are_the_tools_cpu_while_the_middle_of_the_copy_crossed(tmp_path):
    # 10 MB of 10 files crossing at 1 MB/s from t = 100 to 110: the steady window is 101-109.
    # The relays spend 5 CPU-s starting (to t = 101), then 1 CPU-s a second; the datanodes'
    # CPU is not the tool's.
    (tmp_path / "S-relaycp-k0.csv").write_text(
        "t,src_to_dst,dst_to_src,cpu_busy,cpu_total\n"
        + "".join(f"{100 + t},{t * 1_000_000},0,{10 * t},{40 * t}\n" for t in range(11)))
    timeline = [[99.0, {"datanode": 0.0}], [101.0, {"relaycp-relay": 5.0, "datanode": 1.0}]]
    timeline += [[100.0 + t, {"relaycp-relay": 5.0 + (t - 1), "relaycp-driver": 0.0,
                              "datanode": 7.0 * t}] for t in range(2, 12)]
    (tmp_path / "S-relaycp-k0.cpu").write_text(json.dumps(
        {"seconds": {"relaycp-relay": 15.0, "relaycp-driver": 0.0, "datanode": 77.0},
         "timeline": timeline}))
    run = {"dataset": "S", "tool": "relaycp", "k": 0, "wall_seconds": 10.0, "senders": 1,
           "receivers": 1, "verify": {"bytes": 10_000_000, "files": 10}}

    cpu = parse.analyse(run, {"v_e_mbit": 8, "datanodes_per_site": 1},
                        str(tmp_path / "S-relaycp-k0.csv"), {})["process_cpu"]

    assert cpu["per_1000_files"] == 1500.0
    assert cpu["steady_tool_seconds"] == 8.0
    assert cpu["steady_per_gb"] == 1000.0
    assert cpu["steady_per_1000_files"] == 1000.0
    table = "\n".join(output.cpu_markdown([dict(run, process_cpu=cpu)]))
    assert table.splitlines()[-1].endswith("| 1500.0 | 1000.0 | 1000.0 |")


def test_a_run_without_a_cpu_timeline_has_no_steady_figures(tmp_path):
    (tmp_path / "S-relaycp-k0.csv").write_text(
        "t,src_to_dst,dst_to_src,cpu_busy,cpu_total\n"
        + "".join(f"{100 + t},{t * 1_000_000},0,{10 * t},{40 * t}\n" for t in range(11)))
    (tmp_path / "S-relaycp-k0.cpu").write_text(json.dumps({"seconds": {"relaycp-relay": 15.0}}))
    run = {"dataset": "S", "tool": "relaycp", "k": 0, "wall_seconds": 10.0, "senders": 1,
           "receivers": 1, "verify": {"bytes": 10_000_000, "files": 10}}

    cpu = parse.analyse(run, {"v_e_mbit": 8, "datanodes_per_site": 1},
                        str(tmp_path / "S-relaycp-k0.csv"), {})["process_cpu"]

    assert cpu["per_1000_files"] == 1500.0
    assert "steady_per_1000_files" not in cpu


def test_the_cpu_figures_are_not_taken_for_runs(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "lab.json").write_text("{}")
    (tmp_path / "runs" / "L-relaycp-k0.json").write_text(json.dumps({"dataset": "L"}))
    (tmp_path / "runs" / "L-relaycp-k0.cpu").write_text(json.dumps({"seconds": {}}))

    _, _, runs = parse.load_folder(str(tmp_path))

    assert [run for _, run in runs] == [{"dataset": "L"}]


def test_the_timeline_has_each_samples_totals_so_far(tmp_path):
    own = os.stat("/proc/self/ns/net").st_ino
    rounds = iter([True, True, False])
    timeline = []
    hz = os.sysconf("SC_CLK_TCK")

    def burn():
        deadline = os.times().user + 0.05
        while os.times().user < deadline:
            pass

    def on_sample(first, seen, roles):
        timeline.append(process_cpu.totals(first, seen, roles, hz))
        burn()

    process_cpu.watch(lambda: {own}, 0.0, lambda: next(rounds), on_sample)

    assert len(timeline) == 3
    mine = [entry.get("other", 0.0) for entry in timeline]
    assert mine[0] == 0.0 and mine[1] > 0.0 and mine[2] >= mine[1]


def test_first_seconds_sums_each_roles_cpu_up_to_the_last_sample_in_the_window():
    import first_seconds_cpu
    run = {"started_at": 100.0}
    cpu = {"timeline": [[100.2, {"nodemanager": 0.0, "relaycp-relay": 0.0}],
                        [105.0, {"nodemanager": 2.0, "relaycp-relay": 1.0}],
                        [110.1, {"nodemanager": 3.5, "relaycp-relay": 4.0}],
                        [116.0, {"nodemanager": 9.0, "relaycp-relay": 9.0}]]}

    used, covered = first_seconds_cpu.first_seconds(run, cpu, 15)

    assert used == {"nodemanager": 3.5, "relaycp-relay": 4.0}
    assert covered == 10.1
    assert first_seconds_cpu.first_seconds(run, {"seconds": {}}, 15) is None


def test_cpu_timeline_gives_each_roles_cpu_per_second_of_the_start(tmp_path):
    import cpu_timeline
    run = tmp_path / "L-relaycp-k0.json"
    run.write_text(json.dumps({"started_at": 100.0}))
    (tmp_path / "L-relaycp-k0.cpu").write_text(json.dumps({"timeline": [
        [100.0, {"relaycp-driver": 0.0}],
        [100.5, {"relaycp-driver": 0.4}],
        [101.0, {"relaycp-driver": 0.9}],
        [102.0, {"relaycp-driver": 1.4, "relaycp-relay": 1.5}],
        [120.0, {"relaycp-driver": 9.0, "relaycp-relay": 9.0}]]}))

    roles, rows = cpu_timeline.timeline(str(run), 16)

    assert roles == ["relaycp-driver", "relaycp-relay"]
    assert [t for t, _ in rows] == [1.0, 2.0]
    assert rows[0][1] == pytest.approx([0.9, 0.0])
    assert rows[1][1] == pytest.approx([0.5, 1.5])


def test_a_launcher_that_execs_a_relay_counts_as_the_relay_once_it_has(tmp_path):
    import subprocess
    import time
    # As bin/relaycp: a script whose own command line names no role, which then execs one.
    script = tmp_path / "launch"
    script.write_text("sleep 0.4\nexec python3 -c 'import time; time.sleep(5)' "
                      "dev.relaycp.bench.BenchMain relay --port 0\n")
    launcher = subprocess.Popen(["sh", str(script)])
    try:
        own = os.stat("/proc/self/ns/net").st_ino
        first, seen, roles = {}, {}, {}
        process_cpu.sample({own}, first, seen, roles, False)
        before = [r for k, r in roles.items() if k[0] == str(launcher.pid)]
        time.sleep(1.0)
        process_cpu.sample({own}, first, seen, roles, False)
        after = [r for k, r in roles.items() if k[0] == str(launcher.pid)]
    finally:
        launcher.kill()
        launcher.wait()

    assert before == ["other"]
    assert after == ["relaycp-relay"]
