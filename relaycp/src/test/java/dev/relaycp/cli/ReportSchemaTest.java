package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** docs/report.schema.json, the published form of copy --json, against a real copy's summary. */
class ReportSchemaTest {
  static final long BLOCK = 256 * 1024;
  static EmbeddedClusters clusters;
  static JsonNode summary;

  @BeforeAll
  static void copyBetweenTwoClusters() throws IOException {
    clusters = EmbeddedClusters.start(1, BLOCK);
    DemoDataset.write(FileSystemOpener.of(new Configuration()).open(clusters.sourceUri("/")),
        new org.apache.hadoop.fs.Path("/data"), BLOCK, 5, 4, 11);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    // --pairs auto, so that the summary has the planner's part too.
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute("copy",
        clusters.sourceUri("/data").toString(), clusters.destinationUri("/copy").toString(),
        "--pairs", "auto", "-D", "relaycp.copy.max-auto-pairs=1", "--json", "--no-progress",
        "--no-history");
    assertThat(code).as(err.toString()).isZero();
    summary = new ObjectMapper().readTree(out.toString());
  }

  @AfterAll
  static void stopClusters() {
    if (clusters != null) {
      clusters.close();
    }
  }

  static Path schemaFile() {
    return Path.of(System.getProperty("relaycp.project.root"), "docs", "report.schema.json");
  }

  static JsonSchema schema() throws IOException {
    return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(Files.readString(schemaFile()));
  }

  @Test
  void aRealCopysSummaryValidates() throws IOException {
    Set<ValidationMessage> errors = schema().validate(summary);

    assertThat(errors).isEmpty();
    assertThat(summary.get("verification")).hasSize(summary.get("files").asInt());
    assertThat(summary.has("plan")).isTrue();
  }

  @Test
  void theSchemaDescribesEveryFieldTheSummaryHas() throws IOException {
    JsonNode declared = new ObjectMapper().readTree(schemaFile().toFile()).get("properties");
    List<String> undeclared = new ArrayList<>();
    summary.fieldNames().forEachRemaining(name -> {
      if (!declared.has(name)) {
        undeclared.add(name);
      }
    });

    assertThat(undeclared).as("summary fields missing from docs/report.schema.json").isEmpty();
  }

  @Test
  void theSchemaRejectsASummaryWithoutItsCountsOrWithAMistypedFile() throws IOException {
    ObjectNode withoutBytes = summary.deepCopy();
    withoutBytes.remove("bytes");
    ObjectNode mistyped = summary.deepCopy();
    ((ObjectNode) ((ArrayNode) mistyped.get("verification")).get(0)).put("bytes", "many");
    ObjectNode unverified = summary.deepCopy();
    unverified.put("verified", false);

    assertThat(schema().validate(withoutBytes)).extracting(ValidationMessage::getMessage)
        .anyMatch(message -> message.contains("bytes"));
    assertThat(schema().validate(mistyped)).extracting(ValidationMessage::getMessage)
        .anyMatch(message -> message.contains("verification[0].bytes"));
    assertThat(schema().validate(unverified)).isNotEmpty();
  }
}
