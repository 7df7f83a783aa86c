package dev.relaycp.bench;

import static java.util.Objects.requireNonNull;

import dev.relaycp.cli.CopyProgress;
import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.provision.YarnRelaySettings;
import dev.relaycp.provision.YarnRelays;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedSite;
import dev.relaycp.testkit.EmbeddedSites;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * The demo with relays as YARN containers: each embedded site is a MiniDFSCluster with a
 * MiniYARNCluster beside it, one NodeManager per datanode, and relaycp starts one relay
 * container per datanode on each, from the product jar, as it would on two real clusters.
 */
final class YarnDemo {
  private final Configuration configuration;
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean json;
  private final int datanodes;
  private final long blockSize;
  private final int smallFiles;
  private final int blocks;

  YarnDemo(Configuration configuration, PrintWriter out, PrintWriter err, boolean json,
      int datanodes, long blockSize, int smallFiles, int blocks) {
    this.configuration = new Configuration(requireNonNull(configuration, "configuration is null"));
    this.out = requireNonNull(out, "out is null");
    this.err = requireNonNull(err, "err is null");
    this.json = json;
    this.datanodes = datanodes;
    this.blockSize = blockSize;
    this.smallFiles = smallFiles;
    this.blocks = blocks;
  }

  int run() throws Exception {
    if (configuration.get(YarnRelaySettings.JAR) == null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "the YARN demo ships the product"
          + " jar to its containers; run it through bin/relaycp, or pass -D "
          + YarnRelaySettings.JAR + "=relaycp/target/relaycp-<version>.jar");
    }
    YarnRelaySettings settings = YarnRelaySettings.from(withSmallContainers(configuration),
        Map.of());
    List<String> hadoop = hadoopClassPath();
    try (EmbeddedSites sites = EmbeddedSites.start(datanodes, blockSize, hadoop)) {
      EmbeddedSite source = sites.source();
      EmbeddedSite destination = sites.destination();
      FileSystem sourceFiles = FileSystemOpener.of(configuration).open(source.uri("/"));
      List<String> files = DemoDataset.write(sourceFiles, new org.apache.hadoop.fs.Path("/demo"),
          blockSize, smallFiles, blocks, 20261122L);
      if (!json) {
        err.printf(Locale.ROOT, "Dataset: %d files on %s; copying with relaycp (relays as YARN containers,"
            + " one per datanode on each site) and DistCp%n", files.size(), source.uri("/demo"));
        err.flush();
      }
      SideBySide harness = new SideBySide(configuration);
      TransferSecret secret = TransferSecret.generate();
      ToolRun relaycp;
      try (YarnRelays.Starting yarnRelays = YarnRelays.begin(new YarnRelays.Request(
          "relaycp " + source.uri("/demo") + " -> " + destination.uri("/relaycp-copy"),
          source.configuration(), destination.configuration(), 0, settings, secret))) {
        relaycp = harness.relaycp(source.uri("/demo"), destination.uri("/relaycp-copy"),
            secret, tree -> yarnRelays.withListing(tree.hostsByBytes()),
            "relays as YARN containers", CopyProgress.start(!json));
      }
      ToolRun distcp = harness.distcp(source.uri("/demo"), destination.uri("/distcp-copy"),
          2 * datanodes);
      return DemoCommand.report(out, json, "yarn", List.of(relaycp, distcp));
    }
  }

  /**
   * The demo's containers share one machine: smaller than the 1 GiB a cluster would give. Its
   * NodeManagers' folders go with the demo, so no class-data archive is made there: none would
   * ever be used. A value the user chose (-D, relaycp-site.xml) stays; relaycp-default.xml's
   * values are not a choice.
   */
  static Configuration withSmallContainers(Configuration configuration) {
    Configuration small = new Configuration(configuration);
    if (!RelayKeys.isChosen(small, YarnRelaySettings.CLASS_DATA_ARCHIVE)) {
      small.setBoolean(YarnRelaySettings.CLASS_DATA_ARCHIVE, false);
    }
    if (!RelayKeys.isChosen(small, YarnRelaySettings.MEMORY_MB)) {
      small.setInt(YarnRelaySettings.MEMORY_MB, 256);
    }
    if (!RelayKeys.isChosen(small, YarnRelaySettings.JAVA_OPTS)) {
      small.set(YarnRelaySettings.JAVA_OPTS, "-Xmx192m -XX:TieredStopAtLevel=1");
    }
    return small;
  }

  /**
   * The containers' class path: this JVM's jars less relaycp's own and what only relaycp
   * bundles, i.e. the Hadoop installation the embedded clusters run.
   */
  static List<String> hadoopClassPath() throws IOException {
    List<String> jars = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String name = Path.of(entry).getFileName() == null ? "" : Path.of(entry).getFileName()
          .toString();
      if (name.endsWith(".jar") && !name.startsWith("relaycp") && !name.startsWith("picocli")
          && !name.startsWith("progressbar") && !name.contains("-tests.jar")) {
        jars.add(entry);
      }
    }
    if (jars.isEmpty()) {
      throw new IOException("no Hadoop jars on this JVM's class path for the containers");
    }
    return jars;
  }
}
