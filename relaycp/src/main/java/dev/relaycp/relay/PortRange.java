package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * The ports a relay that picks its own port ({@code port 0}: YARN's relays, a pool's) may
 * listen on, {@code first} to {@code last} inclusive: a firewall between two datacenters
 * usually opens a range, not every port. Written {@code FIRST-LAST}, or one port alone.
 */
public record PortRange(int first, int last) {
  public PortRange {
    if (first < 1 || last > 65535 || first > last) {
      throw new IllegalArgumentException("a port range runs from 1 to 65535, first to last,"
          + " got " + first + "-" + last);
    }
  }

  /** How many ports the range holds. */
  public int size() {
    return last - first + 1;
  }

  public boolean contains(int port) {
    return port >= first && port <= last;
  }

  /**
   * The range {@link RelayKeys#RELAY_PORT_RANGE} gives in {@code configuration}, empty where it
   * is unset or empty (any free port); a value that is no range is a user error naming the key.
   */
  public static Optional<PortRange> from(Configuration configuration) {
    requireNonNull(configuration, "configuration is null");
    String value = RelayKeys.RELAY_PORT_RANGE.from(configuration);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    String[] ends = value.split("-", -1);
    try {
      if (ends.length <= 2) {
        int first = Integer.parseInt(ends[0].strip());
        int last = ends.length == 2 ? Integer.parseInt(ends[1].strip()) : first;
        return Optional.of(new PortRange(first, last));
      }
    } catch (IllegalArgumentException e) {
      // Not numbers (NumberFormatException is one), or out of order or bounds: told below, as
      // any other value that is no range.
    }
    throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, RelayKeys.RELAY_PORT_RANGE.key()
        + " must be FIRST-LAST (ports 1 to 65535, e.g. 50100-50199) or one port, got '"
        + value + "'");
  }

  @Override
  public String toString() {
    return first == last ? Integer.toString(first) : first + "-" + last;
  }
}
