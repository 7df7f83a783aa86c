#!/usr/bin/env bash
# The Airflow provider's checks, run by .ci/run after the Maven build (the tests start
# bin/relaycp, which needs the jars it builds): a virtualenv in target/airflow-venv with
# Airflow 3 and the pinned test tools (made once, reused while requirements and constraints
# are unchanged), ruff over the provider, its tests and the docker/ checks, then pytest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="$repo/target/airflow-venv"
python="${PYTHON:-python3}"

stamp="$venv/.relaycp-requirements"
wanted="$(cat "$here/requirements-test.txt" "$here/constraints.txt" "$here/pyproject.toml" | sha256sum | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "airflow: making $venv (Airflow 3 and the test tools, pinned)"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install -q -r "$here/requirements-test.txt" -c "$here/constraints.txt"
  "$venv/bin/pip" install -q --no-deps -e "$here"
  echo "$wanted" > "$stamp"
fi

cd "$here"
"$venv/bin/ruff" check .
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
