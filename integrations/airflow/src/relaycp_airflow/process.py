"""One run of the relaycp command line: its output streamed to a log, stoppable as a group."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

FAILURE_PREFIX = "relaycp: "
WARNING_PREFIX = "relaycp: warning:"


@dataclass(frozen=True)
class Finished:
    """How a run ended: its exit code, its standard output, and its one-line failure message.

    ``exit_code`` is negative when a signal ended the process (as in ``subprocess``).
    ``failure`` is the last line relaycp printed as ``relaycp: MESSAGE`` on standard error
    (warnings aside), without the prefix, or ``None``.
    """

    exit_code: int
    stdout: str
    failure: str | None


class RelaycpProcess:
    """Runs ``argv`` in a process group of its own, so that :meth:`stop` reaches the driver
    and every local relay it started."""

    def __init__(self, argv: Sequence[str], log: Callable[[str], None], env=None):
        if not argv:
            raise ValueError("argv is empty; give the relaycp command to run")
        self.argv = list(argv)
        self._log = log
        self._env = env
        self._process: subprocess.Popen | None = None
        self._started = threading.Event()

    @property
    def pid(self) -> int | None:
        """The driver's pid (also its process group's id), once started."""
        return self._process.pid if self._process else None

    def wait_started(self, timeout: float) -> bool:
        return self._started.wait(timeout)

    def run(self) -> Finished:
        """Starts the command, logs each line of its output as it comes, waits for its end."""
        self._process = subprocess.Popen(
            self.argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            start_new_session=True,
            env=self._env,
        )
        self._started.set()
        failures: list[str] = []

        def read_stderr():
            for line in self._process.stderr:
                line = line.rstrip("\n")
                self._log(line)
                failure = failure_message(line)
                if failure is not None:
                    failures.append(failure)

        errors = threading.Thread(target=read_stderr, name="relaycp-stderr", daemon=True)
        errors.start()
        stdout = []
        for line in self._process.stdout:
            stdout.append(line)
            self._log(line.rstrip("\n"))
        exit_code = self._process.wait()
        errors.join()
        return Finished(exit_code, "".join(stdout), failures[-1] if failures else None)

    def stop(self, grace_seconds: float) -> None:
        """SIGTERM to the whole group (relaycp then stops its relays and keeps what it staged
        for a resume), SIGKILL to what is left after ``grace_seconds``. Does nothing if it
        never started or has ended."""
        if self._process is None or self._process.poll() is not None:
            return
        stop_group(self._process, grace_seconds)


def failure_message(line: str) -> str | None:
    """The message of a line relaycp printed as ``relaycp: MESSAGE`` (not a warning), else None."""
    if line.startswith(FAILURE_PREFIX) and not line.startswith(WARNING_PREFIX):
        return line[len(FAILURE_PREFIX) :]
    return None


def stop_group(process: subprocess.Popen, grace_seconds: float) -> None:
    """SIGTERM to ``process``'s group (it leads one), SIGKILL to what is left of the group after
    ``grace_seconds``: the process may be gone while a relay it started still runs."""
    group = process.pid
    signal_group(group, signal.SIGTERM)
    try:
        process.wait(timeout=grace_seconds)
    except subprocess.TimeoutExpired:
        pass
    signal_group(group, signal.SIGKILL)


def signal_group(group: int, signum: int) -> None:
    try:
        os.killpg(group, signum)
    except ProcessLookupError:
        pass
