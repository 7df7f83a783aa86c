#!/usr/bin/env bash
# relaycp's --spawn-command and --release-command in the WAN lab (its exec backend):
#
#   spawn-request.sh spawn SITE SLOT     prints the spawned relay's host:port
#   spawn-request.sh release SITE SLOT   removes the host
#
# relaycp runs it inside the driver's namespace, where no namespace can be made, so it only
# hands the request to the lab's spawn service (run.sh, in the root namespace) through files
# in $LAB_DIR/spawn and waits for the answer. The request carries the paths relaycp puts in
# the environment (RELAYCP_SECRET_FILE, RELAYCP_TLS_IDENTITY_FILE, RELAYCP_DRIVER_HEARTBEAT),
# never the secret or the key itself.
set -euo pipefail
action=${1:?usage: spawn-request.sh spawn|release SITE SLOT} site=${2:?site} slot=${3:?slot}
dir=${LAB_DIR:-/tmp/relaycp-lab}/spawn
name="$action-$site-$slot"
mkdir -p "$dir/requests" "$dir/replies"
rm -f "$dir/replies/$name"
{
  echo "RELAYCP_SECRET_FILE=${RELAYCP_SECRET_FILE:-}"
  echo "RELAYCP_TLS_IDENTITY_FILE=${RELAYCP_TLS_IDENTITY_FILE:-}"
  echo "RELAYCP_DRIVER_HEARTBEAT=${RELAYCP_DRIVER_HEARTBEAT:-}"
  echo "RELAYCP_DRIVER_TIMEOUT_SECONDS=${RELAYCP_DRIVER_TIMEOUT_SECONDS:-60}"
} > "$dir/requests/.$name"
mv "$dir/requests/.$name" "$dir/requests/$name"
for _ in $(seq 1200); do
  if [[ -s "$dir/replies/$name" ]]; then cat "$dir/replies/$name"; exit 0; fi
  sleep 0.1
done
echo "the lab's spawn service did not answer $name within 120 s (is a lab run going?)" >&2
exit 1
