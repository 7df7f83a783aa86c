"""Several folders synced to another cluster over one relay pool.

The pool's YARN relays start once, as the DAG run's setup task; every copy uses them
(``relay_pool``), one mapped task per folder; the teardown removes the pool file, which stops
the pool and ends its YARN applications, whether the copies succeeded or not. Copies in a row
over one pool skip each copy's relay start (``bench/results/lab-2026-12-03-relay-pool/``).

The pool file holds the relays' secret (readable by its owner only) and must be readable
where the copies and the teardown run: keep ``pool_folder`` on the worker's local disk with a
LocalExecutor, or with workers on several machines on HDFS (``hdfs://nn-a:8020/user/airflow``),
where relaycp reads it with the workers' Hadoop client.
"""

from __future__ import annotations

import datetime

from airflow.sdk import DAG, Param, task

from relaycp_airflow import (
    RelaycpOperator,
    RelaycpRelayPoolStartOperator,
    RelaycpRelayPoolStopOperator,
)

#: One pool file per DAG run: a run's pool never answers another run's copies.
POOL_FILE = (
    "{{ params.pool_folder }}/relaycp-pool-"
    "{{ run_id | replace(':', '-') | replace('+', '-') }}.json"
)

with DAG(
    dag_id="relaycp_pooled_syncs",
    schedule="0 2 * * *",
    start_date=datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
    catchup=False,
    params={
        "src": Param("hdfs://nn-a.example.com:8020", type="string"),
        "dst": Param("hdfs://nn-b.example.com:8020", type="string"),
        "folders": Param(["/data/events", "/data/users"], type="array"),
        "src_conf": Param("/etc/hadoop/conf.a", type="string"),
        "dst_conf": Param("/etc/hadoop/conf.b", type="string"),
        "pool_folder": Param("/var/tmp", type="string"),
        "relaycp_conf": Param({}, type="object"),
    },
    render_template_as_native_obj=True,
    tags=["relaycp"],
) as dag:
    relays_up = RelaycpRelayPoolStartOperator(
        task_id="relays_up",
        pool_file=POOL_FILE,
        src_conf="{{ params.src_conf }}",
        dst_conf="{{ params.dst_conf }}",
        # Long enough for the copies; the teardown stops it as soon as they are done.
        lifetime="6h",
        conf="{{ params.relaycp_conf }}",
    )

    @task
    def copies(params=None) -> list[dict]:
        return [
            {"src": params["src"] + folder, "dst": params["dst"] + folder}
            for folder in params["folders"]
        ]

    copy = RelaycpOperator.partial(
        task_id="copy",
        relay_pool=POOL_FILE,
        extra_args=["--overwrite", "--no-history"],
        # Exit code 4 (a cluster or relay unreachable) is retried; bad input is not.
        retries=2,
        retry_delay=datetime.timedelta(minutes=5),
    ).expand_kwargs(copies())

    relays_down = RelaycpRelayPoolStopOperator(
        task_id="relays_down",
        pool_file=POOL_FILE,
        start_task_id="relays_up",
    )

    relays_up >> copy >> relays_down.as_teardown(setups=relays_up)
