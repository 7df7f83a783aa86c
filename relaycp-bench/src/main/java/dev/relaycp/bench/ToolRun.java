package dev.relaycp.bench;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One tool's copy of a dataset: how much, how fast, and whether every file verified.
 *
 * @param details what the tool reports beyond these figures (relaycp: its relays and the
 *     share of bytes read locally), in the order to print them
 */
public record ToolRun(String tool, long bytes, int files, double seconds, int verifiedFiles,
    String note, Map<String, Object> details) {
  public ToolRun {
    requireNonNull(tool, "tool is null");
    requireNonNull(note, "note is null");
    details = Collections.unmodifiableMap(
        new LinkedHashMap<>(requireNonNull(details, "details is null")));
  }

  public ToolRun(String tool, long bytes, int files, double seconds, int verifiedFiles,
      String note) {
    this(tool, bytes, files, seconds, verifiedFiles, note, Map.of());
  }

  public double megabytesPerSecond() {
    return seconds <= 0 ? 0 : bytes / 1e6 / seconds;
  }

  public boolean verified() {
    return verifiedFiles == files;
  }
}
