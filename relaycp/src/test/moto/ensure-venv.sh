#!/usr/bin/env bash
# Makes relaycp/target/moto-venv: a Python virtualenv with moto's server (EC2 and SSM emulation)
# that the aws spawn backend's tests run against (MotoServer.java finds it there). Idempotent:
# a venv whose moto_server already runs is kept. Needs python3 with venv and PyPI.
set -euo pipefail
module="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="$module/target/moto-venv"
# The version the tests were written against; 5.x serves EC2 and SSM on one port.
requirement='moto[server]==5.2.5'
if [ -x "$venv/bin/moto_server" ] && "$venv/bin/python" -c 'import moto.server' 2>/dev/null; then
  echo "moto venv ready: $venv"
  exit 0
fi
rm -rf "$venv"
mkdir -p "$module/target"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$requirement"
"$venv/bin/python" -c 'import moto.server' 
echo "moto venv made: $venv"
