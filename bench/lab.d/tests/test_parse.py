import json

import pytest

from labreport import parse

LAB = {"v_e_mbit": 8, "datanodes_per_site": 1}


def write_timeline(path, rows):
    path.write_text("t,src_to_dst,dst_to_src,cpu_busy,cpu_total\n"
                    + "".join(f"{t},{sent},0,{busy},{total}\n" for t, sent, busy, total in rows))


def test_a_copy_at_the_cap_is_network_bound_over_its_steady_window(tmp_path):
    # 10 MB crossing at 1 MB/s for 10 s, on a 1 MB/s cap (8 Mbit/s, one host a side).
    timeline = tmp_path / "L-relaycp-k0.csv"
    write_timeline(timeline, [(100 + t, t * 1_000_000, 10 * t, 40 * t) for t in range(11)])
    run = {"dataset": "L", "tool": "relaycp", "k": 0, "wall_seconds": 10.0, "senders": 1,
           "receivers": 1, "verify": {"bytes": 10_000_000}}

    out = parse.analyse(run, LAB, str(timeline), {("L", "relaycp", 0): {"seconds": 11.0, "command": "plan"}})

    assert out["physical_limit_mb_per_s"] == 1.0
    assert out["mb_per_s"] == 1.0
    assert out["steady_window_s"] == [1.0, 9.0]
    assert out["steady_mb_per_s"] == 1.0
    assert out["fraction_of_limit"] == 1.0
    assert out["cpu_busy_pct"] == 25.0
    assert out["bound"] == "network-bound"
    assert out["predicted_seconds"] == 11.0
    assert out["prediction_error_pct"] == 10.0
    assert out["_series"][0] == (1.0, 1.0)


def test_a_copy_without_its_timeline_keeps_its_record_and_limit(tmp_path):
    run = {"dataset": "S", "tool": "distcp", "k": 0, "wall_seconds": 5.0, "senders": 2, "receivers": 3}

    out = parse.analyse(run, LAB, str(tmp_path / "missing.csv"), {})

    assert out == dict(run, physical_limit_mb_per_s=2.0, limit_bound_by=[
        "src-dn1: to the other site (v_e)", "src-sp1: to the other site (v_e)"])


def test_a_spawned_host_counts_toward_the_limit_once_it_is_up():
    run = {"spawned_up_at": {"src-sp1": 50.0, "dst-sp1": 60.0}}

    assert parse.limit_at(run, LAB, 55.0) == 1.0
    assert parse.limit_at(run, LAB, 60.0) == 2.0
    assert parse.hosts_up(run, LAB, "src", 49.9) == 1


def test_a_replaced_spawned_host_does_not_count_twice():
    run = {"senders": 2, "receivers": 2,
           "spawned_up_at": {"src-sp1": 50.0, "dst-sp1": 50.0, "src-sp2": 70.0, "dst-sp2": 70.0}}

    assert parse.hosts_up(run, LAB, "src", 80.0) == 2
    assert parse.limit_at(run, LAB, 80.0) == 2.0


def test_in_site_links_bound_the_limit_where_the_lab_records_them():
    lab = {"v_e_mbit": 8, "v_i_mbit": 8, "datanodes_per_site": 1, "replication": 1}

    # One datanode and two spawned readers: every byte leaves the datanode over its one link,
    # which carries 1 MB/s in all, to the other site or to the spawned readers.
    assert parse.flow_limit(lab, 3, 3) == (1.0, ["src-dn1: link out (v_i)"])


def write_placement(folder, dataset, groups):
    (folder / "placement").mkdir(exist_ok=True)
    (folder / "placement" / f"{dataset}.json").write_text(json.dumps(
        {"groups": [{"holders": holders, "bytes": size} for holders, size in groups]}))


