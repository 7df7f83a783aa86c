package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;

/**
 * How relaycp moves data: files are cut into chunks of at most {@code chunkSize} (a small file
 * is one chunk), and each source-site relay runs {@code streamsPerRelay} streams that pull
 * chunks from one shared queue.
 */
public record RelaycpSettings(DataSize chunkSize, int streamsPerRelay, CopyOverheads overheads) {
  public static final RelaycpSettings DEFAULT =
      new RelaycpSettings(DataSize.ofMebibytes(128), 16, CopyOverheads.DEFAULT);

  public RelaycpSettings {
    requireNonNull(chunkSize, "chunkSize is null");
    requireNonNull(overheads, "overheads is null");
    if (chunkSize.bytes() < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "chunk size " + chunkSize + " is empty; give at least 1 byte");
    }
    if (streamsPerRelay < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "streams per relay " + streamsPerRelay + " is below 1; give 1 or more");
    }
  }
}
