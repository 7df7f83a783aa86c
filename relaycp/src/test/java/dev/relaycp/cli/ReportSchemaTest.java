package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A real {@code copy --json} summary against the published schema; and what it refuses. */
class ReportSchemaTest {
  static EmbeddedClusters clusters;
  static JsonNode summary;

  @BeforeAll
  static void copyOnce() throws Exception {
    clusters = EmbeddedClusters.start(1, 256 * 1024);
    DemoDataset.write(clusters.source().getFileSystem(), new Path("/data"), 256 * 1024, 6, 5, 3);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute("copy",
        clusters.sourceUri("/data").toString(), clusters.destinationUri("/copy").toString(),
        "--local-relays", "1", "--json", "--no-progress", "--no-history");
    assertThat(code).as(err.toString()).isZero();
    summary = new ObjectMapper().readTree(out.toString());
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  @Test
  void aRealSummaryFollowsTheSchema() throws Exception {
    ReportSchema.assertFollows(summary);
    assertThat(summary.get("verification").size()).isEqualTo(summary.get("files").asInt());
  }

  @Test
  void aCompressedCopyWithPairsAutoFollowsTheSchemaAndSaysWhatItSampled() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute("copy",
        clusters.sourceUri("/data").toString(), clusters.destinationUri("/compressed").toString(),
        "--pairs", "auto", "--compress", "--json", "--no-progress", "--no-history");
    assertThat(code).as(err.toString()).isZero();
    JsonNode compressed = new ObjectMapper().readTree(out.toString());

    ReportSchema.assertFollows(compressed);
    // The demo's files are random bytes: every frame crossed as it was.
    assertThat(compressed.get("wireBytes").asLong()).isEqualTo(compressed.get("bytes").asLong());
    assertThat(compressed.get("plan").toString())
        .contains("--compress: 1.00 file bytes per byte on the wire");
  }

  @Test
  void theSchemaRefusesASummaryWithoutItsVerdictOrWithAFieldItDoesNotKnow() throws Exception {
    ObjectNode withoutVerdict = summary.deepCopy();
    withoutVerdict.remove("verified");
    assertThat(ReportSchema.problems(withoutVerdict)).isNotEmpty();

    ObjectNode renamed = summary.deepCopy();
    renamed.set("megabytesPerSecond", renamed.remove("mbPerSecond"));
    assertThat(ReportSchema.problems(renamed)).isNotEmpty();
  }
}
