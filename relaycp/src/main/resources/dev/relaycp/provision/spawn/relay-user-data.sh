#!/bin/bash
# relaycp: the start-up script (EC2 user-data) of a relay host spawned for one transfer.
# Runs once, as root, by cloud-init. Placeholders are names in double braces; each becomes one
# single-quoted shell word, except relay_command, which is put in as it is set. They are:
#   region                  the host's region, where the secret parameter is
#   parameter               the SSM SecureString parameter holding the transfer's secret
#   tls_parameter           the SSM SecureString parameter holding the driver's TLS key and
#                           certificate (PEM), which the relay shows instead of making its
#                           own; empty when the relay connections run without TLS
#   port                    the port the relay listens on
#   heartbeat               the driver's heartbeat file (a Hadoop URI) the relay follows
#   driver_timeout_seconds  how long the relay runs without a heartbeat
#   transfer, site, slot    which transfer, site (src or dst) and slot this host is
#   relay_command           the command that runs relaycp (relaycp.spawn.aws.relay-command)
# The transfer's secret (and the driver's TLS key) is not in this script: the host reads it
# from SSM with its instance role into a file only root can read.
# The host powers off when the relay ends (the instance is set to terminate on shutdown), and
# the relay ends when the driver's heartbeat stops.
set -u
region={{region}}
parameter={{parameter}}
tls_parameter={{tls_parameter}}
port={{port}}
heartbeat={{heartbeat}}
driver_timeout={{driver_timeout_seconds}}
log=/var/log/relaycp-relay.log
secret_dir=/run/relaycp
secret_file="$secret_dir/secret"
identity_file="$secret_dir/tls-identity.pem"

umask 077
mkdir -p "$secret_dir"
# Under `hadoop jar`, run the jar where it is: unpacking its ~19,000 files first took seconds
# of the relay's start (HADOOP-15477; an image's own setting wins).
export HADOOP_CLIENT_SKIP_UNJAR="${HADOOP_CLIENT_SKIP_UNJAR:-true}"
echo "relaycp transfer "{{transfer}}", "{{site}}" slot "{{slot}}": starting" >> "$log"
if aws ssm get-parameter --region "$region" --name "$parameter" --with-decryption \
    --query Parameter.Value --output text > "$secret_file" 2>> "$log"; then
  chmod 600 "$secret_file"
  identity=()
  # Without it the relay makes a TLS key of its own, a few tenths of a CPU-second more.
  if [ -n "$tls_parameter" ] && aws ssm get-parameter --region "$region" \
      --name "$tls_parameter" --with-decryption --query Parameter.Value --output text \
      > "$identity_file" 2>> "$log"; then
    identity=(--tls-identity-file "$identity_file")
  fi
  {{relay_command}} relay -D relaycp.relay.driver-timeout-seconds="$driver_timeout" \
      --port "$port" --secret-file "$secret_file" --driver-heartbeat "$heartbeat" \
      "${identity[@]}" >> "$log" 2>&1
  echo "relaycp relay ended with $?" >> "$log"
else
  echo "cannot read the transfer secret $parameter in $region" >> "$log"
fi
rm -f "$secret_file" "$identity_file"
shutdown -h now
