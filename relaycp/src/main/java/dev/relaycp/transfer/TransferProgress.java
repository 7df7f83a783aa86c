package dev.relaycp.transfer;

/**
 * A snapshot of a running copy, for progress displays.
 *
 * @param routesStalled routes that hold chunks and have answered none for 10 s (or half the
 *     stall time, where that is shorter)
 */
public record TransferProgress(
    long bytesDone,
    long bytesTotal,
    int chunksDone,
    int chunksTotal,
    int routesActive,
    int routesStalled,
    int chunksResent,
    String phase) {

  /** Receives snapshots; called from the copy's threads, so it must be quick and thread-safe. */
  public interface Listener {
    void update(TransferProgress progress);

    Listener NONE = progress -> { };
  }
}
