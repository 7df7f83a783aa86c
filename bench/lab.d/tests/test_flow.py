import json
from pathlib import Path

import pytest

from labreport import flow


def test_with_wide_in_site_links_the_limit_is_the_summed_wan_caps_of_the_fewer_side():
    rate, links = flow.copy_limit(5, 50, readers=9, datanodes=3, writers=7)

    assert rate == pytest.approx(35)
    assert links == [f"dst-{h}: from the other site (v_e)"
                     for h in ("dn1", "dn2", "dn3", "sp1", "sp2", "sp3", "sp4")]


def test_bytes_on_one_datanode_are_bound_by_its_one_link():
    # All bytes on src-dn1, whose link (20 MB/s) carries its own WAN traffic (at most 5) and
    # what the six other readers fetch from it.
    rate, links = flow.copy_limit(5, 20, readers=7, datanodes=3, writers=7,
                                  placement={("src-dn1",): 1.0})

    assert rate == pytest.approx(20, rel=1e-6)
    assert links == ["src-dn1: link out (v_i)"]


def test_bytes_on_one_datanode_with_wide_links_still_reach_every_reader():
    rate, _ = flow.copy_limit(5, 100, readers=7, datanodes=3, writers=7,
                              placement={("src-dn1",): 1.0})

    assert rate == pytest.approx(35)


def test_an_uneven_placement_is_held_to_its_fullest_holder():
    # Three readers, no spawned ones, v_i = 5: dn1 holds half, so at rate R it hands over R/2
    # through its one link of 5, to the WAN or to the other readers: R = 10.
    rate, links = flow.copy_limit(5, 5, readers=3, datanodes=3, writers=3,
                                  placement={("src-dn1",): 0.5, ("src-dn2",): 0.25,
                                             ("src-dn3",): 0.25})

    assert rate == pytest.approx(10, rel=1e-6)
    assert "src-dn1: link out (v_i)" in links


def test_blocks_with_replicas_on_several_datanodes_may_come_from_any_of_them():
    one_holder = flow.copy_limit(5, 5, readers=3, datanodes=3, writers=3,
                                 placement={("src-dn1",): 1.0})[0]
    three_holders = flow.copy_limit(5, 5, readers=3, datanodes=3, writers=3,
                                    placement={("src-dn1", "src-dn2", "src-dn3"): 1.0})[0]

    assert one_holder == pytest.approx(5, rel=1e-6)
    assert three_holders == pytest.approx(15)


def test_replication_on_the_destination_takes_its_datanodes_links():
    # Three writers on three datanodes, v_i = 10: at rate R each takes R/3 from the WAN and
    # carries 2R/3 of replicas in and out; R/3 + 2R/3 <= 10 gives R = 10, under the WAN's 15.
    rate, links = flow.copy_limit(5, 10, readers=3, datanodes=3, writers=3, replication=3)

    assert rate == pytest.approx(10, rel=1e-6)
    assert links == [f"dst-dn{n}: link in (v_i)" for n in (1, 2, 3)]


def test_spawned_writers_hand_their_bytes_to_datanodes_over_their_links():
    # One destination datanode with a 6 MB/s link and two spawned writers: the datanode takes
    # 5 from the WAN itself and 1 more from the spawned writers, whatever their WAN caps.
    rate, links = flow.copy_limit(5, 6, readers=3, datanodes=3, writers=3, dst_datanodes=1)

    assert rate == pytest.approx(6, rel=1e-6)
    assert links == ["dst-dn1: link in (v_i)"]


def test_no_reader_or_no_writer_is_no_copy():
    assert flow.copy_limit(5, 50, readers=0, datanodes=3, writers=3) == (0.0, [])
    assert flow.copy_limit(5, 50, readers=3, datanodes=3, writers=0) == (0.0, [])


CASES = json.loads((Path(__file__).resolve().parents[3] / "relaycp" / "src" / "test"
                    / "resources" / "dev" / "relaycp" / "plan" / "host-flow-cases.json")
                   .read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_planners_shared_cases(case):
    # The same cases as the planner's HostFlowTest: both must agree on every limit.
    placement = None if case["placement"] == "even" else {
        tuple(f"src-dn{holder + 1}" for holder in group["holders"]): group["share"]
        for group in case["placement"]}
    spawned = case["spawned"]

    rate, links = flow.copy_limit(case["v_e"], case["v_i"], case["src_datanodes"] + spawned,
                                  case["src_datanodes"], case["dst_datanodes"] + spawned,
                                  dst_datanodes=case["dst_datanodes"], placement=placement,
                                  replication=case["replication"])

    assert rate == pytest.approx(case["rate"], rel=1e-6)
    if case["bound_by"] is not None:
        assert links == case["bound_by"]
