"""A nightly sync of one folder to another cluster: plan, copy, then use the copy's summary.

Trigger it with a conf to copy other folders: ``{"src": ..., "dst": ..., "pairs": "2"}``.
"""

from __future__ import annotations

import datetime

from airflow.sdk import DAG, Param, task

from relaycp_airflow import RelaycpOperator, RelaycpPlanOperator

with DAG(
    dag_id="relaycp_nightly_sync",
    schedule="30 1 * * *",
    start_date=datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
    catchup=False,
    params={
        "src": Param("hdfs://nn-a.example.com:8020/data/events", type="string"),
        "dst": Param("hdfs://nn-b.example.com:8020/data/events", type="string"),
        "pairs": Param("auto", type="string"),
    },
    tags=["relaycp"],
) as dag:
    plan = RelaycpPlanOperator(
        task_id="plan",
        src="{{ params.src }}",
        dst="{{ params.dst }}",
    )

    copy = RelaycpOperator(
        task_id="copy",
        src="{{ params.src }}",
        dst="{{ params.dst }}",
        pairs="{{ params.pairs }}",
        conf={"relaycp.copy.max-auto-pairs": 4},
        extra_args=["--overwrite", "--no-history"],
        # Exit code 4 (a cluster or relay unreachable) is retried; bad input is not.
        retries=2,
        retry_delay=datetime.timedelta(minutes=5),
    )

    @task
    def announce(summary: dict, plan: dict) -> str:
        predicted = plan["chosen"]["seconds"]
        return (
            f"copied {summary['files']} files ({summary['bytes']} bytes) in "
            f"{summary['seconds']:.1f} s over {summary['routes']} routes; "
            f"the planner predicted {predicted:.1f} s"
        )

    announce(copy.output, plan.output)
