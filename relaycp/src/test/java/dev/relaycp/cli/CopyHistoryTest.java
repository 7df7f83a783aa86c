package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.ThroughputHistory;
import dev.relaycp.plan.ThroughputHistoryFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code relaycp copy} with local relays: --pairs, and the rates it records. */
class CopyHistoryTest {
  static final long BLOCK = 256 * 1024;
  static EmbeddedClusters clusters;

  @TempDir Path temporary;

  @BeforeAll
  static void startClusters() throws IOException {
    clusters = EmbeddedClusters.start(2, BLOCK);
    // Through the opener, so that the cached FileSystem the copy gets compares COMPOSITE_CRC.
    DemoDataset.write(FileSystemOpener.of(new Configuration()).open(clusters.sourceUri("/")),
        new org.apache.hadoop.fs.Path("/data"), BLOCK, 5, 4, 7);
  }

  @AfterAll
  static void stopClusters() {
    if (clusters != null) {
      clusters.close();
    }
  }

  record Run(int exitCode, String out, String err) {
    JsonNode json() throws IOException {
      return new ObjectMapper().readTree(out);
    }
  }

  static Run copy(String target, String... more) {
    return copyFrom("/data", target, more);
  }

  static Run copyFrom(String source, String target, String... more) {
    List<String> arguments = new ArrayList<>(List.of("copy",
        clusters.sourceUri(source).toString(), clusters.destinationUri(target).toString(),
        "--no-progress", "--json"));
    arguments.addAll(List.of(more));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(arguments.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void pairsAutoStartsThePlannersChoiceAndTheCopyRecordsWhatItSaw() throws Exception {
    Path history = temporary.resolve("history.json");
    Run run = copy("/auto", "--pairs", "auto", "--history", history.toString(),
        "-D", "relaycp.copy.max-auto-pairs=2");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode summary = run.json();
    int pairs = summary.get("plan").get("pairs").asInt();
    // The relaycp model's balanced choice for this listing on two datanodes at the default
    // rates: nothing is measured yet, so it is the same every run.
    assertThat(pairs).isEqualTo(1);
    assertThat(summary.get("plan").get("reason").asText()).isNotBlank();
    assertThat(summary.get("plan").get("notes").toString())
        .contains("source: 2 datanode(s), from the NameNode's datanode report")
        .contains("local relays' rate 15.00 MiB/s: not measured");
    assertThat(summary.get("routes").asInt()).isEqualTo(pairs);
    assertThat(summary.get("routeRates")).hasSize(pairs);
    assertThat(summary.get("verified").asBoolean()).isTrue();
    ThroughputHistory recorded = ThroughputHistoryFile.load(history);
    assertThat(recorded.estimates().keySet()).containsExactly("node/127.0.0.1/external");
    assertThat(recorded.rate("node/127.0.0.1/external").orElseThrow().bytesPerSecond())
        .isPositive();

    // The next auto copy plans with what this one measured.
    Run again = copy("/auto-again", "--pairs", "auto", "--history", history.toString(),
        "-D", "relaycp.copy.max-auto-pairs=1");
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.json().get("plan").get("notes").toString())
        .contains("local relays' rate")
        .contains("measured (throughput history of 127.0.0.1)");
    assertThat(ThroughputHistoryFile.load(history).estimate("node/127.0.0.1/external")
        .orElseThrow().samples()).isEqualTo(2);
  }

  @Test
  void pairsAutoPlansWhatTheCopySendsAndWithNothingToSendStartsOnePair() throws Exception {
    FileSystem source = FileSystemOpener.of(new Configuration()).open(clusters.sourceUri("/"));
    DemoDataset.write(source, new org.apache.hadoop.fs.Path("/changing"), BLOCK, 3, 2, 11);
    Run first = copyFrom("/changing", "/changing-copy", "--pairs", "1", "--no-history");
    assertThat(first.exitCode()).as(first.err()).isZero();

    // Nothing differs: the planner has nothing to weigh, and the copy starts one local pair.
    Run equal = copyFrom("/changing", "/changing-copy", "--pairs", "auto", "--update",
        "--no-history");
    assertThat(equal.exitCode()).as(equal.err()).isZero();
    JsonNode plan = equal.json().get("plan");
    assertThat(plan.get("pairs").asInt()).isEqualTo(1);
    assertThat(plan.get("reason").asText()).contains("nothing to send");
    assertThat(plan.get("notes")).isEmpty();
    assertThat(equal.json().get("files").asInt()).isZero();
    ReportSchema.assertFollows(equal.json());

    // One file is added: the plan is of that file alone, not of the whole tree.
    try (FSDataOutputStream out =
        source.create(new org.apache.hadoop.fs.Path("/changing/added.bin"))) {
      out.write(new byte[5000]);
    }
    Run changed = copyFrom("/changing", "/changing-copy", "--pairs", "auto", "--update",
        "--no-history");
    assertThat(changed.exitCode()).as(changed.err()).isZero();
    assertThat(changed.json().get("files").asInt()).isEqualTo(1);
    assertThat(changed.json().get("plan").get("notes").get(0).asText())
        .startsWith("work: 1 file(s), 5000 bytes, the copy's to send");
    assertThat(changed.json().get("verified").asBoolean()).isTrue();
  }

  @Test
  void fixedPairsAndTheHistoryFileProperty() throws Exception {
    Path history = temporary.resolve("from-property.json");
    Run run = copy("/fixed", "--pairs", "2", "-D", "relaycp.history.file=" + history);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.json().get("routes").asInt()).isEqualTo(2);
    assertThat(run.json().has("plan")).isFalse();
    assertThat(ThroughputHistoryFile.load(history).estimates()).isNotEmpty();
  }

  @Test
  void noHistoryRecordsNothing() throws Exception {
    Path history = temporary.resolve("history.json");
    Run flag = copy("/quiet", "--local-relays", "1", "--history", history.toString(),
        "--no-history");
    Run property = copy("/quiet-too", "--local-relays", "1", "--history", history.toString(),
        "-D", "relaycp.history.enabled=false");

    assertThat(flag.exitCode()).as(flag.err()).isZero();
    assertThat(property.exitCode()).as(property.err()).isZero();
    assertThat(Files.exists(history)).isFalse();
  }

  @Test
  void aHistoryThatCannotBeWrittenDoesNotFailTheCopy() throws Exception {
    Path notADirectory = Files.writeString(temporary.resolve("plain-file"), "x");
    Path history = notADirectory.resolve("history.json");
    Run run = copy("/unrecorded", "--local-relays", "1", "--history", history.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.json().get("verified").asBoolean()).isTrue();
    assertThat(run.err()).contains("relaycp: warning: could not record the measured throughputs in "
        + history);
  }
}
