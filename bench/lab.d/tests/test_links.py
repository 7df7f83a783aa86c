import json
import os
import shutil
import subprocess
import sys
import tarfile
import time

import pytest

from labreport import links, output, parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import keep  # noqa: E402
import links as sampler  # noqa: E402

LAB_D = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# v_i 10 MB/s, v_e 5 MB/s a host, as in bench/results/lab-2026-11-25-two-four-r3-vi2.
LAB = {"v_e_mbit": 40, "v_i_mbit": 80, "datanodes_per_site": 1, "src_datanodes": 1,
       "dst_datanodes": 1, "replication": 1}

DEV = """Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:     500       5    0    0    0     0          0         0      500       5    0    0    0     0       0          0
p-src-dn1: 1000      10    0    0    0     0          0         0     7000      70    0    0    0     0       0          0
  br0:      300       3    0    0    0     0          0         0      400       4    0    0    0     0       0          0
uplink:    9000      90    0    0    0     0          0         0      800       8    0    0    0     0       0          0
p-src-sp1:   20       1    0    0    0     0          0         0       30       1    0    0    0     0       0          0
"""


def write_links(path, rows):
    path.write_text("t,host,bytes_in,bytes_out\n"
                    + "".join(f"{t},{host},{received},{sent}\n" for t, host, received, sent in rows))


def write_timeline(path, rows):
    path.write_text("t,src_to_dst,dst_to_src,cpu_busy,cpu_total\n"
                    + "".join(f"{t},{sent},0,{busy},{total}\n" for t, sent, busy, total in rows))


def test_a_bridge_port_transmits_what_its_host_received():
    # A port's receive bytes are what the host sent it; its transmit bytes what it got.
    assert sampler.ports(DEV) == {"src-dn1": (7000, 1000), "src-sp1": (30, 20)}


def test_the_links_file_is_read_one_entry_per_sample(tmp_path):
    path = tmp_path / "L-relaycp-k0.links-src.csv"
    write_links(path, [(10.0, "src-dn1", 5, 6), (10.0, "src-nn", 1, 2), (10.25, "src-dn1", 7, 9)])

    assert links.read(str(path)) == [(10.0, {"src-dn1": (5, 6), "src-nn": (1, 2)}),
                                     (10.25, {"src-dn1": (7, 9)})]


def test_a_host_that_appears_mid_run_counts_from_the_sample_before_its_port():
    # dst-sp1's port is made between the samples at 4 and 5 s and has carried 1 MB by 5 s,
    # then 1 MB/s in; it goes after 6 s and a new port of the same name is there at 9 s.
    samples = [(float(t), {"dst-dn1": (100 + t * 10, 0)}) for t in range(10)]
    samples[5][1]["dst-sp1"] = (1_000_000, 10)
    samples[6][1]["dst-sp1"] = (2_000_000, 20)
    samples[9][1]["dst-sp1"] = (500_000, 5)

    counted = links.counted(samples)

    assert counted["dst-dn1"][0] == (0.0, 0, 0) and counted["dst-dn1"][-1] == (9.0, 90, 0)
    assert counted["dst-sp1"] == [(4.0, 0, 0), (5.0, 1_000_000, 10), (6.0, 2_000_000, 20),
                                  (8.0, 2_000_000, 20), (9.0, 2_500_000, 25)]
    assert links.at(counted["dst-sp1"], 2.0) == (0, 0)
    assert links.at(counted["dst-sp1"], 4.5) == (500_000, 5)
    assert links.at(counted["dst-sp1"], 7.0) == (2_000_000, 20)
    assert links.at(counted["dst-sp1"], 20.0) == (2_500_000, 25)


def test_a_counter_that_falls_is_a_new_port():
    samples = [(0.0, {"src-sp1": (0, 900)}), (1.0, {"src-sp1": (0, 1000)}),
               (2.0, {"src-sp1": (0, 300)})]

    assert links.counted(samples)["src-sp1"][-1] == (2.0, 0, 400)


