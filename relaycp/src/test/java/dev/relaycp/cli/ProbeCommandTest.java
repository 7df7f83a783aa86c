package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.testkit.EmbeddedClusters;
import dev.relaycp.plan.MachineType;
import dev.relaycp.plan.RelayCatalog;
import dev.relaycp.plan.ThroughputHistory;
import dev.relaycp.plan.ThroughputHistory.Direction;
import dev.relaycp.plan.ThroughputHistoryFile;
import dev.relaycp.relay.RelayServer;
import dev.relaycp.relay.RelaySettings;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code relaycp probe} through real relays on loopback between two real clusters. */
class ProbeCommandTest {
  static EmbeddedClusters clusters;
  static final List<RelayServer> servers = new ArrayList<>();
  static Path secretFile;
  static String readers;
  static String writers;

  @TempDir Path temporary;

  @BeforeAll
  static void start() throws IOException {
    clusters = EmbeddedClusters.start(1, 256 * 1024);
    TransferSecret secret = TransferSecret.generate();
    secretFile = Files.createTempFile("relaycp-probe-secret-", "");
    secret.writeTo(secretFile);
    List<String> readerList = new ArrayList<>();
    List<String> writerList = new ArrayList<>();
    for (int pair = 0; pair < 2; pair++) {
      readerList.add(address(startRelay(secret)));
      writerList.add(address(startRelay(secret)));
    }
    readers = String.join(",", readerList);
    writers = String.join(",", writerList);
    clusters.source().getFileSystem().mkdirs(new org.apache.hadoop.fs.Path("/scratch"));
    clusters.destination().getFileSystem().mkdirs(new org.apache.hadoop.fs.Path("/scratch"));
  }

  private static RelayServer startRelay(TransferSecret secret) {
    RelayServer server =
        RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, new Configuration()));
    servers.add(server);
    return server;
  }

  private static String address(RelayServer server) {
    return "127.0.0.1:" + server.localAddress().getPort();
  }

  @AfterAll
  static void stop() throws IOException {
    servers.forEach(RelayServer::close);
    if (clusters != null) {
      clusters.close();
    }
    Files.deleteIfExists(secretFile);
  }

  record Run(int exitCode, String out, String err) {}

  static Run run(String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute(arguments);
    return new Run(code, out.toString(), err.toString());
  }

  Path history() {
    return temporary.resolve("history.json");
  }

  Run probe(String relays, String dstRelays, String... more) {
    List<String> arguments = new ArrayList<>(List.of("probe",
        clusters.sourceUri("/scratch").toString(), clusters.destinationUri("/scratch").toString(),
        "--relays", relays, "--dst-relays", dstRelays, "--secret-file", secretFile.toString(),
        "--size", "1MiB", "--history", history().toString()));
    arguments.addAll(List.of(more));
    return run(arguments.toArray(String[]::new));
  }

  static void assertNoScratchLeft() throws IOException {
    for (FileSystem fileSystem : List.of(clusters.source().getFileSystem(),
        clusters.destination().getFileSystem())) {
      assertThat(Arrays.stream(fileSystem.listStatus(new org.apache.hadoop.fs.Path("/scratch")))
          .map(status -> status.getPath().getName())).isEmpty();
    }
  }

  @Test
  void measuresEachPairRecordsItAndLeavesNothingBehind() throws Exception {
    Run run = probe(readers, writers, "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode result = new ObjectMapper().readTree(run.out());
    assertThat(result.get("pairs")).hasSize(2);
    for (JsonNode pair : result.get("pairs")) {
      assertThat(pair.get("bytes").asLong()).isEqualTo(1 << 20);
      assertThat(pair.get("mbPerSecond").asDouble()).isPositive();
      assertThat(pair.get("failure").isNull()).isTrue();
    }
    assertThat(result.get("history").asText()).isEqualTo(history().toString());
    ThroughputHistory history = ThroughputHistoryFile.load(history());
    assertThat(history.estimates().keySet()).containsExactly("node/127.0.0.1/external");
    assertThat(history.estimate("node/127.0.0.1/external").orElseThrow().samples()).isEqualTo(1);
    assertNoScratchLeft();
  }

  @Test
  void aMachineTypeIsRecordedTooAndThePlanUsesIt() throws Exception {
    Run run = probe(readers, writers, "--vm-type", "aws/t2.micro");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).containsPattern("route 0 \\(127\\.0\\.0\\.1:\\d+ -> 127\\.0\\.0\\.1:\\d+\\):"
        + " 1\\.0 MB in \\d+\\.\\d\\d s, \\d+\\.\\d MB/s");
    MachineType micro = RelayCatalog.load(Path.of("..", "conf", RelayCatalog.FILE_NAME)).find("aws/t2.micro");
    assertThat(ThroughputHistoryFile.load(history())
        .estimate(ThroughputHistory.machineKey(micro, Direction.EXTERNAL))).isPresent();

    Run plan = run("plan", "--what-if", "--size", "8GiB", "--vm-type", "aws/t2.micro",
        "--history", history().toString());
    assertThat(plan.exitCode()).as(plan.err()).isZero();
    assertThat(plan.out()).contains("figures of aws/t2.micro measured");
  }

  @Test
  void aDeadPairFailsTheProbeButTheOthersAreRecorded() throws Exception {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    String[] writerList = writers.split(",");
    Run run = probe(readers.split(",")[0] + ",127.0.0.1:" + deadPort,
        writerList[0] + "," + writerList[1], "--wait-seconds", "1");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.EXTERNAL);
    assertThat(run.out()).contains("route 1 (127.0.0.1:" + deadPort).contains(": failed: ");
    assertThat(run.err()).contains("1 of 2 relay pairs could not be probed");
    assertThat(ThroughputHistoryFile.load(history())
        .estimate("node/127.0.0.1/external").orElseThrow().samples()).isEqualTo(1);
    assertNoScratchLeft();
  }

  @Test
  void noHistoryRecordsNothing() throws Exception {
    Run run = probe(readers, writers, "--no-history");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Files.exists(history())).isFalse();
  }

  @Test
  void badSizeIsAUserError() {
    Run run = run("probe", clusters.sourceUri("/scratch").toString(),
        clusters.destinationUri("/scratch").toString(), "--relays", readers,
        "--secret-file", secretFile.toString(), "--size", "0MiB");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(run.err().strip()).isEqualTo(
        "relaycp: --size 0MiB is empty; give at least one byte, e.g. --size 64MiB");
  }
}
