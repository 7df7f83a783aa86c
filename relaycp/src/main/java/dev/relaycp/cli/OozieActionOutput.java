package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The outcome of a run as the Java properties an Oozie {@code <java>} action with
 * {@code <capture-output/>} hands to later actions ({@code wf:actionData('copy')['bytes']}).
 * Oozie's launcher names the file in the system property {@link #PROPERTY} and refuses one
 * over {@code oozie.action.max.output.data} (2048 characters by default), so the reason is
 * cut to {@link #MAX_REASON} characters.
 */
public final class OozieActionOutput {
  /** The system property Oozie's launcher sets to the file it reads after the main class. */
  public static final String PROPERTY = "oozie.action.output.properties";
  static final int MAX_REASON = 1000;

  private OozieActionOutput() {}

  /**
   * The properties of a run that exited with {@code exitCode}: exitCode, retryable, reason
   * ("ok" on success, else the one-line message), and for a copy that finished bytes, files,
   * seconds and mbPerSecond.
   */
  public static Properties of(int exitCode, RunRecord record) {
    requireNonNull(record, "record is null");
    Properties properties = new Properties();
    record.summary().ifPresent(summary -> {
      for (String key : new String[] {"bytes", "files", "seconds", "mbPerSecond"}) {
        Object value = summary.get(key);
        if (value != null) {
          properties.setProperty(key, String.valueOf(value));
        }
      }
    });
    properties.setProperty("exitCode", Integer.toString(exitCode));
    properties.setProperty("retryable", Boolean.toString(ExitCodes.retryable(exitCode)));
    String reason = exitCode == ExitCodes.OK ? "ok"
        : record.failure().orElse("relaycp exited with code " + exitCode);
    properties.setProperty("reason",
        reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) : reason);
    return properties;
  }

  /** Writes {@link #of} to {@code file}, replacing it. */
  public static void write(Path file, int exitCode, RunRecord record) throws IOException {
    requireNonNull(file, "file is null");
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.ISO_8859_1)) {
      of(exitCode, record).store(out, "relaycp");
    }
  }
}
