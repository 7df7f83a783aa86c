import json

from labreport import output, parse


def l_k0(wall, provisioner="yarn"):
    return {"dataset": "L", "tool": "relaycp", "k": 0, "wall_seconds": wall,
            "relaycp_summary": {"provisioner": provisioner}}


def write_hand_run(folder, wall, exit_code=0, ok=True):
    (folder / "hand").mkdir()
    (folder / "hand" / "L-relaycp-k0.json").write_text(json.dumps(
        {"wall_seconds": wall, "exit_code": exit_code, "verify": {"ok": ok},
         "relaycp_summary": {"phaseSeconds": {"copying": wall - 2}, "localReadFraction": 0.9}}))


def hand_target(targets):
    return [(text, met) for text, met in targets if "started by hand" in text]


def test_yarn_relays_within_five_percent_of_hand_started_ones_meet_the_target(tmp_path):
    write_hand_run(tmp_path, 160.0)
    hand = parse.hand_relays_run(str(tmp_path))

    (text, met), = hand_target(output.target_checks([l_k0(167.0)], hand))

    assert met
    assert "167.0 s against 160.0 s (+4.4%)" in text
    assert hand["copying_seconds"] == 158.0


def test_yarn_relays_over_five_percent_slower_miss_the_target(tmp_path):
    write_hand_run(tmp_path, 160.0)

    (text, met), = hand_target(output.target_checks([l_k0(168.5)], parse.hand_relays_run(str(tmp_path))))

    assert not met
    assert "(+5.3%)" in text


def test_the_copying_phases_and_the_containers_start_are_given_beside_the_wall_times(tmp_path):
    write_hand_run(tmp_path, 160.0)
    yarn = l_k0(168.5)
    yarn["relaycp_summary"]["phaseSeconds"] = {"relays": 6.1, "copying": 158.5}

    (text, met), = hand_target(output.target_checks([yarn], parse.hand_relays_run(str(tmp_path))))

    assert not met
    assert "(+5.3%); copying 158.5 s against 158.0 s (+0.3%), after the containers' start of 6.1 s" in text


def test_a_hand_run_that_failed_verification_meets_nothing(tmp_path):
    write_hand_run(tmp_path, 200.0, ok=False)

    (_, met), = hand_target(output.target_checks([l_k0(150.0)], parse.hand_relays_run(str(tmp_path))))

    assert not met


def test_without_a_hand_run_or_a_yarn_copy_there_is_no_such_target(tmp_path):
    assert parse.hand_relays_run(str(tmp_path)) is None
    assert hand_target(output.target_checks([l_k0(150.0)], None)) == []
    write_hand_run(tmp_path, 160.0)
    static = l_k0(150.0, provisioner="static")
    assert hand_target(output.target_checks([static], parse.hand_relays_run(str(tmp_path)))) == []


def run(tool, dataset, k, mb_per_s):
    return {"dataset": dataset, "tool": tool, "k": k, "mb_per_s": mb_per_s, "wall_seconds": 1.0}


def test_relaycp_is_held_to_the_faster_distcp():
    runs = [run("distcp", "L", 0, 8.0), run("distcp-expert", "L", 0, 10.0),
            run("relaycp", "L", 0, 12.0), run("distcp", "S", 0, 2.0),
            run("distcp-expert", "S", 0, 1.5), run("relaycp", "S", 0, 7.0)]

    targets = dict(output.target_checks(runs, None))

    assert targets["L relaycp k=0 at least 0.9x expert DistCp's MB/s: 1.20x"]
    assert targets["S relaycp k=0 at least 3x DistCp's MB/s: 3.50x"]


def test_the_expert_runs_predictions_are_dynamic_with_blocks_per_chunk_where_files_span_blocks():
    from labreport import calibrate
    lab = {"block_size": 33554432}

    assert calibrate.expert_distcp_options("4x268435456,3000x65536", lab) == [
        "--distcp-strategy", "dynamic", "--distcp-blocks-per-chunk", "1"]
    assert calibrate.expert_distcp_options("5000x65536", lab) == ["--distcp-strategy", "dynamic"]


def test_the_links_that_bound_a_limit_read_one_phrase_per_kind():
    assert output.bound_links(["src-dn1: to the other site (v_e)",
                               "src-dn2: to the other site (v_e)",
                               "dst-dn1: link in (v_i)"]) == (
        "src-dn1, src-dn2: to the other site (v_e); dst-dn1: link in (v_i)")


def test_stolen_cpu_names_the_worst_copy_and_probe_and_every_one_past_a_percent():
    runs = [{"dataset": "S", "tool": "relaycp", "k": 0, "cpu_steal_pct": 0.2},
            {"dataset": "M", "tool": "relaycp", "k": 2, "cpu_steal_pct": 3.5},
            {"dataset": "M", "tool": "relaycp", "k": 4, "cpu_steal_pct": 1.5},
            {"dataset": "L", "tool": "distcp-expert", "k": 0}]

    text = output.steal_text(runs, {"Z-relaycp-k0": 12.0, "Y-relaycp-k0": 0.0})

    assert ("the copies at most 3.5% (M relaycp k=2), 1% or more also in M relaycp k=4 1.5%;"
            in text)
    assert "the start-up probes at most 12.0% (Z-relaycp-k0)." in text
    assert output.steal_text([{"dataset": "S", "tool": "relaycp", "k": 0}], {}) is None


def test_the_cpu_against_the_probes_is_one_sentence_over_the_copies_that_have_it():
    runs = [{"dataset": "S", "tool": "relaycp", "k": 0, "cpu_against_probes": 1.052},
            {"dataset": "L", "tool": "relaycp", "k": 0}]

    text = output.cpu_against_probes_text(runs)

    assert "imply for as many files (every process but the lab's tools): S 1.05x." in text
    assert output.cpu_against_probes_text(runs[1:]) is None


def test_the_relays_table_gives_when_spawned_hosts_came_up_and_their_relays_listened():
    spawned = {"dataset": "S", "tool": "relaycp", "k": 1, "started_at": 1000.0,
               "spawned_up_at": {"src-sp1": 1026.0, "dst-sp1": 1026.4},
               "spawned_listening_at": {"src-sp1": 1041.25, "dst-sp1": 1047.5},
               "relaycp_summary": {"provisioner": "yarn+exec", "relaysStarted": {"src": 4, "dst": 4},
                                   "phaseSeconds": {"relays": 6.1}, "localReadFraction": 0.59,
                                   "routesDropped": 0,
                                   "routeRates": [{"joinedSeconds": 8.8}, {"joinedSeconds": 52.3}]}}
    alone = {"dataset": "S", "tool": "relaycp", "k": 0, "started_at": 2000.0,
             "relaycp_summary": {"provisioner": "yarn", "relaysStarted": {"src": 3, "dst": 3},
                                 "phaseSeconds": {"relays": 3.9}, "localReadFraction": 0.993,
                                 "routesDropped": 0, "routeRates": [{"joinedSeconds": 5.4}]}}

    md = output.relays_markdown([alone, spawned, {"dataset": "S", "tool": "distcp", "k": 0}])

    assert "| S | 0 | yarn | 3 / 3 | 3.9 | – | – | 5.4 | 0.993 | 0 |" in md
    assert "| S | 1 | yarn+exec | 4 / 4 | 6.1 | 26.0-26.4 | 41.2-47.5 | 52.3 | 0.590 | 0 |" in md
    assert output.relays_markdown([{"dataset": "S", "tool": "distcp", "k": 0}]) == []
