# shellcheck shell=bash
# Probe the caps with iperf3: one cross-site pair, one in-site pair, each direction.
probe_caps() {
  local out=${1:-}
  command -v iperf3 >/dev/null || { log "installing iperf3"; apt-get install -y -qq iperf3 >/dev/null; }
  local secs=${LAB_PROBE_SECONDS:-10}
  local pairs="src-dn1:dst-dn1 dst-dn1:src-dn1 src-dn1:src-dn2 dst-dn2:dst-dn1"
  local p a b res
  [[ -n $out ]] && mkdir -p "$out"
  local json="[" first=1
  for p in $pairs; do
    a=${p%%:*}; b=${p##*:}
    ip netns exec "$(ns_of "$b")" iperf3 -s -1 -B "$(host_ip "$b")" -p 5201 >/dev/null 2>&1 &
    local spid=$!
    sleep 0.5
    local cmdline="ip netns exec $(ns_of "$a") iperf3 -c $(host_ip "$b") -p 5201 -t $secs -O 2 -J"
    res=$($cmdline) || { kill "$spid" 2>/dev/null; die "iperf3 $a -> $b failed"; }
    wait "$spid" 2>/dev/null || true
    local mbit kind cap
    mbit=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(round(d["end"]["sum_received"]["bits_per_second"]/1e6,2))' <<<"$res")
    if [[ $(site_of "$a") == $(site_of "$b") ]]; then kind=in-site; cap=$LAB_VI_MBIT; else kind=cross-site; cap=$LAB_VE_MBIT; fi
    printf '%-11s %-8s -> %-8s %8s Mbit/s (cap %s, %s%%)\n' "$kind" "$a" "$b" "$mbit" "$cap" \
      "$(python3 -c "print(round(100*$mbit/$cap,1))")"
    [[ $first == 1 ]] || json+=","
    first=0
    json+="{\"kind\":\"$kind\",\"from\":\"$a\",\"to\":\"$b\",\"mbit_per_s\":$mbit,\"cap_mbit\":$cap,\"seconds\":$secs,\"command\":\"$cmdline\"}"
    [[ -n $out ]] && echo "$res" > "$out/iperf3-$a-$b.json"
  done
  # Fan-in: two hosts of the other site send to one host at once; the receiving
  # side's bridge-port class must hold their sum to v_e.
  local r=src-dn1 s1=dst-dn1 s2=dst-dn2 total
  ip netns exec "$(ns_of "$r")" iperf3 -s -1 -B "$(host_ip "$r")" -p 5202 >/dev/null 2>&1 &
  ip netns exec "$(ns_of "$r")" iperf3 -s -1 -B "$(host_ip "$r")" -p 5203 >/dev/null 2>&1 &
  sleep 0.5
  ip netns exec "$(ns_of "$s1")" iperf3 -c "$(host_ip "$r")" -p 5202 -t "$secs" -O 2 -J > "$LAB_DIR/fanin1.json" &
  ip netns exec "$(ns_of "$s2")" iperf3 -c "$(host_ip "$r")" -p 5203 -t "$secs" -O 2 -J > "$LAB_DIR/fanin2.json"
  wait
  total=$(python3 -c 'import json,sys; print(round(sum(json.load(open(f))["end"]["sum_received"]["bits_per_second"] for f in sys.argv[1:])/1e6,2))' "$LAB_DIR/fanin1.json" "$LAB_DIR/fanin2.json")
  printf '%-11s %-8s -> %-8s %8s Mbit/s (cap %s, %s%%)\n' fan-in "$s1+$s2" "$r" "$total" "$LAB_VE_MBIT" \
    "$(python3 -c "print(round(100*$total/$LAB_VE_MBIT,1))")"
  json+=",{\"kind\":\"fan-in cross-site\",\"from\":\"$s1+$s2\",\"to\":\"$r\",\"mbit_per_s\":$total,\"cap_mbit\":$LAB_VE_MBIT,\"seconds\":$secs,\"command\":\"two concurrent iperf3 -c $(host_ip "$r") -t $secs -O 2 from $s1 and $s2\"}"
  json+="]"
  [[ -n $out ]] && echo "$json" | python3 -m json.tool > "$out/probe.json"
  return 0
}
spawn_relay_host() { :; }
lab_run() { :; }
