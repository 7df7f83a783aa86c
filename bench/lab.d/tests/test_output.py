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
