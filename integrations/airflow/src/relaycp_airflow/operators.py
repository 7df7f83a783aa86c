"""``RelaycpOperator`` (copy) and ``RelaycpPlanOperator`` (plan)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from airflow.exceptions import AirflowException, AirflowFailException
from airflow.sdk import BaseOperator

from relaycp_airflow.process import RelaycpProcess

#: relaycp's exit codes (README "Exit codes"), and what Airflow does with each.
EXIT_CODES = {
    1: "internal error",
    2: "usage error",
    3: "bad input",
    4: "a cluster or relay is unreachable or failing",
    5: "verification failed",
}
#: Only an external failure may go away when the task is tried again.
RETRYABLE_EXIT_CODES = frozenset({4})


def default_command() -> list[str]:
    """How to start relaycp when an operator is not given ``command``.

    ``RELAYCP_COMMAND`` (split as a shell would), else ``hadoop jar $RELAYCP_JAR`` where
    ``RELAYCP_JAR`` names the product jar and a Hadoop client is on the PATH, else ``relaycp``
    (``bin/relaycp`` of a clone, on the PATH).
    """
    command = os.environ.get("RELAYCP_COMMAND")
    if command:
        return shlex.split(command)
    jar = os.environ.get("RELAYCP_JAR")
    if jar and shutil.which("hadoop"):
        return ["hadoop", "jar", jar]
    return ["relaycp"]


def command_environment() -> dict[str, str]:
    """The environment relaycp runs in: this process's, with ``HADOOP_CLIENT_SKIP_UNJAR=true``
    unless it is set.

    ``hadoop jar`` otherwise unpacks the whole product jar (some 19,000 files, 136 MB, most of
    them the AWS SDK's) into a temporary folder before relaycp starts, and removes them after:
    ``--version`` took 10-15 s so on the lab's machine, 0.5 s without
    (``bench/results/2026-12-03-hadoop-jar-unpacking/``). relaycp loads its classes and its
    relay jar from the jar itself and needs none of them unpacked.
    """
    merged = dict(os.environ)
    merged.setdefault("HADOOP_CLIENT_SKIP_UNJAR", "true")
    return merged


def failure_for(exit_code: int, message: str | None) -> AirflowException:
    """The exception that fails a task whose relaycp exited with ``exit_code``.

    4 (external) is an ``AirflowException``, which Airflow retries within the task's
    ``retries``; every other failure (bad input, verification failed, usage, internal) fails
    the same way again and is an ``AirflowFailException``, which is never retried. A run
    ended by a signal (the task was killed), seen as a negative code or as 128 + the signal's
    number (the JVM exits 143 on SIGTERM), is an ``AirflowException``.
    """
    if exit_code < 0 or exit_code > 128:
        signum = -exit_code if exit_code < 0 else exit_code - 128
        return AirflowException(f"relaycp was stopped by signal {signum}")
    meaning = EXIT_CODES.get(exit_code, "unknown exit code")
    text = f"relaycp exited with {exit_code} ({meaning}): {message or 'no message; see the log'}"
    if exit_code in RETRYABLE_EXIT_CODES:
        return AirflowException(text)
    return AirflowFailException(text)


def _hadoop_options(conf: Mapping[str, Any] | None) -> list[str]:
    options = []
    for key, value in (conf or {}).items():
        options += ["-D", f"{key}={value}"]
    return options


def _relay_list(relays: str | Sequence[str]) -> str:
    return relays if isinstance(relays, str) else ",".join(relays)


class _RelaycpRun(BaseOperator):
    """What both operators share: the command, its settings, its process, on_kill."""

    def __init__(
        self,
        *,
        conf: Mapping[str, Any] | None = None,
        extra_args: Sequence[str] = (),
        command: Sequence[str] | None = None,
        kill_grace_seconds: float = 30,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.conf = dict(conf or {})
        self.extra_args = list(extra_args)
        self.command = list(command) if command else None
        self.kill_grace_seconds = kill_grace_seconds
        self._process: RelaycpProcess | None = None

    def _run(self, arguments: list[str]):
        argv = (self.command or default_command()) + arguments
        self.log.info("Running %s", shlex.join(argv))
        self._process = RelaycpProcess(argv, self.log.info, env=command_environment())
        finished = self._process.run()
        if finished.exit_code != 0:
            raise failure_for(finished.exit_code, finished.failure)
        return finished

    def on_kill(self) -> None:
        if self._process is not None:
            self.log.info("Stopping relaycp (pid %s) and its relays", self._process.pid)
            self._process.stop(self.kill_grace_seconds)


class RelaycpOperator(_RelaycpRun):
    """Copies ``src`` to ``dst`` with ``relaycp copy`` and pushes its JSON summary to XCom.

    :param src: source file or directory URI (templated)
    :param dst: destination URI (templated)
    :param pairs: relay pairs started on the worker for the copy, ``"auto"`` for the
        planner's choice or a number (templated); ignored when ``relays`` is given
    :param relays: ``"yarn"`` to start relays as YARN containers on both clusters, or running
        source-site relays as ``host:port`` (a list or a comma-separated string; templated)
    :param dst_relays: running destination-site relays (templated)
    :param secret_file: the secret file running relays were started with (templated)
    :param conf: Hadoop and relaycp settings, passed as ``-D key=value`` (templated)
    :param extra_args: more ``relaycp copy`` arguments, e.g. ``["--overwrite"]`` (templated)
    :param command: how to start relaycp, e.g. ``["hadoop", "jar", "/opt/relaycp.jar"]``
        (templated); default :func:`default_command`
    :param kill_grace_seconds: after on_kill's SIGTERM, how long relaycp may take to stop its
        relays and mark its staging for a resume before its process group gets SIGKILL
    :param push_verification: also push the per-file checksum list (one entry per file; off
        by default to keep the XCom small: ``verified`` and ``files`` say the same in sum)

    The XCom ``return_value`` is the summary ``docs/report.schema.json`` describes. Exit
    codes: 4 fails the try so that Airflow retries it; 1, 2, 3 and 5 fail the task without
    retries, with relaycp's one-line message.
    """

    template_fields = (
        "src", "dst", "pairs", "relays", "dst_relays", "secret_file", "conf", "extra_args",
        "command",
    )
    ui_color = "#d8f0e4"

    def __init__(
        self,
        *,
        src: str,
        dst: str,
        pairs: int | str = "auto",
        relays: str | Sequence[str] | None = None,
        dst_relays: str | Sequence[str] | None = None,
        secret_file: str | None = None,
        push_verification: bool = False,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.src = src
        self.dst = dst
        self.pairs = pairs
        self.relays = relays
        self.dst_relays = dst_relays
        self.secret_file = secret_file
        self.push_verification = push_verification

    def copy_arguments(self, report: Path) -> list[str]:
        """The arguments after the command: ``copy SRC DST``, the relays, -D, extra_args."""
        arguments = ["copy", str(self.src), str(self.dst)]
        if self.relays:
            arguments += ["--relays", _relay_list(self.relays)]
            if self.dst_relays:
                arguments += ["--dst-relays", _relay_list(self.dst_relays)]
            if self.secret_file:
                arguments += ["--secret-file", str(self.secret_file)]
        else:
            arguments += ["--pairs", str(self.pairs)]
        arguments += _hadoop_options(self.conf)
        arguments += ["--no-progress", "--report", str(report)]
        return arguments + [str(argument) for argument in self.extra_args]

    def execute(self, context) -> dict[str, Any]:
        with tempfile.TemporaryDirectory(prefix="relaycp-airflow-") as work:
            report = Path(work) / "report.json"
            self._run(self.copy_arguments(report))
            summary = json.loads(report.read_text(encoding="utf-8"))
        self.log.info(
            "relaycp copied %s files (%s bytes) in %.1f s, all verified",
            summary["files"], summary["bytes"], summary["seconds"],
        )
        if not self.push_verification:
            summary.pop("verification", None)
        return summary


class RelaycpPlanOperator(_RelaycpRun):
    """Runs ``relaycp plan SRC DST --json`` and pushes the planner's table to XCom.

    The XCom ``return_value`` is the plan: ``rows`` (one per number of relay pairs, with
    predicted seconds and dollars), ``chosen`` (the row the objective picks, with its reason),
    ``distcpSeconds``, ``pretest`` and ``notes``. Options of ``relaycp plan`` such as
    ``--objective cheapest`` or ``--deadline 3600`` go in ``extra_args``; ``conf``,
    ``command`` and exit codes as for :class:`RelaycpOperator`.
    """

    template_fields = ("src", "dst", "conf", "extra_args", "command")
    ui_color = "#e4ecf8"

    def __init__(self, *, src: str, dst: str, **kwargs):
        super().__init__(**kwargs)
        self.src = src
        self.dst = dst

    def execute(self, context) -> dict[str, Any]:
        arguments = ["plan", str(self.src), str(self.dst), "--json"]
        arguments += _hadoop_options(self.conf)
        arguments += [str(argument) for argument in self.extra_args]
        plan = json.loads(self._run(arguments).stdout)
        chosen = plan["chosen"]
        self.log.info(
            "relaycp plan: %s pair(s), %.1f s predicted (%s)",
            chosen["pairs"], chosen["seconds"], chosen["reason"],
        )
        return plan
