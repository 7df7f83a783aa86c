package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** The published schema of {@code copy --json}, {@code docs/report.schema.json}. */
final class ReportSchema {
  static final Path FILE = Path.of("..", "docs", "report.schema.json");

  private ReportSchema() {}

  static Set<ValidationMessage> problems(JsonNode summary) throws IOException {
    try (InputStream in = Files.newInputStream(FILE)) {
      JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
          .getSchema(in);
      return schema.validate(summary);
    }
  }

  /** Fails, listing what is wrong, unless {@code summary} follows the schema. */
  static void assertFollows(JsonNode summary) throws IOException {
    assertThat(problems(summary)).as("%s against %s", summary, FILE).isEmpty();
  }
}
