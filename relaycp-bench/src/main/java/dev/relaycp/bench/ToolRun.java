package dev.relaycp.bench;

import static java.util.Objects.requireNonNull;

/** One tool's copy of a dataset: how much, how fast, and whether every file verified. */
public record ToolRun(
    String tool, long bytes, int files, double seconds, int verifiedFiles, String note) {
  public ToolRun {
    requireNonNull(tool, "tool is null");
    requireNonNull(note, "note is null");
  }

  public double megabytesPerSecond() {
    return seconds <= 0 ? 0 : bytes / 1e6 / seconds;
  }

  public boolean verified() {
    return verifiedFiles == files;
  }
}
