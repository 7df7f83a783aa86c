package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.testkit.EmbeddedClusters;
import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's two {@link EmbeddedClusters} and its {@link RelayFixture}, registered as a
 * static {@code @RegisterExtension} field: both start before the class's {@code @BeforeAll}
 * methods, clusters first, and close after its {@code @AfterAll} methods, relays first, also
 * when starting failed halfway. The relays and {@link #opener()} share one configuration,
 * unless the driver's is given apart.
 * {@link #source()} and {@link #destination()} are opened when asked for, not at start: a
 * {@link FileSystemOpener} shares its instances with every other opener in the JVM, so one
 * opened early would be the one a test's own opener gets.
 */
final class ClustersWithRelays implements BeforeAllCallback, AfterAllCallback {
  private final int datanodes;
  private final long blockSize;
  private final int relayPairs;
  private final Configuration relayConfiguration;
  private final FileSystemOpener opener;
  private EmbeddedClusters clusters;
  private RelayFixture relays;

  private ClustersWithRelays(int datanodes, long blockSize, int relayPairs,
      Configuration driverConfiguration, Configuration relayConfiguration) {
    this.datanodes = datanodes;
    this.blockSize = blockSize;
    this.relayPairs = relayPairs;
    this.relayConfiguration = new Configuration(relayConfiguration);
    this.opener = FileSystemOpener.of(driverConfiguration);
  }

  /**
   * Clusters of {@code datanodes} datanodes each with blocks of {@code blockSize} bytes, and
   * {@code relayPairs} routes of relays whose clients use {@code configuration}.
   */
  static ClustersWithRelays of(int datanodes, long blockSize, int relayPairs,
      Configuration configuration) {
    return of(datanodes, blockSize, relayPairs, configuration, configuration);
  }

  /**
   * As {@link #of(int, long, int, Configuration)}, with {@link #opener()} (the driver's) using
   * {@code driverConfiguration} and the relays {@code relayConfiguration}.
   */
  static ClustersWithRelays of(int datanodes, long blockSize, int relayPairs,
      Configuration driverConfiguration, Configuration relayConfiguration) {
    return new ClustersWithRelays(datanodes, blockSize, relayPairs,
        requireNonNull(driverConfiguration, "driverConfiguration is null"),
        requireNonNull(relayConfiguration, "relayConfiguration is null"));
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    clusters = EmbeddedClusters.start(datanodes, blockSize);
    relays = RelayFixture.start(relayPairs, relayConfiguration);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      if (relays != null) {
        relays.close();
      }
    } finally {
      relays = null;
      if (clusters != null) {
        clusters.close();
        clusters = null;
      }
    }
  }

  EmbeddedClusters clusters() {
    return requireNonNull(clusters, "the clusters have not started");
  }

  URI sourceUri(String path) {
    return clusters().sourceUri(path);
  }

  URI destinationUri(String path) {
    return clusters().destinationUri(path);
  }

  RelayFixture relays() {
    return requireNonNull(relays, "the relays have not started");
  }

  List<Route> routes() {
    return relays().routes;
  }

  TransferSecret secret() {
    return relays().secret;
  }

  /** The driver's opener: the relays' configuration, unless it was given apart. */
  FileSystemOpener opener() {
    return opener;
  }

  /** The source cluster's root, from {@link #opener()}. */
  FileSystem source() {
    return opener.open(sourceUri("/"));
  }

  /** The destination cluster's root, from {@link #opener()}. */
  FileSystem destination() {
    return opener.open(destinationUri("/"));
  }
}
