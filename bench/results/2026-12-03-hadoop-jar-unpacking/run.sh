#!/usr/bin/env bash
# `hadoop jar relaycp.jar --version` as RunJar runs it on Hadoop's own jars alone
# (relaycp-testkit/target/hadoop-classpath.txt, Hadoop 3.5.0), with RunJar unpacking the
# jar first (its default) and with HADOOP_CLIENT_SKIP_UNJAR=true, alternating; then the
# jar's entries. Run from the repository root after ./mvnw -B package -DskipTests.
set -euo pipefail
cp=$(cat relaycp-testkit/target/hadoop-classpath.txt)
jar=relaycp/target/relaycp-0.1.0-SNAPSHOT.jar
for round in 1 2 3 4; do
  for skip in "" true; do
    start=$(date +%s.%N)
    env ${skip:+HADOOP_CLIENT_SKIP_UNJAR=$skip} java -cp "$cp" org.apache.hadoop.util.RunJar \
      "$jar" --version > /dev/null 2>&1
    end=$(date +%s.%N)
    printf 'round %s unpacking=%-3s %6.2f s\n' "$round" "$([ -n "$skip" ] && echo no || echo yes)" \
      "$(echo "$end - $start" | bc)"
  done
done
echo "jar: $(stat -c %s "$jar") bytes; $(unzip -Z1 "$jar" | grep -vc '/$') files," \
  "$(unzip -Z1 "$jar" | grep -c '^dev/relaycp/shaded/software/amazon/.*[^/]$') of them the AWS SDK's;" \
  "$(unzip -l "$jar" | tail -1 | awk '{print $1}') bytes unpacked"
