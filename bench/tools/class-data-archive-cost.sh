#!/usr/bin/env bash
# What the relays' class-data archive costs to make, and what it saves, on this machine: a
# static archive (-Xshare:dump, which runs interpreted) against the dynamic one relaycp makes
# (ClassListLoader in a JVM with -XX:ArchiveClassesAtExit), then the list's classes loaded
# from the jars, from each archive. Prints each step's wall and CPU seconds (/usr/bin/time).
#
#   bench/tools/class-data-archive-cost.sh CLASS_LIST RUNS JAR...
#
# CLASS_LIST is a relay's -XX:DumpLoadedClassList output, e.g. a lab node's
# $LAB_DIR/hosts/src-dn1/nm-local/usercache/root/relaycp-class-data/relay-*.lst.part-*, copied
# while its dump runs; JAR... is the relay's class path as a container has it, the relay jar
# first (its leading jars: the archive names no folder).
set -euo pipefail
list=$1 runs=$2; shift 2
classpath=$(IFS=:; echo "$*")
java=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}/bin/java
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timed() { local what=$1; shift; /usr/bin/time -f "$what: %e s wall, %U user + %S sys CPU-s" "$@" 2>&1 >/dev/null \
  | grep -v '^\[' | tail -n 1; }
echo "$(wc -l < "$list") lines in the class list, $# jars, $(nproc) cores, $(date -u +%FT%TZ)"
for run in $(seq "$runs"); do
  rm -f "$work"/*.jsa
  timed "run $run: static archive (-Xshare:dump)" "$java" -Xmx256m -Xshare:dump \
    -XX:SharedClassListFile="$list" -XX:SharedArchiveFile="$work/static.jsa" -cp "$classpath"
  timed "run $run: dynamic archive (ClassListLoader, -XX:ArchiveClassesAtExit)" "$java" -Xmx256m \
    -XX:TieredStopAtLevel=1 -XX:ArchiveClassesAtExit="$work/dynamic.jsa" -cp "$classpath" \
    dev.relaycp.provision.ClassListLoader "$list"
  ls -l "$work"/*.jsa | awk '{ print "  " $NF ": " $5 " bytes" }'
  for archive in none static dynamic; do
    options=(); [[ $archive == none ]] || options=(-Xshare:on -XX:SharedArchiveFile="$work/$archive.jsa")
    timed "run $run: the list's classes loaded, archive: $archive" "$java" -Xmx256m \
      -XX:TieredStopAtLevel=1 "${options[@]}" -cp "$classpath" dev.relaycp.provision.ClassListLoader "$list"
  done
done
