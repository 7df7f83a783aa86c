package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code relaycp clean}: staging a killed driver left is removed, a live copy's is spared. */
class CleanCommandTest {
  static EmbeddedClusters clusters;
  static FileSystem destination;

  @BeforeAll
  static void start() throws IOException {
    clusters = EmbeddedClusters.start(1, 1 << 20);
    destination = clusters.destination().getFileSystem();
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  record Result(int exitCode, String out, String err) {}

  static Result run(String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute(arguments);
    return new Result(code, out.toString(), err.toString());
  }

  /** A staging directory beside /backups/nightly whose heartbeat last moved {@code ago}. */
  static Path staging(String id, Duration ago) throws IOException {
    Path root = new Path("/backups/.relaycp-staging-" + id);
    try (OutputStream part = destination.create(new Path(root, "p0/data"))) {
      part.write(new byte[1234]);
    }
    Path heartbeat = new Path(root, "heartbeat");
    destination.create(heartbeat).close();
    destination.setTimes(heartbeat, System.currentTimeMillis() - ago.toMillis(), -1);
    return root;
  }

  @Test
  void removesStagingWhoseHeartbeatStoppedAndSparesARunningCopys() throws Exception {
    destination.mkdirs(new Path("/backups"));
    Path killed = staging("killed", Duration.ofHours(2));
    Path running = staging("running", Duration.ofSeconds(5));
    String target = clusters.destinationUri("/backups/nightly").toString();

    Result dryRun = run("clean", target, "--dry-run", "--json");
    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    JsonNode listed = new ObjectMapper().readTree(dryRun.out()).get("staging");
    assertThat(listed).hasSize(1);
    assertThat(listed.get(0).get("path").asText()).endsWith(killed.toString());
    assertThat(listed.get(0).get("bytes").asLong()).isEqualTo(1234);
    assertThat(listed.get(0).get("removed").asBoolean()).isFalse();
    assertThat(destination.exists(killed)).isTrue();

    Result clean = run("clean", target);
    assertThat(clean.exitCode()).as(clean.err()).isZero();
    assertThat(clean.out()).startsWith("removed ").contains(".relaycp-staging-killed");
    assertThat(destination.exists(killed)).isFalse();
    assertThat(destination.exists(running)).isTrue();

    Result again = run("clean", target, "--older-than", "1s");
    assertThat(again.out()).contains(".relaycp-staging-running");
    assertThat(destination.exists(running)).isFalse();
  }

  @Test
  void aBadAgeIsAUserError() {
    Result result = run("clean", clusters.destinationUri("/x").toString(), "--older-than", "old");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err()).contains("--older-than 'old' is not a positive duration");
  }
}