def steady_copy(folder):
    """A 10 s copy of 100 MB at 10 MB/s over the WAN (steady window 1..9 s), with its link
    samples: dst-dn1 takes 9 MB/s in, src-dn1 sends 5 MB/s and src-sp1 (a spawned reader
    whose port appears at 3 s) 5 MB/s, fetching 4 MB/s from src-dn1 in-site."""
    write_timeline(folder / "L-relaycp-k1.csv",
                   [(100 + t, t * 10_000_000, 10 * t, 40 * t) for t in range(11)])
    src, dst = [], []
    for t in range(11):
        src.append((100 + t, "src-dn1", 50_000 + 4_000_000 * t, 70_000 + 9_000_000 * t))
        if t >= 3:
            src.append((100 + t, "src-sp1", 4_000_000 * (t - 2), 5_000_000 * (t - 2)))
        dst.append((100 + t, "dst-dn1", 9_000_000 * t, 100_000 * t))
    write_links(folder / "L-relaycp-k1.links-src.csv", src)
    write_links(folder / "L-relaycp-k1.links-dst.csv", dst)
    return {"dataset": "L", "tool": "relaycp", "k": 1, "wall_seconds": 10.0, "senders": 2,
            "receivers": 2, "verify": {"bytes": 100_000_000}}


def test_each_hosts_link_is_measured_over_the_steady_window(tmp_path):
    run = steady_copy(tmp_path)

    out = parse.analyse(run, LAB, str(tmp_path / "L-relaycp-k1.csv"), {})

    assert out["steady_window_s"] == [1.0, 9.0]
    used = out["links"]
    assert used["caps_mb_per_s"] == {"v_e": 5.0, "v_i": 10.0}
    assert used["hosts"]["src-dn1"] == {"in_mb_per_s": 4.0, "out_mb_per_s": 9.0,
                                        "in_of_v_i": 0.4, "out_of_v_i": 0.9,
                                        "in_time_full": 0.0, "out_time_full": 1.0}
    assert used["hosts"]["dst-dn1"]["in_of_v_i"] == 0.9
    # From 1 to 9 s; its port was there from 3 s, at 5 MB/s out from 2 s on.
    assert used["hosts"]["src-sp1"]["out_mb_per_s"] == pytest.approx(5.0 * 7 / 8)
    assert [b["link"] for b in used["busiest"]] == ["dst-dn1 in", "src-dn1 out", "src-sp1 out"]
    # The one src datanode's link out, holding every byte, bounds this copy's limit.
    assert out["limit_bound_by"] == ["src-dn1: link out (v_i)"]
    assert used["bound"] == [{"link": "src-dn1: link out (v_i)", "mb_per_s": 9.0, "of_v_i": 0.9,
                              "time_full": 1.0}]
    table = "\n".join(output.links_markdown([out]))
    assert ("| L | relaycp | 1 | src-dn1 out 9.00 MB/s, 90% of v_i, full 100% of the time | "
            "dst-dn1 in 9.00 MB/s, 90% of v_i, full 100% of the time; "
            "src-dn1 out 9.00 MB/s, 90% of v_i, full 100% of the time; "
            "src-sp1 out 4.38 MB/s, 44% of v_i, full 0% of the time |") in table


def test_a_link_full_half_the_time_says_so_where_its_mean_does_not(tmp_path):
    # dst-dn1 takes 10 MB/s in (its v_i) for 4 s, then nothing for 4 s.
    rows = [(t / 4, "dst-dn1", int(min(t / 4, 4) * 10_000_000), 0) for t in range(33)]
    write_links(tmp_path / "r.links-dst.csv", rows)

    used = links.use(str(tmp_path / "r"), LAB, 0.0, 8.0, ["dst-dn1: link in (v_i)"])

    assert used["hosts"]["dst-dn1"]["in_of_v_i"] == 0.5
    assert used["hosts"]["dst-dn1"]["in_time_full"] == 0.5
    assert used["bound"][0]["time_full"] == 0.5


def test_a_wan_cap_is_measured_as_an_upper_bound():
    bound = [{"link": "src-dn1: to the other site (v_e)", "mb_per_s": 4.9, "of_v_e": 0.98}]
    busiest = [{"link": "src-dn1 out", "mb_per_s": 4.9, "of_v_i": 0.49}]

    row = output.links_markdown([{"dataset": "L", "tool": "relaycp", "k": 0,
                                  "links": {"bound": bound, "busiest": busiest}}])[-1]

    assert row == ("| L | relaycp | 0 | src-dn1 out 4.90 MB/s, at most 98% of v_e | "
                   "src-dn1 out 4.90 MB/s, 49% of v_i |")


