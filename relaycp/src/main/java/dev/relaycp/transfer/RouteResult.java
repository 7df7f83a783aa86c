package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.RelayAddress;

/**
 * What one route carried in a copy: the bytes and chunks it delivered, and its busy time, the
 * seconds during which it had at least one chunk on the wire. {@link #bytesPerSecond()} is the
 * route's own rate, not diluted by time it spent waiting for the queue or for other routes.
 *
 * @param routeId the route's id in the copy
 * @param reader the source-site relay
 * @param writer the destination-site relay
 * @param bytes bytes of the chunks the route delivered (chunks that failed on it not counted)
 * @param chunks chunks the route delivered
 * @param busySeconds seconds with at least one chunk in flight on the route
 * @param dropped whether the route was dropped before the copy ended
 * @param joinedSeconds seconds from the start of the copy (its listing) until the route
 *     joined: relays started for the copy join as they come up
 * @param wireBytes bytes that crossed the relay hop for those chunks: {@code bytes}, or fewer
 *     where the copy compressed them
 */
public record RouteResult(
    int routeId,
    RelayAddress reader,
    RelayAddress writer,
    long bytes,
    int chunks,
    double busySeconds,
    boolean dropped,
    double joinedSeconds,
    long wireBytes) {

  /** A route whose bytes crossed uncompressed. */
  public RouteResult(int routeId, RelayAddress reader, RelayAddress writer, long bytes,
      int chunks, double busySeconds, boolean dropped, double joinedSeconds) {
    this(routeId, reader, writer, bytes, chunks, busySeconds, dropped, joinedSeconds, bytes);
  }

  public RouteResult {
    requireNonNull(reader, "reader is null");
    requireNonNull(writer, "writer is null");
    if (bytes < 0 || chunks < 0 || !(busySeconds >= 0) || !(joinedSeconds >= 0)
        || wireBytes < 0) {
      throw new IllegalArgumentException("bytes " + bytes + ", chunks " + chunks
          + ", busySeconds " + busySeconds + " and joinedSeconds " + joinedSeconds
          + " must not be negative (wireBytes " + wireBytes + ")");
    }
  }

  /** Bytes per busy second; 0 for a route that carried nothing. */
  public double bytesPerSecond() {
    return bytes == 0 || busySeconds <= 0 ? 0 : bytes / busySeconds;
  }
}
