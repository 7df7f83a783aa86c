#!/bin/bash
# JDK TLS against OpenSSL TLS in the relays, one session, same build: large files then small.
cd "$(dirname "$0")/../../.."
C1="-Xmx384m -XX:TieredStopAtLevel=1"
for round in 1 2; do
for variant in jdk openssl; do
  opts="$C1"; [ $variant = jdk ] && opts="$C1 -Dio.netty.handler.ssl.noOpenSsl=true"
  echo "== round $round large $variant: bin/relaycp bench small-files --files 6 --file-bytes 67108864 --pairs 3 --runs 2 --relay-java-opts \"$opts\""
  bin/relaycp bench small-files --files 6 --file-bytes 67108864 --pairs 3 --runs 2 --relay-java-opts "$opts" 2>/dev/null | grep "^run"
done
done
for variant in jdk openssl; do
  opts="$C1"; [ $variant = jdk ] && opts="$C1 -Dio.netty.handler.ssl.noOpenSsl=true"
  echo "== small $variant: bin/relaycp bench small-files --files 3000 --file-bytes 65536 --pairs 3 --runs 2 --relay-java-opts \"$opts\""
  bin/relaycp bench small-files --files 3000 --file-bytes 65536 --pairs 3 --runs 2 --relay-java-opts "$opts" 2>/dev/null | grep "^run"
done
