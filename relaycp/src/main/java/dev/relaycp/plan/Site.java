package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;

/**
 * One cluster: its datanode count and each datanode's throughput to the other site
 * ({@code external}, the WAN cap) and over its link, all its traffic together ({@code
 * internal}). {@code replication} is how many copies the site's file system writes of each byte
 * (1 for a what-if of plain nodes); each extra copy crosses the internal network once more.
 * {@code placement} is where a source's bytes are among its datanodes (evenly, unless a listing
 * or a what-if says otherwise); a destination's is not used.
 */
public record Site(int nodes, DataRate external, DataRate internal, int replication,
    Placement placement) {
  /** A node's WAN rate when nothing better is known: thesis Table 4.3's v_e. */
  public static final DataRate DEFAULT_NODE_EXTERNAL = DataRate.ofMebibytesPerSecond(15);
  /** A node's rate inside its site when nothing better is known: thesis Table 4.3's v_i. */
  public static final DataRate DEFAULT_NODE_INTERNAL = DataRate.ofMebibytesPerSecond(90);

  public Site {
    requireNonNull(external, "external is null");
    requireNonNull(internal, "internal is null");
    requireNonNull(placement, "placement is null");
    if (nodes < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "node count " + nodes + " is below 1; a site has at least one node");
    }
    if (replication < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "replication " + replication + " is below 1; give 1 or more");
    }
    if (placement.highestHolder() >= nodes) {
      throw new RelayCpException(INVALID_ARGUMENT, "the placement puts bytes on datanode "
          + (placement.highestHolder() + 1) + " of a site with " + nodes + "; give a placement"
          + " for " + nodes + " datanode(s)");
    }
  }

  /** A site whose bytes, if it is the source, are spread evenly over its datanodes. */
  public Site(int nodes, DataRate external, DataRate internal, int replication) {
    this(nodes, external, internal, replication,
        Placement.even(Math.max(1, nodes), Math.max(1, replication)));
  }

  /** This site with its bytes placed as {@code where} says. */
  public Site withPlacement(Placement where) {
    return new Site(nodes, external, internal, replication, where);
  }

  public static Site of(int nodes, DataRate external, DataRate internal) {
    return new Site(nodes, external, internal, 1);
  }

  /**
   * How many copies of each byte the site's datanodes hold once written: the replication, but at
   * most one a datanode. HDFS puts a block's replicas on distinct datanodes, and where there are
   * fewer datanodes than the replication asks for, it leaves the block under-replicated rather
   * than failing the write.
   */
  public int replicasWritten() {
    return Math.min(replication, nodes);
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
