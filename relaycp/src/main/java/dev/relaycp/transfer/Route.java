package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.RelayAddress;

/** The hops one chunk takes: a reader relay on the source side, a writer on the destination. */
public record Route(int id, RelayAddress reader, RelayAddress writer) {
  public Route {
    requireNonNull(reader, "reader is null");
    requireNonNull(writer, "writer is null");
  }

  @Override
  public String toString() {
    return "route " + id + " (" + reader + " -> " + writer + ")";
  }
}
