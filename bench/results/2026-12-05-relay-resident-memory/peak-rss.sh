#!/usr/bin/env bash
# usage: rss.sh PID OUT — records RSS peak (VmHWM, KiB) of every descendant JVM of PID each second
root=$1; out=$2
: > $out
desc() { local c; for c in $(ps -o pid= --ppid $1); do echo $c; desc $c; done; }
while kill -0 $root 2>/dev/null; do
  for p in $(desc $root); do
    c=$(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null | grep -o 'dev.relaycp.cli.[A-Za-z]*Main[ a-z-]*' | head -1)
    [ -n "$c" ] || continue
    h=$(awk '/VmHWM/{print $2}' /proc/$p/status 2>/dev/null)
    x=$(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null | grep -o -- '-Xmx[0-9]*[mg]' | tail -1)
    echo "$(date +%s) $p $h $x $c" >> $out
  done
  sleep 1
done
