# Hadoop half of the lab: real HDFS and YARN daemons on both sites, one JVM
# per daemon, each inside its host's namespace with its own generated config.
# shellcheck shell=bash

JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
export JAVA_HOME

NN_PORT=8020
JVM_OPENS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED \
--add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED"

nn_uri() { echo "hdfs://$1-nn:$NN_PORT"; }

# The demo's runtime jars (Hadoop with its HDFS, YARN and MapReduce daemons and DistCp; less
# relaycp's own jars and test jars), linked into one folder so every JVM, YARN container
# included, can use the short class path "$LAB_DIR/lib/*": the lab's Hadoop installation.
build_lib() {
  local libdir="$LAB_REPO/relaycp-bench/target/lib"
  log "building relaycp and the demo's class path (bin/relaycp builds when the sources changed)"
  "$LAB_REPO/bin/relaycp" --version > "$LAB_DIR/build.log" 2>&1 \
    || die "relaycp could not be built in $LAB_REPO; see $LAB_DIR/build.log"
  mkdir -p "$LAB_DIR/lib"
  local jar
  for jar in "$libdir"/*.jar; do
    case $(basename "$jar") in
      *-tests.jar|hadoop-minicluster-*|relaycp*) ;;
      *) ln -sf "$jar" "$LAB_DIR/lib/$(basename "$jar")" ;;
    esac
  done
  # The NameNode and DataNode web apps ship only in hadoop-hdfs's tests jar; take the
  # webapps folder out of it rather than putting test classes on the class path.
  local tests; tests=$(find "$libdir" -name 'hadoop-hdfs-[0-9.]*-tests.jar' | head -1)
  [[ -n $tests ]] || die "hadoop-hdfs tests jar (the HDFS web apps) is not on the class path"
  mkdir -p "$LAB_DIR/webapps-root"
  (cd "$LAB_DIR/webapps-root" && "$JAVA_HOME/bin/jar" xf "$tests" webapps/)
  mkdir -p "$LAB_DIR/tool"
  "$JAVA_HOME/bin/javac" -nowarn -d "$LAB_DIR/tool" -cp "$LAB_DIR/lib/*" "$LAB_HOME/LabTool.java" \
    || die "could not compile LabTool.java"
}

prop() { printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }
xml() { echo '<?xml version="1.0"?>'; echo '<configuration>'; cat; echo '</configuration>'; }

# Config dir for one host: core, hdfs, yarn and mapred, each site with its own NameNode and
# ResourceManager.
write_conf() {
  local h=$1 s d conf
  s=$(site_of "$h"); d="$LAB_DIR/hosts/$h"; conf="$d/conf"
  mkdir -p "$conf" "$d/logs"
  {
    prop fs.defaultFS "$(nn_uri "$s")"
    prop hadoop.tmp.dir "$d/tmp"
    prop dfs.checksum.combine.mode COMPOSITE_CRC
  } | xml > "$conf/core-site.xml"
  {
    prop dfs.namenode.rpc-address "$s-nn:$NN_PORT"
    prop dfs.namenode.http-address "$(host_ip "$s-nn"):9870"
    prop dfs.namenode.name.dir "$d/name"
    prop dfs.datanode.data.dir "$d/data"
    prop dfs.datanode.hostname "$h"
    prop dfs.datanode.address "$(host_ip "$h"):9866"
    prop dfs.datanode.http.address "$(host_ip "$h"):9864"
    prop dfs.datanode.ipc.address "$(host_ip "$h"):9867"
    prop dfs.replication "$LAB_REPLICATION"
    prop dfs.blocksize "$LAB_BLOCK_SIZE"
    prop dfs.permissions.enabled false
    prop dfs.namenode.safemode.extension 0
    prop dfs.namenode.datanode.registration.ip-hostname-check false
    prop dfs.datanode.max.transfer.threads 256
    prop dfs.namenode.handler.count 16
  } | xml > "$conf/hdfs-site.xml"
  # Room for DistCp's maps and AM and no more, so that no third map fits a node; plus a relay
  # pool's container, which stays while DistCp runs (LAB_RELAYS=pool). A copy's own relay
  # containers run when DistCp does not, in room the maps then leave.
  local mem=$((LAB_SLOTS_PER_NODE * LAB_MAP_MB + LAB_AM_MB))
  [[ $LAB_RELAYS == pool ]] && mem=$((mem + LAB_RELAY_MB))
  ((mem >= LAB_RELAY_MB)) || mem=$LAB_RELAY_MB
  {
    prop yarn.resourcemanager.hostname "$s-nn"
    prop yarn.nodemanager.hostname "$h"
    prop yarn.nodemanager.address "$h:45454"
    # Each ResourceManager its own node-attribute store: the default, /tmp/hadoop-yarn-$USER,
    # is one folder for both sites' ResourceManagers, which then race creating it and one
    # can fail to start ("chmod: cannot access .../nodeattribute.mirror.writing").
    prop yarn.node-attribute.fs-store.root-dir "file://$d/node-attribute"
    prop yarn.nodemanager.local-dirs "$d/nm-local"
    prop yarn.nodemanager.log-dirs "$d/nm-logs"
    prop yarn.nodemanager.resource.memory-mb "$mem"
    prop yarn.nodemanager.resource.cpu-vcores "$((LAB_SLOTS_PER_NODE + 1))"
    prop yarn.nodemanager.vmem-check-enabled false
    prop yarn.nodemanager.pmem-check-enabled false
    prop yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage 99
    prop yarn.scheduler.minimum-allocation-mb 64
    prop yarn.scheduler.maximum-allocation-mb "$mem"
    # Containers see their host's configuration, as on a cluster whose NodeManagers export
    # HADOOP_CONF_DIR: a relay container writes with the site's dfs.blocksize.
    prop yarn.application.classpath "\$HADOOP_CONF_DIR,$LAB_DIR/lib/*"
    prop yarn.nodemanager.env-whitelist "JAVA_HOME,HADOOP_CONF_DIR"
    prop yarn.log-aggregation-enable false
    # Map-only jobs still ask every NodeManager for the shuffle service.
    prop yarn.nodemanager.aux-services mapreduce_shuffle
    prop yarn.nodemanager.aux-services.mapreduce_shuffle.class org.apache.hadoop.mapred.ShuffleHandler
    prop yarn.resourcemanager.scheduler.class org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler
  } | xml > "$conf/yarn-site.xml"
  {
    prop mapreduce.framework.name yarn
    prop mapreduce.application.classpath "$LAB_DIR/lib/*"
    prop yarn.app.mapreduce.am.resource.mb "$LAB_AM_MB"
    prop yarn.app.mapreduce.am.command-opts "-Xmx$((LAB_AM_MB * 3 / 4))m -XX:+UseSerialGC"
    prop mapreduce.map.memory.mb "$LAB_MAP_MB"
    prop mapreduce.map.java.opts "-Xmx$((LAB_MAP_MB * 3 / 4))m -XX:+UseSerialGC"
    prop mapreduce.job.ubertask.enable false
    prop yarn.app.mapreduce.am.staging-dir /tmp/hadoop-yarn/staging
    prop mapreduce.jobhistory.address "$s-nn:10020"
  } | xml > "$conf/mapred-site.xml"
  {
    prop yarn.scheduler.capacity.root.queues default
    prop yarn.scheduler.capacity.root.default.capacity 100
    prop yarn.scheduler.capacity.root.default.maximum-capacity 100
    prop yarn.scheduler.capacity.maximum-am-resource-percent 0.5
  } | xml > "$conf/capacity-scheduler.xml"
  cat > "$conf/log4j.properties" <<'L4J'
log4j.rootLogger=INFO,console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{HH:mm:ss,SSS} %p %c{2}: %m%n
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
L4J
}

# java inside host h with its config; extra JVM flags in JOPTS.
host_java() {
  local h=$1; shift
  local d="$LAB_DIR/hosts/$h"
  # JOPTS and JVM_OPENS are lists of flags: split on purpose.
  # shellcheck disable=SC2086
  in_host "$h" env JAVA_HOME="$JAVA_HOME" HADOOP_CONF_DIR="$d/conf" \
    "$JAVA_HOME/bin/java" ${JOPTS:-"-Xmx$LAB_DAEMON_HEAP"} -XX:+UseSerialGC $JVM_OPENS \
    -Dhadoop.log.dir="$d/logs" -Dlog4j.configuration="file:$d/conf/log4j.properties" \
    -Djava.net.preferIPv4Stack=true \
    -cp "$d/conf:$LAB_DIR/tool:$LAB_DIR/webapps-root:$LAB_DIR/lib/*" "$@"
}

# Start one daemon in the background; its pid goes to $LAB_DIR/pids/<host>.<name>.
start_daemon() {
  local h=$1 name=$2 cls=$3
  mkdir -p "$LAB_DIR/pids"
  LAB_PIDFILE="$LAB_DIR/pids/$h.$name" host_java "$h" "$cls" > "$LAB_DIR/hosts/$h/logs/$name.log" 2>&1 &
  for _ in 1 2 3 4 5 6 7 8 9 10; do [[ -s "$LAB_DIR/pids/$h.$name" ]] && break; sleep 0.2; done
}

# Ask a lab host's web endpoint (from inside the lab, with Python).
lab_http_json() {
  local from=$1 url=$2 expr=$3
  ip netns exec "$(ns_of "$from")" python3 -c '
import json, sys, urllib.request
try:
    d = json.load(urllib.request.urlopen(sys.argv[1], timeout=3))
    print(eval(sys.argv[2]))
except Exception:
    print(-1)' "$url" "$expr"
}

live_datanodes() {
  lab_http_json "$1-client" "http://$(host_ip "$1-nn"):9870/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState" \
    'd["beans"][0]["NumLiveDataNodes"]'
}
active_nodemanagers() {
  lab_http_json "$1-client" "http://$(host_ip "$1-nn"):8088/ws/v1/cluster/metrics" 'd["clusterMetrics"]["activeNodes"]'
}

wait_for() {
  local what=$1 want=$2 limit=$3 fn=$4; shift 4
  local t=0 got
  while :; do
    got=$("$fn" "$@")
    [[ $got -ge $want ]] && { log "$what: $got"; return 0; }
    local f
    for f in "$LAB_DIR"/pids/*; do
      local b=${f##*/}
      [[ -s $f ]] || continue
      kill -0 "$(cat "$f")" 2>/dev/null || die "$b exited; see $LAB_DIR/hosts/${b%%.*}/logs/${b#*.}.log"
    done
    ((t >= limit)) && die "$what: $got after ${limit}s (want $want); see $LAB_DIR/hosts/*/logs"
    sleep 2; t=$((t + 2))
  done
}

