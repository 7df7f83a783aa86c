#!/usr/bin/env bash
# VARIANTS: name=bin;name=bin ; relay opts RELAY_OPTS; driver DRIVER_OPTS
set -u
IFS=';' read -ra vs <<< "$VARIANTS"
for round in ${ROUNDS:-1 2}; do
  for v in "${vs[@]}"; do
    name=${v%%=*}; bin=${v#*=}
    echo "$(date +%T) round $round $name: $bin"
    RELAYCP_BIN=$bin LAB_RELAY_JAVA_OPTS="$RELAY_OPTS" LAB_COPY_JAVA_OPTS="$DRIVER_OPTS" \
      bash "$(dirname "$0")/one-copy.sh" $OUT/$name-$round > $OUT/$name-$round.log 2>&1
    python3 - "$OUT/$name-$round" <<'PY'
import json,sys,glob
f=glob.glob(sys.argv[1]+'/*.cpu')[0]; s=json.load(open(f))['seconds']
j=json.load(open(glob.glob(sys.argv[1]+'/*-k0.json')[0]))
print('   relays %.1f driver %.1f sum %.1f wall %.1f exit %s' % (s.get('relaycp-relay',0), s.get('relaycp-driver',0), s.get('relaycp-relay',0)+s.get('relaycp-driver',0), j['wall_seconds'], j['exit_code']))
PY
  done
done
