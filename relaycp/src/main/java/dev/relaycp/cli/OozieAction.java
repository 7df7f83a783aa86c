package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/**
 * relaycp as the main class of an Oozie {@code <java>} action with {@code <capture-output/>}.
 * Oozie's launcher names a file in the system property {@value #OUTPUT_PROPERTY}; relaycp
 * writes the copy's outcome there as Java properties (bytes, files, seconds, mbPerSecond,
 * exitCode, reason), which later actions read with {@code wf:actionData}. The launcher takes
 * any {@code System.exit} as a failed action, so on success main returns, and on failure it
 * throws with relaycp's one-line message, which Oozie shows as the action's error.
 */
final class OozieAction {
  static final String OUTPUT_PROPERTY = "oozie.action.output.properties";

  private OozieAction() {}

  /** Whether this JVM is an Oozie launcher asking for captured output. */
  static boolean requested() {
    String file = System.getProperty(OUTPUT_PROPERTY);
    return file != null && !file.isBlank();
  }

  /** Runs relaycp with {@code args}, writes the outcome, and throws if it failed. */
  static void run(String[] args) throws Exception {
    Path output = Path.of(requireNonNull(System.getProperty(OUTPUT_PROPERTY),
        OUTPUT_PROPERTY + " is not set"));
    List<String> arguments = new ArrayList<>(List.of(args));
    Path summary = null;
    if (!arguments.isEmpty() && arguments.get(0).equals("copy")
        && !arguments.contains("--report")) {
      summary = Files.createTempFile("relaycp-summary-", ".json");
      arguments.add("--report");
      arguments.add(summary.toString());
    }
    StringWriter errors = new StringWriter();
    PrintWriter err = new PrintWriter(new Tee(errors, new PrintWriter(System.err, true)), true);
    RelayCpTool tool = new RelayCpTool(err);
    int exitCode = ToolRunner.run(new Configuration(), tool, arguments.toArray(String[]::new));
    Properties properties = new Properties();
    properties.setProperty("exitCode", Integer.toString(exitCode));
    if (summary != null && exitCode == ExitCodes.OK && Files.size(summary) > 0) {
      JsonNode report = CopySummary.jsonMapper().readTree(summary.toFile());
      for (String field : List.of("bytes", "files", "seconds", "mbPerSecond", "bytesReused")) {
        properties.setProperty(field, report.path(field).asText());
      }
    }
    String reason = reason(errors.toString());
    properties.setProperty("reason", exitCode == ExitCodes.OK ? "" : reason);
    try (OutputStream out = Files.newOutputStream(output)) {
      properties.store(out, "relaycp " + String.join(" ", args));
    }
    if (summary != null) {
      Files.deleteIfExists(summary);
    }
    if (exitCode != ExitCodes.OK) {
      throw new IllegalStateException((reason.isEmpty() ? "relaycp failed" : reason)
          + " (exit code " + exitCode + ")");
    }
  }

  /** The last line relaycp wrote about why it failed ("relaycp: ..."), or the last line. */
  static String reason(String errors) {
    String last = "";
    for (String line : errors.split("\\R")) {
      if (line.startsWith("relaycp: ")) {
        last = line;
      }
    }
    if (last.isEmpty()) {
      String[] lines = errors.strip().split("\\R");
      last = lines.length == 0 ? "" : lines[lines.length - 1];
    }
    return last.strip();
  }

  /** Writes to two writers: relaycp's messages go on to the launcher's log and are kept. */
  private static final class Tee extends Writer {
    private final Writer first;
    private final Writer second;

    Tee(Writer first, Writer second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public void write(char[] buffer, int offset, int length) throws IOException {
      first.write(buffer, offset, length);
      second.write(buffer, offset, length);
    }

    @Override
    public void flush() throws IOException {
      first.flush();
      second.flush();
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