hadoop_up() {
  local h s
  build_lib
  for h in $(all_hosts); do write_conf "$h"; done
  log "formatting the two NameNodes"
  for s in src dst; do
    host_java "$s-nn" org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive \
      > "$LAB_DIR/hosts/$s-nn/logs/format.log" 2>&1 &
  done
  wait || die "NameNode format failed; see $LAB_DIR/hosts/*-nn/logs/format.log"
  for s in src dst; do
    start_daemon "$s-nn" namenode org.apache.hadoop.hdfs.server.namenode.NameNode
  done
  for s in src dst; do
    start_daemon "$s-nn" resourcemanager org.apache.hadoop.yarn.server.resourcemanager.ResourceManager
  done
  sleep 5
  for s in src dst; do
    for h in $(datanodes "$s"); do
      start_daemon "$h" datanode org.apache.hadoop.hdfs.server.datanode.DataNode
    done
  done
  for h in $(datanodes src) $(datanodes dst); do
    start_daemon "$h" nodemanager org.apache.hadoop.yarn.server.nodemanager.NodeManager
  done
  wait_for "src live datanodes" "$(datanode_count src)" 180 live_datanodes src
  wait_for "dst live datanodes" "$(datanode_count dst)" 180 live_datanodes dst
  wait_for "src active NodeManagers" "$(datanode_count src)" 180 active_nodemanagers src
  wait_for "dst active NodeManagers" "$(datanode_count dst)" 180 active_nodemanagers dst
}

