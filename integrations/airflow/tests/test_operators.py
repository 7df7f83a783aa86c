"""The operators run outside a DAG: exit codes, messages and on_kill, with real relaycp runs."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from airflow.exceptions import AirflowException, AirflowFailException

from relaycp_airflow import RelaycpOperator, RelaycpPlanOperator
from relaycp_airflow.operators import failure_for


@pytest.mark.parametrize("code", [1, 2, 3, 5])
def test_failures_that_would_fail_again_are_not_retried(code):
    assert isinstance(failure_for(code, "boom"), AirflowFailException)


def test_an_unreachable_cluster_is_retried():
    failure = failure_for(4, "cannot reach hdfs://nn-b:8020")

    assert not isinstance(failure, AirflowFailException)
    assert isinstance(failure, AirflowException)
    assert str(failure) == (
        "relaycp exited with 4 (a cluster or relay is unreachable or failing): "
        "cannot reach hdfs://nn-b:8020"
    )


@pytest.mark.parametrize("code", [-15, 143])
def test_a_run_ended_by_a_signal_is_retried(code):
    failure = failure_for(code, None)

    assert not isinstance(failure, AirflowFailException)
    assert "stopped by signal 15" in str(failure)


def test_the_failure_message_is_relaycps_last_line_not_a_warning():
    operator = RelaycpOperator(
        task_id="copy",
        src="hdfs://a/x",
        dst="hdfs://b/x",
        command=[
            "sh",
            "-c",
            (
                "echo 'relaycp: warning: secret file s is readable' >&2; "
                "echo 'relaycp: verification failed for 1 file' >&2; exit 5"
            ),
        ],
    )

    with pytest.raises(AirflowFailException) as failed:
        operator.execute({})

    assert str(failed.value) == (
        "relaycp exited with 5 (verification failed): verification failed for 1 file"
    )


def _skip_unjar_seen_by_relaycp() -> str:
    operator = RelaycpOperator(
        task_id="copy",
        src="hdfs://a/x",
        dst="hdfs://b/x",
        command=["sh", "-c", 'echo "relaycp: skip=${HADOOP_CLIENT_SKIP_UNJAR:-unset}" >&2; exit 3'],
    )
    with pytest.raises(AirflowFailException) as failed:
        operator.execute({})
    return str(failed.value).rsplit(": ", 1)[-1]


def test_hadoop_jar_runs_without_unpacking_the_jar(monkeypatch):
    monkeypatch.delenv("HADOOP_CLIENT_SKIP_UNJAR", raising=False)

    assert _skip_unjar_seen_by_relaycp() == "skip=true"


def test_a_skip_unjar_the_worker_sets_is_kept(monkeypatch):
    monkeypatch.setenv("HADOOP_CLIENT_SKIP_UNJAR", "false")

    assert _skip_unjar_seen_by_relaycp() == "skip=false"


def test_a_missing_source_fails_with_relaycps_message_and_no_retry(clusters):
    operator = RelaycpOperator(
        task_id="copy",
        src=clusters.source + "/absent",
        dst=clusters.destination + "/never",
        pairs=1,
        extra_args=["--no-history"],
    )

    with pytest.raises(AirflowFailException) as failed:
        operator.execute({})

    assert str(failed.value).startswith("relaycp exited with 3 (bad input): source ")
    assert "/absent does not exist; check the path" in str(failed.value)


def test_an_unreachable_destination_fails_the_try_so_airflow_retries(clusters):
    operator = RelaycpOperator(
        task_id="copy",
        src=clusters.dataset,
        dst="hdfs://127.0.0.1:1/copy",
        pairs=1,
        conf={"ipc.client.connect.max.retries": 0, "ipc.client.connect.timeout": 2000},
        extra_args=["--no-history"],
    )

    with pytest.raises(AirflowException) as failed:
        operator.execute({})

    assert not isinstance(failed.value, AirflowFailException)
    assert str(failed.value).startswith("relaycp exited with 4 ")
    assert "127.0.0.1:1" in str(failed.value)


def test_the_plan_operator_pushes_the_planners_table(clusters):
    plan = RelaycpPlanOperator(
        task_id="plan",
        src=clusters.dataset,
        dst=clusters.destination + "/planned",
        extra_args=["--pairs", "0-3"],
    ).execute({})

    assert [row["pairs"] for row in plan["rows"]] == [0, 1, 2, 3]
    assert plan["files"] == clusters.files
    assert plan["bytes"] == clusters.bytes
    assert plan["chosen"]["pairs"] in {0, 1, 2, 3}
    assert plan["chosen"]["reason"]


def _group(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group ``pgid``."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def _wait_until(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting until {what}")
        time.sleep(0.1)


def test_on_kill_stops_the_copy_and_every_relay_it_started(clusters):
    operator = RelaycpOperator(
        task_id="copy",
        src=clusters.dataset,
        dst=clusters.destination + "/killed",
        pairs=2,
        # Slow relays, so the copy is still running when the task is killed.
        conf={"relaycp.relay.bytes-per-second-limit": 65536},
        extra_args=["--no-history"],
        kill_grace_seconds=20,
    )
    outcome = {}

    def run():
        try:
            outcome["summary"] = operator.execute({})
        except BaseException as failure:  # noqa: BLE001 - the test inspects what execute raised
            outcome["failure"] = failure

    worker = threading.Thread(target=run)
    worker.start()
    _wait_until(lambda: operator._process is not None, 30, "relaycp started")
    assert operator._process.wait_started(30)
    group = operator._process.pid
    # The driver and its four relays (two pairs, a reader and a writer each).
    _wait_until(lambda: len(_group(group)) >= 5, 120, "the relays were up")

    operator.on_kill()
    worker.join(60)

    assert not worker.is_alive()
    assert "summary" not in outcome
    assert isinstance(outcome["failure"], AirflowException)
    assert not isinstance(outcome["failure"], AirflowFailException)
    _wait_until(lambda: not _group(group), 30, "every process of the copy had ended")
    with pytest.raises(ProcessLookupError):
        os.killpg(group, 0)
