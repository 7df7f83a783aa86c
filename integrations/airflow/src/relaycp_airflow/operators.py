"""``RelaycpOperator`` (copy), ``RelaycpPlanOperator`` (plan), and the relay pool's setup and
teardown: ``RelaycpRelayPoolStartOperator`` and ``RelaycpRelayPoolStopOperator``."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from airflow.exceptions import AirflowException, AirflowFailException
from airflow.sdk import BaseOperator

from relaycp_airflow.process import (
    RelaycpProcess,
    failure_message,
    signal_group,
    stop_group,
)

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


def _relay_list(relays: str | Sequence[str]) -> str:
    return relays if isinstance(relays, str) else ",".join(relays)


class _RelaycpCommand(BaseOperator):
    """What every relaycp operator shares: how relaycp starts (``command``) and the settings
    and arguments each of its runs takes (``conf``, ``extra_args``)."""

    def __init__(
        self,
        *,
        conf: Mapping[str, Any] | None = None,
        extra_args: Sequence[str] = (),
        command: Sequence[str] | None = None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        # Kept as given: a template (with render_template_as_native_obj) renders to a mapping.
        self.conf = conf if conf is not None else {}
        self.extra_args = list(extra_args)
        self.command = list(command) if command else None

    def _argv(self, arguments: list[str]) -> list[str]:
        """The command line that runs relaycp with ``arguments``."""
        return (self.command or default_command()) + arguments

    def _conf_arguments(self) -> list[str]:
        """``conf`` as ``-D key=value`` options."""
        options = []
        for key, value in (self.conf or {}).items():
            options += ["-D", f"{key}={value}"]
        return options

    def _extra_arguments(self) -> list[str]:
        return [str(argument) for argument in self.extra_args]


class _RelaycpRun(_RelaycpCommand):
    """What the copy and plan operators share: a run in the foreground, and on_kill."""

    def __init__(self, *, kill_grace_seconds: float = 30, **kwargs):
        super().__init__(**kwargs)
        self.kill_grace_seconds = kill_grace_seconds
        self._process: RelaycpProcess | None = None

    def _run(self, arguments: list[str]):
        argv = self._argv(arguments)
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
    :param dst_relays: running destination-site relays, or ``"yarn"`` for YARN to start the
        destination's relays across from running source-site ones in ``relays``; with
        ``relays="yarn"``, running destination relays here leave YARN to start the source's
        only (templated)
    :param secret_file: the secret file running relays were started with (templated)
    :param relay_pool: the pool file of a running ``relaycp relay-pool``
        (:class:`RelaycpRelayPoolStartOperator`) whose YARN relays the copy uses (templated);
        ``pairs``, ``relays``, ``dst_relays`` and ``secret_file`` are then not passed
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
        "src", "dst", "pairs", "relays", "dst_relays", "secret_file", "relay_pool", "conf",
        "extra_args", "command",
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
        relay_pool: str | None = None,
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
        self.relay_pool = relay_pool
        self.push_verification = push_verification

    def copy_arguments(self, report: Path) -> list[str]:
        """The arguments after the command: ``copy SRC DST``, the relays, -D, extra_args."""
        arguments = ["copy", str(self.src), str(self.dst)]
        if self.relay_pool:
            arguments += ["--relay-pool", str(self.relay_pool)]
        elif self.relays:
            arguments += ["--relays", _relay_list(self.relays)]
            if self.dst_relays:
                arguments += ["--dst-relays", _relay_list(self.dst_relays)]
            if self.secret_file:
                arguments += ["--secret-file", str(self.secret_file)]
        else:
            arguments += ["--pairs", str(self.pairs)]
        arguments += self._conf_arguments()
        arguments += ["--no-progress", "--report", str(report)]
        return arguments + self._extra_arguments()

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
        arguments += self._conf_arguments() + self._extra_arguments()
        plan = json.loads(self._run(arguments).stdout)
        chosen = plan["chosen"]
        self.log.info(
            "relaycp plan: %s pair(s), %.1f s predicted (%s)",
            chosen["pairs"], chosen["seconds"], chosen["reason"],
        )
        return plan


def _last_failure(log: Path) -> str | None:
    """relaycp's last ``relaycp: MESSAGE`` line in ``log`` (warnings aside), without the prefix."""
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        failure = failure_message(line)
        if failure is not None:
            return failure
    return None


#: What ``relaycp relay-pool`` prints once its relays are up and its file is written.
POOL_UP = "relaycp: relay pool up:"


