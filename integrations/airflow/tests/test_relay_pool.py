"""The relay pool's setup and teardown operators, with a real `relaycp relay-pool` on two
embedded sites with YARN, and copies through it."""

from __future__ import annotations

import stat
import tempfile
import time
from pathlib import Path

import pytest
from airflow.exceptions import AirflowFailException

from relaycp_airflow import (
    RelaycpOperator,
    RelaycpRelayPoolStartOperator,
    RelaycpRelayPoolStopOperator,
)
from relaycp_airflow.operators import _alive

#: Containers small enough for one machine, as `relaycp demo --relays yarn` has them; the
#: embedded NodeManagers' folders go with the test, so no class-data archive is made.
SMALL_CONTAINERS = {
    "relaycp.yarn.relay-memory-mb": 256,
    "relaycp.relay.java-opts": "-Xmx192m -XX:TieredStopAtLevel=1",
    "relaycp.yarn.class-data-archive": "false",
}


class FakeTaskInstance:
    """What the stop operator asks of Airflow's task instance: the start task's XCom."""

    def __init__(self, pushed: dict):
        self.pushed = pushed

    def xcom_pull(self, task_ids: str):
        return self.pushed[task_ids]


def pool_start(pool_file: str, clusters) -> RelaycpRelayPoolStartOperator:
    """The setup task of a pool at ``pool_file`` on ``clusters``, small containers, 30 minutes."""
    return RelaycpRelayPoolStartOperator(
        task_id="relays_up",
        pool_file=pool_file,
        src_conf=clusters.source_conf,
        dst_conf=clusters.destination_conf,
        lifetime="30m",
        start_timeout_seconds=180,
        conf=SMALL_CONTAINERS,
    )


def pooled_copy(task_id: str, clusters, target: str, pool_file: str) -> dict:
    """The clusters' dataset copied to ``target`` below the destination over the pool."""
    return RelaycpOperator(
        task_id=task_id,
        src=clusters.dataset,
        dst=f"{clusters.destination}/{target}",
        relay_pool=pool_file,
        extra_args=["--no-history"],
    ).execute({})


def test_copies_use_the_pool_until_the_teardown_removes_its_file(yarn_clusters, tmp_path):
    pool_file = tmp_path / "pool.json"
    start = pool_start(str(pool_file), yarn_clusters)

    started = start.execute({})

    assert started["pool_file"] == str(pool_file)
    assert _alive(started["pid"])
    assert stat.S_IMODE(pool_file.stat().st_mode) == 0o600
    summaries = [
        pooled_copy(f"copy_{n}", yarn_clusters, f"pooled-{n}", str(pool_file))
        for n in (1, 2)
    ]
    for summary in summaries:
        assert summary["files"] == yarn_clusters.files
        assert summary["bytes"] == yarn_clusters.bytes
        assert summary["verified"] is True
        assert summary["provisioner"] == "yarn-pool"
    assert _alive(started["pid"]), "the pool outlives the copies"

    RelaycpRelayPoolStopOperator(
        task_id="relays_down",
        pool_file=str(pool_file),
        start_task_id="relays_up",
        stop_timeout_seconds=60,
    ).execute({"ti": FakeTaskInstance({"relays_up": started})})

    assert not pool_file.exists()
    assert not _alive(started["pid"])
    log = Path(started["log"]).read_text()
    assert "was removed: stopping the relay pool" in log
    # A teardown that runs again finds the pool stopped and does not fail.
    RelaycpRelayPoolStopOperator(task_id="relays_down", pool_file=str(pool_file)).execute({})


def test_a_pool_that_cannot_start_fails_the_task_with_its_message(yarn_clusters, tmp_path):
    pool_file = tmp_path / "pool.json"
    start = RelaycpRelayPoolStartOperator(
        task_id="relays_up",
        pool_file=str(pool_file),
        src_conf=str(tmp_path / "no-such-conf"),
        dst_conf=yarn_clusters.destination_conf,
        conf=SMALL_CONTAINERS,
    )

    with pytest.raises(AirflowFailException) as failed:
        start.execute({})

    assert str(failed.value).startswith("relaycp exited with 3 (bad input): configuration folder ")
    assert "no-such-conf" in str(failed.value)
    assert not pool_file.exists()
    assert start._process.poll() is not None


def test_a_pool_file_on_hdfs_serves_copies_and_a_teardown_elsewhere_stops_it(
    yarn_clusters, tmp_path
):
    pool_file = f"{yarn_clusters.source}/airflow-relays.pool"
    start = pool_start(pool_file, yarn_clusters)

    started = start.execute({})

    assert started["pool_file"] == pool_file
    assert Path(started["log"]).parent == Path(tempfile.gettempdir())
    summary = pooled_copy("copy", yarn_clusters, "pooled-on-hdfs", pool_file)
    assert summary["verified"] is True
    assert summary["provisioner"] == "yarn-pool"

    # A teardown on another worker: the start's XCom says where the clusters are, and this
    # host is not the start's, so the stop rests on relaycp alone.
    elsewhere = dict(started, host="another-worker")
    RelaycpRelayPoolStopOperator(
        task_id="relays_down",
        pool_file=pool_file,
        start_task_id="relays_up",
        stop_timeout_seconds=60,
    ).execute({"ti": FakeTaskInstance({"relays_up": elsewhere})})

    deadline = time.monotonic() + 30
    while _alive(started["pid"]) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(started["pid"])
    assert "was removed: stopping the relay pool" in Path(started["log"]).read_text()
    with pytest.raises(AirflowFailException) as refused:
        pooled_copy("copy_after", yarn_clusters, "pooled-after", pool_file)
    assert "does not exist" in str(refused.value)
