package dev.relaycp.cli;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;
import dev.relaycp.plan.DataRate;
import dev.relaycp.plan.DataSize;
import dev.relaycp.plan.DistcpSettings;
import dev.relaycp.plan.Pricing;
import dev.relaycp.plan.Site;
import picocli.CommandLine.Option;

/** {@code plan}'s figures of the clusters' nodes: rates, replication, block size and prices. */
public final class NodeOptions {
  @Option(names = "--replication", paramLabel = "R",
      description = "Copies the destination file system writes of each byte (what-if default: 1;"
          + " live: the destination's default replication).")
  Integer replication;

  @Option(names = "--internal", paramLabel = "RATE",
      description = "Throughput of each node inside its site (default: ${DEFAULT-VALUE}, thesis"
          + " Table 4.3; live: measured figures from --history first).")
  String internal = Site.DEFAULT_NODE_INTERNAL.toString();

  @Option(names = "--external", paramLabel = "RATE",
      description = "WAN throughput of each node to the other site (default: ${DEFAULT-VALUE},"
          + " thesis Table 4.3; live: measured figures from --history first).")
  String external = Site.DEFAULT_NODE_EXTERNAL.toString();

  @Option(names = "--block-size", paramLabel = "SIZE",
      description = "HDFS block size (what-if default: ${DEFAULT-VALUE}; live: the source files'"
          + " largest).")
  String blockSize;

  @Option(names = "--egress-per-gb", paramLabel = "DOLLARS",
      description = "Egress price per GB (2^30 bytes) (default: ${DEFAULT-VALUE}, thesis Table 4.4).")
  double egressPerGigabyte = Pricing.DEFAULT.egressDollarsPerGibibyte();

  @Option(names = "--node-price-per-hour", paramLabel = "DOLLARS",
      description = "Price of a cluster node's hour, counted for DistCp (default: ${DEFAULT-VALUE}:"
          + " not counted).")
  double nodePricePerHour = Pricing.DEFAULT.clusterNodeDollarsPerHour();

  public DataRate internal() {
    return DataRate.parse(internal);
  }

  public DataRate external() {
    return DataRate.parse(external);
  }

  /** The block size given, else {@code otherwise}. */
  public DataSize blockSize(DataSize otherwise) {
    return blockSize == null ? otherwise : DataSize.parse(blockSize);
  }

  /** The what-if block size: as given, else DistCp's default. */
  public DataSize blockSize() {
    return blockSize(DistcpSettings.DEFAULT.blockSize());
  }

  /** The replication given, else {@code otherwise}; one below 1 is INVALID_ARGUMENT. */
  public int replication(int otherwise) {
    if (replication != null && replication < 1) {
      throw new RelayCpException(INVALID_ARGUMENT,
          "node counts and --replication must be 1 or more, got " + replication + "; give 1 or more");
    }
    return replication == null ? otherwise : replication;
  }

  public Pricing pricing() {
    return new Pricing(egressPerGigabyte, nodePricePerHour);
  }
}