def _local_path(pool_file: str) -> Path | None:
    """``pool_file`` as a path on this machine; None for a Hadoop URI (hdfs://...)."""
    parts = urlsplit(pool_file)
    if parts.scheme == "file":
        return Path(parts.path)
    return Path(pool_file) if parts.scheme == "" else None


def _pool_log(pool_file: str, task_id: str) -> Path:
    """Where the pool's output goes: beside a local pool file, else in the temporary folder."""
    local = _local_path(pool_file)
    if local is not None:
        return Path(f"{local}.log")
    digest = hashlib.sha256(pool_file.encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"relaycp-pool-{task_id}-{digest}.log"


def _says_up(log: Path) -> bool:
    try:
        return POOL_UP in log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs and is not a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


class RelaycpRelayPoolStartOperator(_RelaycpCommand):
    """Starts ``relaycp relay-pool`` in the background and succeeds once its YARN relays are up.

    Meant as a DAG's setup task, with :class:`RelaycpRelayPoolStopOperator` as its teardown:
    the copies between them (``RelaycpOperator(relay_pool=...)``) use relays started once
    instead of starting their own (``bench/results/lab-2026-12-03-relay-pool/``: a copy of
    5,000 small files 32.5-36.4 s over a warm pool against 51.2-59.7 s over relays of its own).

    The pool runs in a session of its own on this worker, beyond this task, until the pool
    file is removed (the teardown does), ``lifetime`` passes, or it gets SIGTERM; its output
    goes to ``POOL_FILE.log`` (for a pool file on HDFS, to a file in this worker's temporary
    folder). The task succeeds once the pool says its relays are up. The copies read the pool
    file, so they must run where it can be read: on this worker, on a file system every
    worker shares, or anywhere with ``pool_file`` on HDFS (``hdfs://nn:8020/user/me/x.pool``).

    :param pool_file: where the pool describes its relays and secret: a path, or a Hadoop URI
        (templated)
    :param src_conf: the source cluster's Hadoop configuration folder (templated)
    :param dst_conf: the destination cluster's (templated)
    :param relays_per_site: relays per site; default one per datanode
    :param lifetime: ``--for``: how long the pool may live at most, e.g. ``"8h"`` (templated)
    :param start_timeout_seconds: how long the relays may take to come up before the task
        stops the pool and fails
    :param conf: Hadoop and relaycp settings, passed as ``-D key=value`` (templated; a
        mapping, or with ``render_template_as_native_obj`` a template that renders to one)
    :param extra_args, command: as for :class:`RelaycpOperator`

    The XCom ``return_value``: ``pool_file``, ``pid`` and ``host`` of the pool's process,
    ``log``, and ``src_conf`` and ``dst_conf`` (for the stop). Exit codes fail the task as a copy's do; a pool still starting when the
    timeout passes is stopped and the task fails for a retry.
    """

    template_fields = (
        "pool_file", "src_conf", "dst_conf", "lifetime", "conf", "extra_args", "command",
    )
    ui_color = "#f4ecd8"

    def __init__(
        self,
        *,
        pool_file: str,
        src_conf: str | None = None,
        dst_conf: str | None = None,
        relays_per_site: int | None = None,
        lifetime: str = "8h",
        start_timeout_seconds: float = 600,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.pool_file = pool_file
        self.src_conf = src_conf
        self.dst_conf = dst_conf
        self.relays_per_site = relays_per_site
        self.lifetime = lifetime
        self.start_timeout_seconds = start_timeout_seconds
        self._process: subprocess.Popen | None = None

    def pool_arguments(self) -> list[str]:
        """The arguments after the command: ``relay-pool --pool-file FILE --for ...``."""
        arguments = ["relay-pool", "--pool-file", str(self.pool_file), "--for", str(self.lifetime)]
        if self.src_conf:
            arguments += ["--src-conf", str(self.src_conf)]
        if self.dst_conf:
            arguments += ["--dst-conf", str(self.dst_conf)]
        if self.relays_per_site is not None:
            arguments += ["--relays-per-site", str(self.relays_per_site)]
        return arguments + self._conf_arguments() + self._extra_arguments()

    def execute(self, context) -> dict[str, Any]:
        pool = str(self.pool_file)
        log = _pool_log(pool, self.task_id)
        argv = self._argv(self.pool_arguments())
        self.log.info("Starting %s; its output goes to %s", shlex.join(argv), log)
        with log.open("w", encoding="utf-8") as output:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env=command_environment(),
            )
        deadline = time.monotonic() + self.start_timeout_seconds
        # The pool says it is up once its file is written whole; the log is this start's own.
        while not _says_up(log):
            exit_code = self._process.poll()
            if exit_code is not None:
                raise failure_for(exit_code, _last_failure(log))
            if time.monotonic() > deadline:
                self._stop(30)
                raise AirflowException(
                    f"the relay pool was not up after {self.start_timeout_seconds:.0f} s;"
                    f" it was stopped; see {log}"
                )
            time.sleep(0.5)
        self.log.info("Relay pool up (pid %s): %s", self._process.pid, pool)
        return {
            "pool_file": pool,
            "pid": self._process.pid,
            "host": socket.gethostname(),
            "log": str(log),
            "src_conf": self.src_conf,
            "dst_conf": self.dst_conf,
        }

    def _stop(self, grace_seconds: float) -> None:
        if self._process is None or self._process.poll() is not None:
            return
        stop_group(self._process, grace_seconds)
        self._process.wait()

    def on_kill(self) -> None:
        """A start killed while the relays come up stops the pool (it ends its applications)."""
        if self._process is not None and self._process.poll() is None:
            self.log.info("Stopping the relay pool (pid %s)", self._process.pid)
            self._stop(30)


class RelaycpRelayPoolStopOperator(_RelaycpCommand):
    """Stops a relay pool with ``relaycp relay-pool --stop``, from any worker that reads its
    file.

    Meant as the teardown of :class:`RelaycpRelayPoolStartOperator`'s setup
    (``stop.as_teardown(setups=start)``), so that it runs whether the copies succeeded or
    not. relaycp removes the pool file, which the pool notices within a second, waits until
    both ResourceManagers report the pool's applications ended, and kills those still running
    after ``stop_timeout_seconds`` (a pool whose process hangs). It reaches the
    ResourceManagers through ``src_conf`` and ``dst_conf``, by default the start task's (when
    ``start_task_id`` names it). Where the start ran on this worker, the task also waits for
    the pool's process to end, and sends it SIGTERM if it outlives the stop. A pool file
    already gone is not an error: the pool has already stopped.

    :param pool_file: the pool file (templated)
    :param start_task_id: the start task whose XCom says where the pool runs
    :param stop_timeout_seconds: how long the pool may take to end its applications
    :param src_conf, dst_conf: the clusters' Hadoop configuration folders (templated)
    :param conf, extra_args, command: as for :class:`RelaycpOperator`
    """

    template_fields = ("pool_file", "src_conf", "dst_conf", "conf", "extra_args", "command")
    ui_color = "#f4ecd8"

    def __init__(
        self,
        *,
        pool_file: str,
        start_task_id: str | None = None,
        stop_timeout_seconds: float = 120,
        src_conf: str | None = None,
        dst_conf: str | None = None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.pool_file = pool_file
        self.start_task_id = start_task_id
        self.stop_timeout_seconds = stop_timeout_seconds
        self.src_conf = src_conf
        self.dst_conf = dst_conf

    def stop_arguments(self, started: Mapping[str, Any] | None) -> list[str]:
        """The arguments after the command: ``relay-pool --stop --pool-file FILE ...``."""
        arguments = [
            "relay-pool", "--stop", "--pool-file", str(self.pool_file),
            "--stop-timeout", f"{max(1, round(self.stop_timeout_seconds))}s",
        ]
        src_conf = self.src_conf or (started or {}).get("src_conf")
        dst_conf = self.dst_conf or (started or {}).get("dst_conf")
        if src_conf:
            arguments += ["--src-conf", str(src_conf)]
        if dst_conf:
            arguments += ["--dst-conf", str(dst_conf)]
        return arguments + self._conf_arguments() + self._extra_arguments()

    def execute(self, context) -> None:
        started = None
        if self.start_task_id:
            started = context["ti"].xcom_pull(task_ids=self.start_task_id)
        argv = self._argv(self.stop_arguments(started))
        self.log.info("Running %s", shlex.join(argv))
        finished = RelaycpProcess(argv, self.log.info, env=command_environment()).run()
        if finished.exit_code != 0:
            raise failure_for(finished.exit_code, finished.failure)
        self.log.info("%s", finished.stdout.strip())
        if not started or started.get("host") != socket.gethostname():
            return
        self.wait_for(int(started["pid"]))

    def wait_for(self, pid: int) -> None:
        """Waits for the pool's process ``pid`` to end; SIGTERM to its group past the timeout."""
        deadline = time.monotonic() + self.stop_timeout_seconds
        while _alive(pid):
            if time.monotonic() > deadline:
                self.log.warning("The relay pool (pid %s) is still running: SIGTERM", pid)
                signal_group(pid, signal.SIGTERM)
                return
            time.sleep(0.5)
        self.log.info("The relay pool (pid %s) has ended", pid)