def test_a_recorded_placement_names_the_holders_by_their_lab_address(tmp_path):
    lab = {"v_e_mbit": 8, "datanodes_per_site": 3}
    write_placement(tmp_path, "L", [(["10.77.1.11"], 300), (["10.77.1.12", "10.77.1.13"], 100)])

    placement = parse.load_placement(tmp_path, lab, "L")

    assert placement == {("src-dn1",): 0.75, ("src-dn2", "src-dn3"): 0.25}
    assert parse.placement_text(placement, lab) == "dn1 75%, dn2 25%, dn3 25%"
    assert parse.placement_option(placement, 4000) == "1=3000B,2+3=1000B"
    assert parse.load_placement(tmp_path, lab, "S") is None
    assert parse.placement_option(None, 4000) == "even"


def test_a_holder_outside_the_source_datanodes_is_an_error(tmp_path):
    write_placement(tmp_path, "L", [(["10.77.1.14"], 300)])

    with pytest.raises(ValueError, match="not one of the 3 source datanodes"):
        parse.load_placement(tmp_path, {"datanodes_per_site": 3}, "L")


def test_bytes_on_one_datanode_bound_the_limit_by_its_link():
    # Three datanodes a site with v_i = 4 v_e (v_e 1 MB/s): spread, each sends its own at v_e;
    # all on dn1, its link (4 MB/s) carries every byte, its own WAN part and the other
    # readers' fetches alike.
    lab = {"v_e_mbit": 8, "v_i_mbit": 32, "datanodes_per_site": 3, "replication": 1}

    assert parse.flow_limit(lab, 3, 3)[0] == 3.0
    assert parse.flow_limit(lab, 7, 7, {("src-dn1",): 1.0}) == (4.0, ["src-dn1: link out (v_i)"])


def test_each_site_has_its_own_datanode_count():
    lab = {"v_e_mbit": 8, "datanodes_per_site": 2, "src_datanodes": 2, "dst_datanodes": 4}

    assert parse.datanodes(lab, "src") == 2 and parse.datanodes(lab, "dst") == 4
    assert parse.routes(lab) == 4
    assert parse.hosts_up({}, lab, "dst", 0.0) == 4
    # Two readers send at most 2 MB/s however many datanodes write.
    assert parse.flow_limit(lab, 2, 4)[0] == 2.0


def test_the_folder_is_read_with_its_runs_in_name_order(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "lab.json").write_text(json.dumps(LAB))
    (tmp_path / "runs" / "S-distcp.json").write_text('{"tool": "distcp"}')
    (tmp_path / "runs" / "L-relaycp-k0.json").write_text('{"tool": "relaycp"}')

    lab, probe, runs = parse.load_folder(str(tmp_path))

    assert lab == LAB
    assert probe == []
    assert [run["tool"] for _, run in runs] == ["relaycp", "distcp"]


def test_startup_probes_count_only_copies_that_succeeded(tmp_path):
    startup = tmp_path / "startup"
    startup.mkdir()
    (startup / "T-distcp.json").write_text('{"exit_code": 0, "wall_seconds": 17.6}')
    (startup / "U-distcp.json").write_text('{"exit_code": 1, "wall_seconds": 3.0}')
    (startup / "T-relaycp-k0.json").write_text('{"exit_code": 0, "wall_seconds": 2.1}')
    (startup / "T-relaycp-k0.out").write_text('{"phaseSeconds": {"copying": 0.5}}')
    (startup / "U-relaycp-k0.out").write_text("relaycp: not JSON")

    assert parse.startup_seconds(str(tmp_path)) == {"distcp": {"T": 17.6}, "relaycp": {"T": 2.1}}
    assert parse.relaycp_phases(str(tmp_path)) == {"T": {"copying": 0.5}}


def test_distcp_map_costs_come_from_the_maps_that_copied_most_files(tmp_path):
    startup = tmp_path / "startup"
    startup.mkdir()
    (startup / "V-distcp-maps.txt").write_text(
        "# application_1: per map\n"
        "container                                host       files  start s  copying s  s/file  waits\n"
        "container_1_0004_01_000002   src-dn2      301      1.0       75.6   0.252    164\n"
        "container_1_0004_01_000003   src-dn1        2      1.0        9.0   4.5        0\n")

    costs = parse.distcp_map_costs(str(tmp_path))

    assert costs == {"lone": pytest.approx(75.6 / 301), "lone_waits": pytest.approx(164 / 301),
                     "start": pytest.approx(1.0)}