def test_a_wan_link_above_v_e_carried_in_site_bytes_and_bounds_nothing():
    bound = [{"link": "src-dn1: to the other site (v_e)", "mb_per_s": 15.8, "of_v_e": 3.15,
              "time_full": 1.0},
             {"link": "src-sp1: to the other site (v_e)", "mb_per_s": 4.6, "of_v_e": 0.93,
              "time_full": 0.9}]
    busiest = [{"link": "src-dn1 out", "mb_per_s": 15.8, "of_v_i": 0.32, "time_full": 0.0}]

    row = output.links_markdown([{"dataset": "L", "tool": "relaycp", "k": 6,
                                  "links": {"bound": bound, "busiest": busiest}}])[-1]

    assert row == ("| L | relaycp | 6 | src-dn1 out 15.80 MB/s, above v_e: in-site bytes too, its "
                   "WAN share not known; src-sp1 out 4.60 MB/s, at most 93% of v_e, full at most "
                   "90% of the time | src-dn1 out 15.80 MB/s, 32% of v_i, full 0% of the time |")


def test_without_v_i_shares_are_of_v_e(tmp_path):
    write_links(tmp_path / "r.links-src.csv", [(0, "src-dn1", 0, 0), (2, "src-dn1", 0, 9_000_000)])
    lab = {"v_e_mbit": 40}

    used = links.use(str(tmp_path / "r"), lab, 0.0, 2.0, ["src-dn1: to the other site (v_e)"])

    assert used["hosts"]["src-dn1"] == {"in_mb_per_s": 0.0, "out_mb_per_s": 4.5,
                                        "in_of_v_e": 0.0, "out_of_v_e": 0.9,
                                        "in_time_full": 0.0, "out_time_full": 1.0}
    assert used["bound"] == [{"link": "src-dn1: to the other site (v_e)", "mb_per_s": 4.5,
                              "of_v_e": 0.9, "time_full": 1.0}]


def test_a_run_without_link_samples_is_reported_as_before(tmp_path):
    run = steady_copy(tmp_path)
    for site in ("src", "dst"):
        (tmp_path / f"L-relaycp-k1.links-{site}.csv").unlink()

    out = parse.analyse(run, LAB, str(tmp_path / "L-relaycp-k1.csv"), {})

    assert "links" not in out
    assert out["fraction_of_limit"] == 1.0
    assert output.links_markdown([out]) == []
    assert links.load(str(tmp_path / "L-relaycp-k1")) is None
    assert links.use(str(tmp_path / "L-relaycp-k1"), LAB, 101.0, 109.0) is None


@pytest.mark.parametrize("sampled", [True, False], ids=["with link samples", "an older folder"])
def test_the_report_has_the_links_only_where_the_run_sampled_them(tmp_path, sampled):
    import report
    (tmp_path / "runs").mkdir()
    (tmp_path / "lab.json").write_text(json.dumps(dict(
        LAB, slots_per_node=2, boot_delay_s=20, cores=2, k="1", datasets="L")))
    run = steady_copy(tmp_path / "runs")
    run.update(exit_code=0, verify={"bytes": 100_000_000, "ok": True, "files": 1})
    (tmp_path / "runs" / "L-relaycp-k1.json").write_text(json.dumps(run))
    if not sampled:
        for site in ("src", "dst"):
            (tmp_path / "runs" / f"L-relaycp-k1.links-{site}.csv").unlink()

    assert report.main(str(tmp_path)) == 0

    copy = json.loads((tmp_path / "results.json").read_text())["runs"][0]
    markdown = (tmp_path / "results.md").read_text()
    assert copy["fraction_of_limit"] == 1.0
    assert ("links" in copy) == sampled
    assert ("## Links in the steady window" in markdown) == sampled
    if sampled:
        assert copy["links"]["bound"][0]["of_v_i"] == 0.9


