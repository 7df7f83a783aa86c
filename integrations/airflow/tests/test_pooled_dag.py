"""The pooled example DAG run with dag.test(): a relay pool on two embedded sites with YARN,
copies through it, and its teardown, also after a copy failed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from airflow.utils.state import DagRunState, TaskInstanceState
from test_example_dag import xcom
from test_relay_pool import SMALL_CONTAINERS

from relaycp_airflow.operators import _alive

EXAMPLE_DAG = Path(__file__).resolve().parents[1] / "example_dags" / "relaycp_pooled_syncs.py"


@pytest.fixture(scope="module")
def dag():
    spec = importlib.util.spec_from_file_location("relaycp_pooled_syncs", EXAMPLE_DAG)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.dag


def run_conf(clusters, pool_folder: Path, folders: list[str], destination: str) -> dict:
    return {
        "src": clusters.source,
        "dst": clusters.destination + destination,
        "folders": folders,
        "src_conf": clusters.source_conf,
        "dst_conf": clusters.destination_conf,
        "pool_folder": str(pool_folder),
        "relaycp_conf": SMALL_CONTAINERS,
    }


def states(run) -> dict[tuple[str, int], str]:
    return {
        (ti.task_id, ti.map_index): ti.state for ti in run.get_task_instances()
    }


def test_the_copies_run_over_one_pool_which_the_teardown_stops(dag, yarn_clusters, tmp_path):
    run = dag.test(run_conf=run_conf(yarn_clusters, tmp_path, ["/demo"], "/pooled"))

    assert states(run) == {
        ("relays_up", -1): TaskInstanceState.SUCCESS,
        ("copies", -1): TaskInstanceState.SUCCESS,
        ("copy", 0): TaskInstanceState.SUCCESS,
        ("relays_down", -1): TaskInstanceState.SUCCESS,
    }
    assert run.state == DagRunState.SUCCESS
    started = xcom(run, "relays_up")
    summary = xcom(run, "copy")
    assert summary["destination"] == yarn_clusters.destination + "/pooled/demo"
    assert summary["files"] == yarn_clusters.files
    assert summary["verified"] is True
    assert summary["provisioner"] == "yarn-pool"
    assert not Path(started["pool_file"]).exists()
    assert not _alive(started["pid"])
    assert list(tmp_path.glob("*.json")) == []


def test_the_teardown_stops_the_pool_after_a_copy_failed(dag, yarn_clusters, tmp_path):
    run = dag.test(
        run_conf=run_conf(yarn_clusters, tmp_path, ["/demo", "/no-such-folder"], "/failing")
    )

    tis = {(ti.task_id, ti.map_index): ti for ti in run.get_task_instances()}
    assert run.state == DagRunState.FAILED
    assert tis[("copy", 0)].state == TaskInstanceState.SUCCESS
    assert tis[("copy", 1)].state == TaskInstanceState.FAILED
    # Bad input (exit 3) is not retried.
    assert tis[("copy", 1)].try_number == 1
    assert tis[("relays_down", -1)].state == TaskInstanceState.SUCCESS
    started = xcom(run, "relays_up")
    assert not Path(started["pool_file"]).exists()
    assert not _alive(started["pid"])