def test_a_maps_start_up_is_the_median_of_the_maps_that_started_alone_not_a_waves(tmp_path):
    startup = tmp_path / "startup"
    startup.mkdir()
    header = ("container                                host       files  start s  copying s"
              "  s/file  waits\n")
    (startup / "T-distcp-maps.txt").write_text(
        "# application_1: per map\n" + header
        + "container_1_0001_01_000002   src-dn1        1      6.7        0.0   0.000      0\n"
        + "container_1_0001_01_000003   src-dn2        1      6.4        0.0   0.000      0\n")
    (startup / "V-distcp-maps.txt").write_text(
        "# application_1: per map\n" + header
        + "container_1_0004_01_000002   src-dn1      301      3.1       51.0   0.170     83\n")
    # U's six maps started together and each took 18-24 s: a wave, which the job pays once.
    (startup / "U-distcp-maps.txt").write_text(
        "# application_1: per map\n" + header
        + "".join(f"container_1_0002_01_00000{i}   src-dn1       50     {start}"
                  "       18.0   0.360     20\n"
                  for i, start in enumerate((23.8, 18.2, 23.2, 22.1, 21.9, 23.4), start=2)))

    costs = parse.distcp_map_costs(str(tmp_path))

    assert costs["start"] == pytest.approx(6.4)
    assert costs["lone"] == pytest.approx(51.0 / 301)


def test_probe_rate_is_the_mean_goodput_in_megabytes():
    probe = [{"kind": "cross-site", "mbit_per_s": 40}, {"kind": "cross-site", "mbit_per_s": 38},
             {"kind": "in-site", "mbit_per_s": 390}]

    assert parse.probe_rate(probe, "cross-site") == pytest.approx(4.875)
    assert parse.probe_rate([], "in-site") is None


def test_committed_runs_carry_what_analyse_writes(committed):
    results = committed("lab-2026-11-24-full-yarn")

    for run in results["runs"]:
        if "status" in run:
            continue
        assert run["physical_limit_mb_per_s"] == pytest.approx(
            min(run["senders"], run["receivers"]) * results["lab"]["v_e_mbit"] / 8.0)
        if run.get("mb_per_s"):
            assert run["mb_per_s"] == pytest.approx(run["bytes"] / 1e6 / run["wall_seconds"], abs=1e-3)


def test_a_spawned_relay_serves_from_its_routes_joining_in_the_labs_clock(tmp_path):
    startup = tmp_path / "startup"
    startup.mkdir()
    run = {"exit_code": 0, "started_at": 1000.0, "wall_seconds": 62.0,
           "spawned_up_at": {"src-sp1": 1003.6, "dst-sp1": 1003.7},
           "spawned_start_cpu_s": {"src-sp1": 3.1, "dst-sp1": 3.5},
           "relaycp_summary": {"seconds": 60.0, "routesDropped": 0,
                               "phaseSeconds": {"copying": 43.7},
                               "routeRates": [{"route": 0, "joinedSeconds": 16.7},
                                              {"route": 1000, "joinedSeconds": 28.6}]}}
    (startup / "Y-relaycp-k1.json").write_text(json.dumps(run))

    probe = parse.spawned_probe(str(tmp_path), {"spawned_probe_pairs": 1})

    # Joined 28.6 s into the copy, whose driver JVM started 2 s before it: 30.6 s in the lab's
    # clock, 26.9 s after the host was attached at 3.7 s.
    assert probe["join"] == pytest.approx(3.7)
    assert probe["serving"] == pytest.approx(30.6)
    # Its two JVMs had spent 3.1 and 3.5 CPU-s when they listened.
    assert probe["start_cpu"] == pytest.approx(3.3)
    assert parse.spawned_start_seconds(probe) == pytest.approx(26.9)
    assert parse.spawned_start_seconds(None) == 0.0
    run["relaycp_summary"]["routeRates"].pop()
    assert parse.spawned_serving(run) is None


