package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;

/**
 * One cluster: its datanode count and each datanode's throughput to the other site
 * ({@code external}, the WAN cap) and inside its own site ({@code internal}). {@code replication}
 * is how many copies the site's file system writes of each byte (1 for a what-if of plain
 * nodes); each extra copy crosses the internal network once more.
 */
public record Site(int nodes, DataRate external, DataRate internal, int replication) {
  /** A node's WAN rate when nothing better is known: thesis Table 4.3's v_e. */
  public static final DataRate DEFAULT_NODE_EXTERNAL = DataRate.ofMebibytesPerSecond(15);
  /** A node's rate inside its site when nothing better is known: thesis Table 4.3's v_i. */
  public static final DataRate DEFAULT_NODE_INTERNAL = DataRate.ofMebibytesPerSecond(90);

  public Site {
    requireNonNull(external, "external is null");
    requireNonNull(internal, "internal is null");
    if (nodes < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "node count " + nodes + " is below 1; a site has at least one node");
    }
    if (replication < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "replication " + replication + " is below 1; give 1 or more");
    }
  }

  public static Site of(int nodes, DataRate external, DataRate internal) {
    return new Site(nodes, external, internal, 1);
  }

  /** What all the site's nodes together can send or receive over the internal network. */
  public DataRate internalTotal() {
    return internal.times(nodes);
  }

  /** The site's WAN cap summed over its nodes. */
  public DataRate externalTotal() {
    return external.times(nodes);
  }
}
