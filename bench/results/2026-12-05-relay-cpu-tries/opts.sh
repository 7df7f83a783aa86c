#!/usr/bin/env bash
# relaycp option variants (LAB_RELAYCP_OPTIONS), one S k=0 copy each, rotating, on the lab that is up.
set -u
IFS=';' read -ra vs <<< "$VARIANTS"
for round in ${ROUNDS:-1 2}; do
  for v in "${vs[@]}"; do
    name=${v%%=*}; opts=${v#*=}
    echo "$(date +%T) round $round $name: $opts"
    LAB_RELAYCP_OPTIONS="$opts" LAB_RELAY_JAVA_OPTS="${RELAY_OPTS:--Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CompileThresholdScaling=0.5}" LAB_COPY_JAVA_OPTS="${DRIVER_OPTS:--Xmx512m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC}" \
      bash /work/main/bench/results/2026-12-04-relay-jit-thresholds/one-copy.sh $OUT/$name-$round > $OUT/$name-$round.log 2>&1
    python3 - "$OUT/$name-$round" <<'PY'
import json,sys,glob
f=glob.glob(sys.argv[1]+'/*.cpu')[0]; s=json.load(open(f))['seconds']
j=json.load(open(glob.glob(sys.argv[1]+'/*-k0.json')[0]))
print('   relays %.1f driver %.1f sum %.1f' % (s.get('relaycp-relay',0), s.get('relaycp-driver',0), s.get('relaycp-relay',0)+s.get('relaycp-driver',0)), 'wall', j['wall_seconds'], 'exit', j['exit_code'], {k:round(v,1) for k,v in s.items()})
PY
  done
done