def test_a_spawned_probe_that_dropped_a_route_is_not_used_and_says_why(tmp_path):
    startup = tmp_path / "startup"
    startup.mkdir()
    run = {"exit_code": 0, "started_at": 1000.0, "wall_seconds": 80.0,
           "spawned_up_at": {"src-sp1": 1033.0, "dst-sp1": 1033.1, "src-sp2": 1033.2,
                             "dst-sp2": 1033.3},
           "relaycp_summary": {"seconds": 78.0, "routesDropped": 2,
                               "phaseSeconds": {"copying": 72.6}, "routeRates": []}}
    (startup / "Y-relaycp-k2.json").write_text(json.dumps(run))
    lab = {"spawned_probe_pairs": 2}

    assert parse.spawned_probe(str(tmp_path), lab) is None
    assert parse.spawned_probe_unusable(str(tmp_path), lab) == "startup/Y-relaycp-k2 dropped 2 route(s)"
    run["relaycp_summary"]["routesDropped"] = 0
    (startup / "Y-relaycp-k2.json").write_text(json.dumps(run))
    assert parse.spawned_probe_unusable(str(tmp_path), lab) is None
    assert parse.spawned_probe(str(tmp_path), lab)["copying"] == 72.6
    assert parse.spawned_probe(str(tmp_path), lab)["start_cpu"] is None
    assert parse.spawned_probe_unusable(str(tmp_path), {"spawned_probe_pairs": 3}) is None


def test_a_spawned_probe_whose_relays_served_no_route_is_not_used_and_says_why(tmp_path):
    # As on 2026-11-28: Y's copy ended 56 s in, before any of the four spawned relays answered.
    startup = tmp_path / "startup"
    startup.mkdir()
    hosts = [{"site": site, "slot": slot, "outcome": "unused"} for site in ("src", "dst")
             for slot in (0, 1)]
    run = {"exit_code": 0, "started_at": 1000.0, "wall_seconds": 71.1,
           "spawned_up_at": {"src-sp1": 1005.5, "dst-sp1": 1005.5, "src-sp2": 1005.5,
                             "dst-sp2": 1005.6},
           "spawned_start_cpu_s": {"dst-sp1": 4.27, "src-sp2": 4.55},
           "relaycp_summary": {"seconds": 69.0, "routesDropped": 0,
                               "phaseSeconds": {"copying": 42.9}, "routeRates": [],
                               "spawned": {"hosts": hosts}}}
    (startup / "Y-relaycp-k2.json").write_text(json.dumps(run))
    lab = {"spawned_probe_pairs": 2}

    assert parse.spawned_probe(str(tmp_path), lab) is None
    assert parse.spawned_probe_unusable(str(tmp_path), lab) == (
        "startup/Y-relaycp-k2: 4 of its 4 spawned relays served no route (unused): the copy's"
        " work ran out before they answered")
    for host in hosts[:3]:
        host["outcome"] = "routed"
    (startup / "Y-relaycp-k2.json").write_text(json.dumps(run))
    assert parse.spawned_probe_unusable(str(tmp_path), lab).startswith(
        "startup/Y-relaycp-k2: 1 of its 4 spawned relays served no route (unused)")
    hosts[3]["outcome"] = "routed"
    (startup / "Y-relaycp-k2.json").write_text(json.dumps(run))
    assert parse.spawned_probe_unusable(str(tmp_path), lab) is None


