"""The example DAG run with dag.test(): a real copy between the two embedded clusters."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from airflow.models.taskinstance import TaskInstance
from airflow.utils.state import DagRunState, TaskInstanceState

EXAMPLE_DAG = Path(__file__).resolve().parents[1] / "example_dags" / "relaycp_nightly_sync.py"


@pytest.fixture(scope="module")
def dag():
    spec = importlib.util.spec_from_file_location("relaycp_nightly_sync", EXAMPLE_DAG)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.dag


def task_instances(run) -> dict[str, TaskInstance]:
    return {ti.task_id: ti for ti in run.get_task_instances()}


def xcom(run, task_id: str):
    from airflow.models.xcom import XComModel
    from airflow.utils.session import create_session

    with create_session() as session:
        values = session.scalars(
            XComModel.get_many(
                run_id=run.run_id, dag_ids=run.dag_id, task_ids=task_id, key="return_value"
            )
        ).all()
        assert len(values) == 1, f"one return_value from {task_id}"
        return XComModel.deserialize_value(values[0])


def test_a_nightly_sync_copies_the_tree_and_pushes_its_summary(dag, clusters):
    run = dag.test(
        run_conf={
            "src": clusters.dataset,
            "dst": clusters.destination + "/nightly",
            "pairs": "2",
        }
    )

    states = {task: ti.state for task, ti in task_instances(run).items()}
    assert states == {
        "plan": TaskInstanceState.SUCCESS,
        "copy": TaskInstanceState.SUCCESS,
        "announce": TaskInstanceState.SUCCESS,
    }
    assert run.state == DagRunState.SUCCESS
    summary = xcom(run, "copy")
    assert summary["source"] == clusters.dataset
    assert summary["destination"] == clusters.destination + "/nightly"
    assert summary["files"] == clusters.files
    assert summary["bytes"] == clusters.bytes
    assert summary["verified"] is True
    assert summary["provisioner"] == "local"
    assert summary["routes"] == 2
    assert "verification" not in summary
    plan = xcom(run, "plan")
    assert plan["files"] == clusters.files
    assert xcom(run, "announce").startswith(
        f"copied {clusters.files} files ({clusters.bytes} bytes) in "
    )


def test_a_missing_source_fails_the_copy_once_with_relaycps_message(dag, clusters, capfd):
    run = dag.test(
        run_conf={
            "src": clusters.source + "/no-such-folder",
            "dst": clusters.destination + "/never",
            "pairs": "2",
        }
    )

    tis = task_instances(run)
    assert run.state == DagRunState.FAILED
    assert tis["copy"].state == TaskInstanceState.FAILED
    # retries=2 in the DAG, but bad input (exit 3) is not retried.
    assert tis["copy"].try_number == 1
    assert tis["announce"].state == TaskInstanceState.UPSTREAM_FAILED
    output = capfd.readouterr()
    assert "relaycp exited with 3 (bad input): source " in output.out + output.err
    assert "/no-such-folder does not exist; check the path" in output.out + output.err
