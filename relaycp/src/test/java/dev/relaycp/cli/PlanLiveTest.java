package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.plan.DataRate;
import dev.relaycp.plan.ThroughputHistory;
import dev.relaycp.plan.ThroughputHistoryFile;
import dev.relaycp.testkit.EmbeddedHdfs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code relaycp plan SRC DST} against two real clusters: three source and two destination datanodes. */
class PlanLiveTest {
  static final long BLOCK = 256 * 1024;
  static EmbeddedHdfs source;
  static EmbeddedHdfs destination;

  @TempDir Path temporary;

  @BeforeAll
  static void startClusters() throws IOException {
    // Replication 3 on three datanodes: every block is on every source datanode, so the
    // datanodes holding the source's blocks are all of them.
    source = EmbeddedHdfs.start("plan-live-source", 3, EmbeddedHdfs.smallBlocks(BLOCK, 3));
    destination = EmbeddedHdfs.start("plan-live-destination", 2,
        EmbeddedHdfs.smallBlocks(BLOCK, 2));
    FileSystem fileSystem = source.fileSystem();
    write(fileSystem, "/data/big.bin", 5 * BLOCK + 10);
    write(fileSystem, "/data/small/a.bin", 1000);
    write(fileSystem, "/data/small/b.bin", 1000);
    write(fileSystem, "/data/empty.bin", 0);
  }

  private static void write(FileSystem fileSystem, String path, long length) throws IOException {
    try (FSDataOutputStream out = fileSystem.create(new org.apache.hadoop.fs.Path(path))) {
      out.write(new byte[(int) length]);
    }
  }

  @AfterAll
  static void stopClusters() {
    if (destination != null) {
      destination.close();
    }
    if (source != null) {
      source.close();
    }
  }

  record Run(int exitCode, String out, String err) {}

  Run run(String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> all = new ArrayList<>(List.of("plan"));
    all.addAll(List.of(arguments));
    all.add("--history=" + temporary.resolve("history.json"));
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute(all.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  Run runAs(String user, String... arguments) throws Exception {
    return UserGroupInformation.createRemoteUser(user)
        .doAs((PrivilegedExceptionAction<Run>) () -> run(arguments));
  }

  static String uri(EmbeddedHdfs cluster, String path) {
    return cluster.uri(path).toString();
  }

  static List<String> notes(JsonNode plan) {
    return StreamSupport.stream(plan.get("notes").spliterator(), false)
        .map(JsonNode::asText).toList();
  }

  @Test
  void listsTheSourceAndCountsEachClustersDatanodes() throws Exception {
    Run run = run(uri(source, "/data"), uri(destination, "/copy"), "--json", "--pairs", "0-2");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode plan = new ObjectMapper().readTree(run.out());
    assertThat(plan.get("files").asInt()).isEqualTo(4);
    assertThat(plan.get("bytes").asLong()).isEqualTo(5 * BLOCK + 10 + 2000);
    assertThat(plan.get("rows")).hasSize(3);
    assertThat(plan.get("rows").get(0).get("seconds").asDouble()).isPositive();
    assertThat(notes(plan))
        .contains("source: 3 datanode(s), from the NameNode's datanode report")
        .contains("destination: 2 datanode(s), from the NameNode's datanode report")
        // Block locations name hosts, and every datanode of a MiniDFSCluster is 127.0.0.1.
        .contains("source bytes: on 1 of 3 datanode(s), by the listing's block locations; the"
            + " fullest holds a replica of 100% of them")
        .anyMatch(note -> note.startsWith("source datanodes' WAN rate 15.00 MiB/s: not measured"));
  }

  @Test
  void measuredRatesReplaceTheDefaultsAndTheNotesSaySo() throws Exception {
    ThroughputHistoryFile.record(temporary.resolve("history.json"),
        ThroughputHistory.nodeKey("127.0.0.1", ThroughputHistory.Direction.EXTERNAL),
        DataRate.ofMebibytesPerSecond(40), Instant.parse("2024-01-01T00:00:00Z"));

    Run measured = run(uri(source, "/data"), uri(destination, "/copy"), "--json");
    Run given = run(uri(source, "/data"), uri(destination, "/copy"), "--json",
        "--external", "15MiB/s");

    assertThat(measured.exitCode()).as(measured.err()).isZero();
    List<String> notes = notes(new ObjectMapper().readTree(measured.out()));
    assertThat(notes)
        .contains("source datanodes' WAN rate 40.00 MiB/s: measured (throughput history of 127.0.0.1)")
        .contains("destination datanodes' WAN rate 40.00 MiB/s: measured (throughput history of 127.0.0.1)")
        .anyMatch(note -> note.startsWith("source datanodes' internal rate 90.00 MiB/s: not measured"));
    assertThat(notes(new ObjectMapper().readTree(given.out())))
        .contains("source datanodes' WAN rate 15.00 MiB/s: given by --external");
    // Without --vm-type, spawned relays are taken to be like the source's datanodes.
    assertThat(new ObjectMapper().readTree(measured.out()).get("machine")
        .get("externalMebibytesPerSecond").asDouble()).isEqualTo(40.0);
    assertThat(new ObjectMapper().readTree(given.out()).get("machine")
        .get("externalMebibytesPerSecond").asDouble()).isEqualTo(15.0);
  }

  @Test
  void withoutTheSuperuserTheSourceCountComesFromBlockLocations() throws Exception {
    Run refused = runAs("alice", uri(source, "/data"), uri(destination, "/copy"), "--json");
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(refused.err().strip())
        .isEqualTo("relaycp: cannot count the destination's datanodes: the NameNode's datanode"
            + " report needs the HDFS superuser; give --dst-datanodes N");

    Run run = runAs("alice", uri(source, "/data"), uri(destination, "/copy"), "--json",
        "--dst-datanodes", "2");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(notes(new ObjectMapper().readTree(run.out())))
        .contains("source: 3 datanode(s), from the distinct datanodes holding blocks of 3 source"
            + " file(s) (the datanode report needs the HDFS superuser; give --src-datanodes N for"
            + " the exact count)")
        .contains("destination: 2 datanode(s), from --dst-datanodes");
  }

  @Test
  void whatIfFlagsInALivePlanAreAUserError() {
    Run run = run(uri(source, "/data"), uri(destination, "/copy"), "--size", "8GiB");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(run.err()).contains("describe a --what-if copy; a live plan lists SRC, so drop them");
  }

  @Test
  void aMissingSourceIsAUserError() {
    Run run = run(uri(source, "/absent"), uri(destination, "/copy"));
    assertThat(run.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(run.err()).contains("does not exist; check the path");
  }
}