def test_keep_leaves_the_link_samples_in_the_raw_pack(tmp_path, monkeypatch):
    run_dir = tmp_path / "run"
    (run_dir / "runs").mkdir(parents=True)
    (run_dir / "results.md").write_text("# results\n")
    (run_dir / "results.json").write_text(json.dumps({"runs": [{"links": {"hosts": {}}}]}))
    write_links(run_dir / "runs" / "L-relaycp-k0.links-src.csv", [(0, "src-dn1", 0, 0)])
    monkeypatch.setattr(keep, "RAW", tmp_path / "raw")

    kept = keep.keep(run_dir, tmp_path / "kept")
    tarball = keep.pack(run_dir, "kept")

    assert sorted(kept) == ["results.json", "results.md"]
    assert json.loads((tmp_path / "kept" / "results.json").read_text())["runs"][0]["links"] == {"hosts": {}}
    with tarfile.open(tarball) as archive:
        assert "kept/runs/L-relaycp-k0.links-src.csv" in archive.getnames()


def namespaces_or_skip():
    """Skips, saying why, where this test cannot make network namespaces."""
    if os.geteuid() != 0:
        pytest.skip(f"needs root to make network namespaces (uid {os.geteuid()})")
    if shutil.which("ip") is None:
        pytest.skip("needs iproute2's ip")
    probe = f"lnk-probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"network namespaces are not available here: {made.stderr.strip()}")
    subprocess.run(["ip", "netns", "del", probe], check=True)


def udp(namespace, to, count):
    """Sends `count` 1,000-byte UDP datagrams from inside a namespace."""
    subprocess.run(["ip", "netns", "exec", namespace, sys.executable, "-c",
                    "import socket, sys; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                    "for _ in range(int(sys.argv[2])): s.sendto(b'x' * 1000, (sys.argv[1], 9))",
                    to, str(count)], check=True)


def test_the_sampler_counts_a_hosts_sending_as_out_and_its_receiving_as_in(tmp_path):
    """A host namespace and a switch namespace joined as net.sh joins them (eth0 in the host,
    its peer p-<host> in the switch), with links.py sampling in the switch; not the lab's
    prefix, so a lab that is up never sees them."""
    namespaces_or_skip()
    tag = os.getpid()
    host, switch = f"lnk-h-{tag}", f"lnk-sw-{tag}"
    out = tmp_path / "links.csv"
    try:
        for ns in (host, switch):
            subprocess.run(["ip", "netns", "add", ns], check=True)
        subprocess.run(["ip", "link", "add", "eth0", "netns", host, "type", "veth", "peer", "name",
                        "p-h1", "netns", switch], check=True)
        for ns, dev, address in ((host, "eth0", "10.99.0.2/24"), (switch, "p-h1", "10.99.0.1/24")):
            subprocess.run(["ip", "-n", ns, "addr", "add", address, "dev", dev], check=True)
            subprocess.run(["ip", "-n", ns, "link", "set", dev, "up"], check=True)
        # Something listens on either side, so that no ICMP error comes back for each datagram.
        listening = [subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, "-c",
                                       "import socket, time; s = socket.socket(socket.AF_INET, "
                                       "socket.SOCK_DGRAM); s.bind(('0.0.0.0', 9)); time.sleep(30)"])
                     for ns in (host, switch)]
        sampling = subprocess.Popen(["ip", "netns", "exec", switch, sys.executable,
                                     os.path.join(LAB_D, "links.py"), str(out), "0.05"])
        try:
            time.sleep(0.5)
            udp(host, "10.99.0.1", 400)   # the host sends 400 kB
            time.sleep(0.2)
            udp(switch, "10.99.0.2", 100)  # and receives 100 kB
            time.sleep(0.3)
        finally:
            for process in [sampling] + listening:
                process.terminate()
                process.wait(timeout=10)
    finally:
        for ns in (host, switch):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)

    samples = links.read(str(out))
    assert len(samples) >= 5
    counted = links.counted(samples)["h1"][-1]
    # Frames carry 42 bytes of headers each over the 1,000 of payload.
    assert 400_000 <= counted[2] < 460_000
    assert 100_000 <= counted[1] < 130_000
