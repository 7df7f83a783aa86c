#!/usr/bin/env bash
# Prints the python of the lab report's virtualenv, making it first if it is missing or
# older than requirements.txt: target/lab-venv in the repository (RELAYCP_LAB_VENV to put it
# elsewhere), with the pinned packages of bench/lab.d/requirements.txt.
#
#   "$(bench/lab.d/venv.sh)" bench/lab.d/report.py RUN_DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${RELAYCP_LAB_VENV:-$here/../../target/lab-venv}"
requirements="$here/requirements.txt"
if [[ ! -x "$venv/bin/python" || "$requirements" -nt "$venv/.installed" ]]; then
  echo "relaycp lab: making the report's virtualenv in $venv" >&2
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
  touch "$venv/.installed"
fi
echo "$venv/bin/python"
