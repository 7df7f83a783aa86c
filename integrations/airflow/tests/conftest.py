"""Airflow's home, database and DAG folder for the tests, and the two embedded HDFS clusters.

The environment is set before anything imports Airflow, which reads it once.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

INTEGRATION = Path(__file__).resolve().parents[1]
REPO = INTEGRATION.parents[1]
RELAYCP = REPO / "bin" / "relaycp"
WORK = REPO / "target" / "airflow-tests"

shutil.rmtree(WORK, ignore_errors=True)
WORK.mkdir(parents=True)
os.environ.update(
    {
        "AIRFLOW_HOME": str(WORK / "airflow-home"),
        "AIRFLOW__CORE__DAGS_FOLDER": str(INTEGRATION / "example_dags"),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
        # The operators start relaycp from this clone.
        "RELAYCP_COMMAND": str(RELAYCP),
        # A copy records measured rates below XDG_CONFIG_HOME: never the user's own.
        "XDG_CONFIG_HOME": str(WORK / "config-home"),
    }
)


@pytest.fixture(scope="session", autouse=True)
def airflow_database():
    """A fresh SQLite metadata database, as `airflow db migrate` makes it."""
    subprocess.run(
        [sys.executable, "-m", "airflow", "db", "migrate"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


class DemoClusters:
    """`relaycp demo-clusters`: two embedded HDFS clusters, the demo's dataset on the source;
    with ``yarn``, a MiniYARNCluster beside each and their configuration folders."""

    def __init__(self, yarn: bool = False):
        self.log = WORK / ("demo-clusters-yarn.log" if yarn else "demo-clusters.log")
        self.process = subprocess.Popen(
            [str(RELAYCP), "demo-clusters"] + (["--yarn"] if yarn else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log.open("w"),
            text=True,
        )
        line = self.process.stdout.readline()
        if not line:
            self.process.wait()
            raise RuntimeError(
                f"relaycp demo-clusters exited {self.process.returncode} before it was up: "
                + self.log.read_text()[-2000:]
            )
        ready = json.loads(line)
        self.source = ready["source"]
        self.destination = ready["destination"]
        self.dataset = self.source + ready["dataset"]
        self.files = ready["files"]
        self.bytes = ready["bytes"]
        self.source_conf = ready.get("sourceConf")
        self.destination_conf = ready.get("destinationConf")

    def stop(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def clusters():
    running = DemoClusters()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def yarn_clusters():
    running = DemoClusters(yarn=True)
    yield running
    running.stop()
