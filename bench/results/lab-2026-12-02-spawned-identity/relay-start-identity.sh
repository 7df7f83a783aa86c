#!/usr/bin/env bash
# CPU of a relay started as the lab starts a spawned one (bin/relaycp relay, the lab's
# LAB_SPAWNED_JAVA_OPTS), at "listening" and 4 s later: with TLS and a key of its own, with TLS
# and the driver's identity (--tls-identity-file), and with TLS off. Three rounds, alternating.
# (That a relay adopts the identity is tested: SpawnedRelaysCopyTest reads its log.)
# Run from anywhere, the machine otherwise idle:
#   bash bench/results/2026-12-02-spawned-relay-identity/relay-start-identity.sh
set -u
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
umask 077
openssl rand -hex 32 > "$work/secret"
# An identity as the driver writes it: an EC P-256 key (PKCS #8) and a self-signed certificate.
openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt > "$work/key.pem"
openssl req -new -x509 -key "$work/key.pem" -subj /CN=relaycp -days 1 > "$work/cert.pem"
cat "$work/key.pem" "$work/cert.pem" > "$work/identity.pem"
relaycp="$(cd "$(dirname "$0")/../../.." && pwd)/bin/relaycp"
hz=$(getconf CLK_TCK)
for run in 1 2 3; do
for variant in own-key driver-identity tls-off; do
  case $variant in
    own-key) extra=(); tls=true ;;
    driver-identity) extra=(--tls-identity-file "$work/identity.pem"); tls=true ;;
    tls-off) extra=(); tls=false ;;
  esac
  out="$work/relay.out"; : > "$out"
  JAVA_OPTS="-Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC" "$relaycp" \
    -D relaycp.relay.tls=$tls relay --port 0 --secret-file "$work/secret" "${extra[@]}" \
    > "$out" 2>&1 &
  pid=$!
  t0=$(date +%s.%N)
  until grep -qs "listening on" "$out"; do
    sleep 0.02; kill -0 $pid 2>/dev/null || { cat "$out"; break; }
  done
  t1=$(date +%s.%N)
  c1=$(awk -v hz=$hz '{printf "%.2f", ($14+$15)/hz}' /proc/$pid/stat)
  sleep 4
  c2=$(awk -v hz=$hz '{printf "%.2f", ($14+$15)/hz}' /proc/$pid/stat)
  kill -TERM $pid; wait $pid 2>/dev/null
  printf 'run %s %-15s listen_s %.2f cpu_at_listen %s cpu_4s_later %s\n' $run $variant \
    "$(echo "$t1 - $t0" | bc)" "$c1" "$c2"
done; done