def test_the_spawned_probe_is_z_where_the_run_has_it_and_y_before(tmp_path):
    startup = tmp_path / "startup"
    startup.mkdir()
    run = {"exit_code": 0, "started_at": 1000.0, "wall_seconds": 80.0,
           "spawned_up_at": {"src-sp1": 1003.0, "dst-sp1": 1003.1},
           "relaycp_summary": {"seconds": 78.0, "routesDropped": 0,
                               "phaseSeconds": {"copying": 72.6}, "routeRates": []}}
    (startup / "Y-relaycp-k1.json").write_text(json.dumps(run))
    (startup / "Y-relaycp-k1.out").write_text(json.dumps({"phaseSeconds": {"copying": 72.6}}))
    lab = {"spawned_probe_pairs": 1}
    assert parse.spawned_probe(str(tmp_path), lab)["dataset"] == "Y"
    assert parse.spawned_probe(str(tmp_path), lab)["files"] == parse.Y_FILES
    assert parse.Y_SPAWNED in parse.relaycp_phases(str(tmp_path))

    run["relaycp_summary"]["phaseSeconds"]["copying"] = 150.0
    (startup / "Z-relaycp-k1.json").write_text(json.dumps(run))
    (startup / "Z-relaycp-k1.out").write_text(json.dumps({"phaseSeconds": {"copying": 150.0}}))
    probe = parse.spawned_probe(str(tmp_path), lab)
    assert (probe["dataset"], probe["files"], probe["copying"]) == ("Z", parse.Z_FILES, 150.0)
    assert set(parse.relaycp_phases(str(tmp_path))) == {parse.Z_SPAWNED}


def test_a_spawned_route_copies_what_its_routes_from_1000_on_copied():
    summary = {"routeRates": [{"route": 0, "chunks": 900}, {"route": 2, "chunks": 880},
                              {"route": 1000, "chunks": 136}, {"route": 1001, "chunks": 96}]}
    assert parse.spawned_files_per_route(summary) == 116
    assert parse.spawned_files_per_route({"routeRates": [{"route": 0, "chunks": 900}]}) is None
    assert parse.spawned_files_per_route({}) is None


def test_the_cpu_time_stolen_while_a_copy_ran_is_its_share_of_the_machines_cpu_time(tmp_path):
    timeline = tmp_path / "S-relaycp-k0.csv"
    timeline.write_text("t,src_to_dst,dst_to_src,cpu_busy,cpu_total,cpu_steal\n"
                        + "".join(f"{100 + t},{t * 1000},0,{30 * t},{40 * t},{1000 + 4 * t}\n"
                                  for t in range(11)))
    run = {"dataset": "S", "tool": "relaycp", "k": 0, "wall_seconds": 10.0, "senders": 1,
           "receivers": 1, "verify": {"bytes": 10_000}}

    out = parse.analyse(run, LAB, str(timeline), {})

    assert out["cpu_steal_pct"] == 10.0


def test_a_timeline_from_before_steal_was_sampled_gives_no_steal(tmp_path):
    timeline = tmp_path / "S-relaycp-k0.csv"
    write_timeline(timeline, [(100 + t, t * 1000, 10 * t, 40 * t) for t in range(11)])
    run = {"dataset": "S", "tool": "relaycp", "k": 0, "wall_seconds": 10.0, "senders": 1,
           "receivers": 1, "verify": {"bytes": 10_000}}

    assert "cpu_steal_pct" not in parse.analyse(run, LAB, str(timeline), {})


def test_each_start_up_probes_stolen_cpu_is_read_from_its_timeline_not_its_links(tmp_path):
    startup = tmp_path / "startup"
    startup.mkdir()
    header = "t,src_to_dst,dst_to_src,cpu_busy,cpu_total,cpu_steal\n"
    (startup / "Z-relaycp-k0.csv").write_text(header + "1,0,0,0,0,0\n2,0,0,50,100,25\n")
    (startup / "Z-relaycp-k0.links-src.csv").write_text("t,host,rx,tx\n1,src-dn1,0,0\n")
    (startup / "T-distcp.csv").write_text("t,src_to_dst,dst_to_src,cpu_busy,cpu_total\n"
                                          "1,0,0,0,0\n2,0,0,50,100\n")

    assert parse.startup_steal(str(tmp_path)) == {"Z-relaycp-k0": 25.0}
