package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.testkit.DriverCommand;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Relays spawned through the exec backend, end to end between two real clusters: each spawned
 * relay is a real JVM started by a shell script, as a user's command would start one on a host.
 */
class SpawnedRelaysCopyTest {
  private static final int MIB = 1 << 20;
  static EmbeddedClusters clusters;

  @TempDir Path temporary;

  @BeforeAll
  static void start() throws IOException {
    clusters = EmbeddedClusters.start(1, MIB);
    FileSystem source = clusters.source().getFileSystem();
    write(source, "/data/big.bin", 16 * MIB, 1);
    for (int index = 0; index < 5; index++) {
      write(source, "/data/small/" + index + ".txt", 1000 + index, 2 + index);
    }
    write(source, "/tiny/one.bin", 300_000, 9);
  }

  @AfterAll
  static void stop() throws IOException {
    if (clusters != null) {
      clusters.close();
    }
  }

  private static void write(FileSystem fileSystem, String path, int bytes, long seed)
      throws IOException {
    byte[] data = new byte[bytes];
    new Random(seed).nextBytes(data);
    try (OutputStream out = fileSystem.create(new org.apache.hadoop.fs.Path(path))) {
      out.write(data);
    }
  }

  record Result(int exitCode, String out, String err) {}

  static Result run(List<String> arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(arguments.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  /**
   * A spawn command: starts a relay JVM on loopback in the background, with the driver's TLS
   * identity where the driver offers one, records its pid in {@code pids} and its messages in
   * {@code <site>-<slot>.log} beside that folder, and passes on its "listening on" line; the
   * relay with slot 0 on the source site sends at most {@code throttleSlotZero} bytes a
   * second, when given.
   */
  Path spawnScript(Path pids, String throttleSlotZero) throws IOException {
    return spawnScript(pids, throttleSlotZero, "");
  }

  /** As above, with {@code relayArguments} after {@code relay}'s own. */
  Path spawnScript(Path pids, String throttleSlotZero, String relayArguments)
      throws IOException {
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    String script = "#!/bin/sh\n"
        + "EXTRA=\n"
        + (throttleSlotZero == null ? "" : "if [ \"$RELAYCP_SITE\" = src ] && [ \"$RELAYCP_SLOT\""
            + " = 0 ]; then EXTRA='-D relaycp.relay.bytes-per-second-limit=" + throttleSlotZero
            + "'; fi\n")
        + "'" + java + "' -Xmx256m -XX:TieredStopAtLevel=1 -cp '"
        + System.getProperty("java.class.path") + "' dev.relaycp.cli.Main"
        + " -D relaycp.relay.driver-timeout-seconds=$RELAYCP_DRIVER_TIMEOUT_SECONDS $EXTRA relay"
        + " --bind 127.0.0.1 --port 0 --secret-file \"$RELAYCP_SECRET_FILE\""
        + " --driver-heartbeat \"$RELAYCP_DRIVER_HEARTBEAT\""
        + " ${RELAYCP_TLS_IDENTITY_FILE:+--tls-identity-file \"$RELAYCP_TLS_IDENTITY_FILE\"} "
        + relayArguments + " 2> '" + pids.resolveSibling("relay-logs")
        + "'/$RELAYCP_SITE-$RELAYCP_SLOT.log &\n"
        + "echo $! > '" + pids + "'/$RELAYCP_SITE-$RELAYCP_SLOT.pid\n"
        + "wait\n";
    Files.createDirectories(pids.resolveSibling("relay-logs"));
    Path file = temporary.resolve("spawn-relay.sh");
    Files.writeString(file, script);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  List<String> copy(String source, String destination, String... more) {
    List<String> arguments = new ArrayList<>(List.of("copy",
        clusters.sourceUri(source).toString(), clusters.destinationUri(destination).toString(),
        "--json", "--no-progress", "--no-history"));
    arguments.addAll(List.of(more));
    return arguments;
  }

  static List<Long> pids(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(file -> {
        try {
          return Long.parseLong(Files.readString(file).strip());
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }).toList();
    }
  }

  private static boolean exists(FileSystem fileSystem, org.apache.hadoop.fs.Path path) {
    try {
      return fileSystem.exists(path);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  static void assertAllGone(List<Long> pids) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (pids.stream().anyMatch(SpawnedRelaysCopyTest::alive) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(pids).noneMatch(SpawnedRelaysCopyTest::alive);
  }

  @Test
  void aSpawnedPairJoinsTheCopyMidWayAndIsReleasedAfter() throws Exception {
    Path pids = Files.createDirectory(temporary.resolve("pids"));
    Result result = run(copy("/data", "/joined", "--local-relays", "1",
        "-D", "relaycp.relay.bytes-per-second-limit=3m",
        "--spawn", "1", "--spawn-command", spawnScript(pids, null).toString(),
        "--spawn-timeout", "60s"));

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(result.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("local+exec");
    assertThat(summary.get("relaysStarted").get("src").asInt()).isEqualTo(2);
    JsonNode spawned = summary.get("spawned");
    assertThat(spawned.get("backend").asText()).isEqualTo("exec");
    assertThat(spawned.get("allReleased").asBoolean()).isTrue();
    assertThat(spawned.get("hosts")).hasSize(2);
    for (JsonNode host : spawned.get("hosts")) {
      assertThat(host.get("outcome").asText()).isEqualTo("routed");
      assertThat(host.get("released").asBoolean()).isTrue();
      assertThat(host.get("runSeconds").asDouble()).isPositive();
      // It showed the driver's TLS certificate rather than making a key of its own.
      assertThat(temporary.resolve("relay-logs").resolve(host.get("site").asText() + "-"
          + host.get("slot").asText() + ".log")).content()
          .contains("Relay connections run TLS 1.3").contains("with the driver's key");
    }
    JsonNode spawnedRoute = null;
    for (JsonNode route : summary.get("routeRates")) {
      if (route.get("route").asInt() >= 1000) {
        spawnedRoute = route;
      }
    }
    assertThat(spawnedRoute).as("the spawned route in %s", summary.get("routeRates")).isNotNull();
    assertThat(spawnedRoute.get("joinedSeconds").asDouble()).isPositive();
    assertThat(spawnedRoute.get("bytes").asLong()).isPositive();
    JsonNode cost = summary.get("cost");
    assertThat(cost.get("spawnedHostSeconds").asDouble()).isEqualTo(120.0);
    assertThat(cost.get("egressBytes").asLong()).isEqualTo(summary.get("bytes").asLong());
    assertThat(cost.get("dollars").asDouble())
        .isEqualTo(cost.get("spawnedHostDollars").asDouble() + cost.get("egressDollars").asDouble());
    assertAllGone(pids(pids));
  }

  @Test
  void warmedUpSpawnedRelaysJoinWithTlsOffAsTheDriverRuns() throws Exception {
    Path pids = Files.createDirectory(temporary.resolve("pids"));
    Result result = run(copy("/data", "/plaintext", "--local-relays", "1",
        "-D", "relaycp.relay.tls=false",
        "-D", "relaycp.relay.bytes-per-second-limit=3m",
        "--spawn", "1", "--spawn-command",
        spawnScript(pids, null, "-D relaycp.relay.tls=false --warm-up 4MiB").toString(),
        "--spawn-timeout", "60s"));

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(result.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    JsonNode spawned = summary.get("spawned");
    assertThat(spawned.get("hosts")).hasSize(2);
    for (JsonNode host : spawned.get("hosts")) {
      assertThat(host.get("outcome").asText()).as(host.toString()).isEqualTo("routed");
    }
    assertAllGone(pids(pids));
  }

  @Test
  void preTestingKeepsTheFastPairAndReleasesTheThrottledOne() throws Exception {
    Path pids = Files.createDirectory(temporary.resolve("pids"));
    Result result = run(copy("/tiny", "/pretested",
        "-D", "relaycp.spawn.pretest-bytes=3MiB",
        "--spawn", "1", "--pretest", "--spawn-command", spawnScript(pids, "1m").toString(),
        "--spawn-timeout", "60s"));

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(result.out());
    assertThat(summary.get("provisioner").asText()).isEqualTo("exec");
    JsonNode hosts = summary.get("spawned").get("hosts");
    assertThat(hosts).hasSize(4);
    double kept = -1;
    double rejected = -1;
    for (JsonNode host : hosts) {
      if (host.get("site").asText().equals("src")) {
        double rate = host.get("pretestMbPerSecond").asDouble();
        if (host.get("slot").asInt() == 0) {
          assertThat(host.get("outcome").asText()).isEqualTo("rejected_by_pretest");
          rejected = rate;
        } else {
          assertThat(host.get("outcome").asText()).isEqualTo("routed");
          kept = rate;
        }
      }
    }
    assertThat(rejected).isPositive().isLessThan(1.5);
    assertThat(kept).isGreaterThan(2 * rejected);
    assertThat(summary.get("routeRates")).hasSize(1);
    assertAllGone(pids(pids));
  }

  @Test
  void aSpawnCommandThatFailsIsTriedTwiceAndTheCopyFinishesOnTheOtherRelays()
      throws Exception {
    Result result = run(copy("/tiny", "/failed-spawn", "--local-relays", "1",
        "--spawn", "1", "--spawn-command", "echo 'quota exceeded'; exit 7"));

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(result.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    JsonNode hosts = summary.get("spawned").get("hosts");
    assertThat(hosts).hasSize(4);
    for (JsonNode host : hosts) {
      assertThat(host.get("outcome").asText()).isEqualTo("failed");
      assertThat(host.get("failure").asText()).contains("quota exceeded");
    }
    assertThat(summary.get("cost").get("spawnedHostDollars").asDouble()).isZero();
  }

  @Test
  void withNoOtherRelaysAFailedSpawnFailsTheCopyAndLeavesNothing() throws Exception {
    Result result = run(copy("/tiny", "/nothing", "--spawn", "1",
        "--spawn-command", "exit 7"));

    assertThat(result.exitCode()).isEqualTo(ExitCodes.EXTERNAL);
    assertThat(result.err().strip()).startsWith("relaycp: no spawned relay pair came up")
        .doesNotContain("\n");
    assertThat(clusters.destination().getFileSystem()
        .exists(new org.apache.hadoop.fs.Path("/nothing"))).isFalse();
  }

  @Test
  void aCopyThatEndsWhileAHostStillBootsReleasesItWithoutWaitingForIt() throws Exception {
    Path released = temporary.resolve("released");
    Result result = assertTimeoutPreemptively(Duration.ofSeconds(90), () -> run(copy("/tiny",
        "/booting", "--local-relays", "1", "--spawn", "1",
        "--spawn-command", "echo 127.0.0.1:1", "--spawn-timeout", "10m",
        "--release-command", "echo '{site} {slot}' >> " + released)));

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode hosts = new ObjectMapper().readTree(result.out()).get("spawned").get("hosts");
    assertThat(hosts).hasSize(2);
    for (JsonNode host : hosts) {
      assertThat(host.get("outcome").asText()).isEqualTo("unused");
      assertThat(host.get("released").asBoolean()).isTrue();
    }
    assertThat(Files.readAllLines(released)).containsExactlyInAnyOrder("src 0", "dst 0");
  }

  @Test
  void spawnedRelaysStopThemselvesOnceTheirDriverIsKilled() throws Exception {
    Path pids = Files.createDirectory(temporary.resolve("pids"));
    // The killed driver cannot remove its secret file: it goes to this test's folder.
    List<String> command =
        DriverCommand.of(Files.createDirectory(temporary.resolve("tmp")), "-Xmx512m");
    command.addAll(copy("/data", "/killed", "--local-relays", "1",
        "-D", "relaycp.relay.bytes-per-second-limit=256k",
        "-D", "relaycp.relay.driver-timeout-seconds=3",
        "--spawn", "1", "--spawn-command", spawnScript(pids, "256k").toString()));
    Process driver = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(temporary.resolve("driver.err").toFile())
        .start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (pids(pids).size() < 2 && driver.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(pids(pids)).as(Files.readString(temporary.resolve("driver.err"))).hasSize(2);
      assertThat(pids(pids)).allMatch(SpawnedRelaysCopyTest::alive);
    } finally {
      driver.destroyForcibly().waitFor();
    }

    assertAllGone(pids(pids));
  }

  @Test
  void sigtermReleasesTheSpawnedHostsRemovesTheSecretFileAndKeepsTheStagingForResume()
      throws Exception {
    Path pids = Files.createDirectory(temporary.resolve("pids"));
    Path released = temporary.resolve("released");
    Path temporaryFiles = Files.createDirectory(temporary.resolve("tmp"));
    List<String> command = DriverCommand.of(temporaryFiles, "-Xmx512m");
    // A driver timeout of ten minutes: only the driver's own release can stop them in time.
    // Its staging goes beside /sigterm/copy, apart from what other tests' drivers leave.
    clusters.destination().getFileSystem().mkdirs(new org.apache.hadoop.fs.Path("/sigterm"));
    command.addAll(copy("/data", "/sigterm/copy", "--local-relays", "1",
        "-D", "relaycp.relay.bytes-per-second-limit=256k",
        "-D", "relaycp.relay.driver-timeout-seconds=600",
        "--spawn", "1", "--spawn-command", spawnScript(pids, "256k").toString(),
        "--release-command", "echo '{site} {slot}' >> " + released));
    Process driver = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(temporary.resolve("driver.err").toFile())
        .start();
    try {
      Path log = temporary.resolve("driver.err");
      // The spawned pair may join before the local relays are up and the copy has made its
      // staging; the signal comes once a route has joined the copy itself.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!(Files.readString(log).contains("Spawned pair")
              && Files.readString(log).contains("joined the copy"))
          && driver.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(Files.readString(log)).contains("Spawned pair").contains("joined the copy");
      assertThat(pids(pids)).hasSize(2);
      try (Stream<Path> files = Files.list(temporaryFiles)) {
        assertThat(files.map(file -> file.getFileName().toString()))
            .anyMatch(name -> name.startsWith("relaycp-secret-"));
      }

      driver.destroy();
      assertThat(driver.waitFor(60, TimeUnit.SECONDS)).as("the driver ended").isTrue();
    } finally {
      driver.destroyForcibly().waitFor();
    }

    assertThat(released).as(Files.readString(temporary.resolve("driver.err"))).exists();
    // What the copy staged stays for the same command to resume, marked as stopped (nothing
    // stays if nothing was staged yet).
    FileSystem destination = clusters.destination().getFileSystem();
    assertThat(destination.listStatus(new org.apache.hadoop.fs.Path("/sigterm")))
        .as("staging left at the destination, not kept for a resume; the driver said:%n%s",
            Files.readString(temporary.resolve("driver.err")))
        .filteredOn(status -> status.getPath().getName().startsWith(".relaycp-staging-"))
        .allMatch(status -> exists(destination,
            new org.apache.hadoop.fs.Path(status.getPath(), "stopped")));
    assertThat(Files.readString(temporary.resolve("driver.err")))
        .containsAnyOf("run the same command again to resume",
            "removing the staging directory");
    assertThat(Files.readAllLines(released)).containsExactlyInAnyOrder("src 0", "dst 0");
    assertAllGone(pids(pids));
    try (Stream<Path> files = Files.list(temporaryFiles)) {
      assertThat(files.map(file -> file.getFileName().toString()))
          .noneMatch(name -> name.startsWith("relaycp-secret-"));
    }
  }

  @Test
  void withPairsAutoThePlannerChoosesHowManyPairsAreSpawned() throws Exception {
    Path pids = Files.createDirectory(temporary.resolve("pids"));
    Result result = run(copy("/data", "/auto", "--local-relays", "1", "--pairs", "auto",
        "--objective", "fastest", "-D", "relaycp.copy.max-auto-pairs=2",
        "-D", "relaycp.spawn.boot-seconds=1", "-D", "relaycp.spawn.dollars-per-hour=0",
        "--spawn-command", spawnScript(pids, null).toString()));

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(result.out());
    int pairs = summary.get("plan").get("pairs").asInt();
    assertThat(pairs).isBetween(1, 2);
    assertThat(summary.get("plan").get("notes").toString()).contains("spawned relays on exec");
    assertThat(summary.get("spawned").get("hosts")).hasSize(2 * pairs);
    assertThat(summary.get("cost").has("predictedDollars")).isTrue();
    ReportSchema.assertFollows(summary);
    assertAllGone(pids(pids));
  }

  @Test
  void spawnOptionsAreCheckedBeforeAnythingStarts() {
    Result noCount = run(copy("/tiny", "/x", "--local-relays", "1", "--spawn-command", "true"));
    assertThat(noCount.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(noCount.err()).contains("--spawn N, or --pairs auto");

    Result badTimeout = run(copy("/tiny", "/x", "--spawn", "1", "--spawn-command", "true",
        "--spawn-timeout", "soon"));
    assertThat(badTimeout.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(badTimeout.err()).contains("--spawn-timeout 'soon' is not a positive duration");

    Result pretestAlone = run(copy("/tiny", "/x", "--local-relays", "1", "--pretest"));
    assertThat(pretestAlone.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(pretestAlone.err()).contains("--pretest and --release-command steer spawned");
  }
}