# Stop every lab JVM: TERM each recorded pid, then KILL what is left after 10 s.
hadoop_down() {
  local f pid left
  [[ -d "$LAB_DIR/pids" ]] || return 0
  for f in "$LAB_DIR"/pids/*; do
    [[ -e $f ]] || continue
    pid=$(cat "$f"); kill "$pid" 2>/dev/null || true
  done
  for _ in $(seq 10); do
    left=0
    for f in "$LAB_DIR"/pids/*; do
      [[ -e $f ]] || continue
      kill -0 "$(cat "$f")" 2>/dev/null && left=1
    done
    ((left == 0)) && break
    sleep 1
  done
  for f in "$LAB_DIR"/pids/*; do
    [[ -e $f ]] || continue
    kill -9 "$(cat "$f")" 2>/dev/null || true
  done
}

hadoop_status() {
  local f
  [[ -d "$LAB_DIR/pids" ]] || { echo "daemons: none"; return 0; }
  echo "daemons:"
  for f in "$LAB_DIR"/pids/*; do
    [[ -e $f ]] || continue
    if kill -0 "$(cat "$f")" 2>/dev/null; then
      printf '  %-28s pid %-8s running\n' "$(basename "$f")" "$(cat "$f")"
    else
      printf '  %-28s pid %-8s gone\n' "$(basename "$f")" "$(cat "$f")"
    fi
  done
  [[ -n $(lab_namespaces) ]] || return 0
  echo "src live datanodes: $(live_datanodes src)   dst live datanodes: $(live_datanodes dst)   NodeManagers: $(active_nodemanagers src) src, $(active_nodemanagers dst) dst"
}

# True when every HDFS and YARN daemon the lab started still runs.
lab_daemons_alive() {
  local f n=0
  for f in "$LAB_DIR"/pids/*.{namenode,datanode,resourcemanager,nodemanager}; do
    [[ -e $f ]] || continue
    kill -0 "$(cat "$f")" 2>/dev/null || return 1
    n=$((n + 1))
  done
  ((n > 0))
}
