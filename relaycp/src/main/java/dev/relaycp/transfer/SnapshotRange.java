package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

/**
 * Two snapshots of the source directory, as DistCp's {@code -diff FROM TO} names them: the
 * copy sends only what changed from {@code from} to {@code to}; the destination must hold a
 * snapshot named {@code from} and be unchanged since it.
 */
public record SnapshotRange(String from, String to) {
  public SnapshotRange {
    requireNonNull(from, "from is null");
    requireNonNull(to, "to is null");
    if (from.isBlank() || to.isBlank() || from.contains("/") || to.contains("/")) {
      throw new IllegalArgumentException(
          "snapshot names must be non-empty and hold no '/', got '" + from + "' and '" + to + "'");
    }
    if (from.equals(to)) {
      throw new IllegalArgumentException("the two snapshots are both '" + from + "'");
    }
  }
}
