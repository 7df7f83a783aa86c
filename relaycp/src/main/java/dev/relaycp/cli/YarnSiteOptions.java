package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import picocli.CommandLine.Option;

/**
 * Each cluster's Hadoop configuration folder and how many relays YARN starts on each site: for
 * relays YARN starts (`copy --relays yarn`, `relay-pool`), whose ResourceManagers and file
 * systems they name, and for the driver, which opens each cluster with them.
 */
public final class YarnSiteOptions {
  private static final List<String> SITE_FILES =
      List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml");

  @Option(names = "--src-conf", paramLabel = "DIR",
      description = "The source cluster's Hadoop configuration folder (core-site.xml,"
          + " hdfs-site.xml, yarn-site.xml); default: this process's. With relays YARN starts"
          + " (--relays yarn, --dst-relays yarn), --relay-pool or relay-pool.")
  Path sourceConf;

  @Option(names = "--dst-conf", paramLabel = "DIR",
      description = "The destination cluster's configuration folder; default: this process's.")
  Path destinationConf;

  @Option(names = "--relays-per-site", paramLabel = "N",
      description = "Relays YARN starts on each site (default: one per datanode).")
  Integer relaysPerSite;

  /** Whether any of these options is given. */
  boolean given() {
    return sourceConf != null || destinationConf != null || relaysPerSite != null;
  }

  /** The checks of these options, each a one-line INVALID_ARGUMENT. */
  void check() {
    if (relaysPerSite != null && relaysPerSite < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--relays-per-site must be 1 or more, got " + relaysPerSite);
    }
    for (Path folder : new Path[] {sourceConf, destinationConf}) {
      if (folder != null && !Files.isDirectory(folder)) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "configuration folder " + folder
            + " does not exist; give the folder holding the cluster's core-site.xml and"
            + " yarn-site.xml");
      }
    }
  }

  /** Whether --relays-per-site is given. */
  boolean relaysPerSiteGiven() {
    return relaysPerSite != null;
  }

  /** Relays on each site as YarnRelays.Request takes them: 0 for one per datanode. */
  int relaysPerSite() {
    return relaysPerSite == null ? 0 : relaysPerSite;
  }

  /** The source cluster's client configuration: {@code base}, with --src-conf's files on top. */
  Configuration sourceConfiguration(Configuration base) {
    return siteConfiguration(base, sourceConf);
  }

  /** The destination cluster's: {@code base}, with --dst-conf's files on top. */
  Configuration destinationConfiguration(Configuration base) {
    return siteConfiguration(base, destinationConf);
  }

  /**
   * Refuses configuration folders crossed with SRC and DST: SRC on the cluster that the
   * destination's configuration describes and not on the source's (or DST the other way round)
   * would start each site's relays on the other cluster, every byte crossing the WAN twice. A
   * configuration describes the cluster of its {@code fs.defaultFS} and its
   * {@code dfs.nameservices}; a URI neither describes (an address written another way) is let
   * through.
   */
  void checkNotCrossed(URI source, URI destination, Configuration base) {
    if (sourceConf == null && destinationConf == null) {
      return;
    }
    Set<String> onSource = clusters(sourceConfiguration(base));
    Set<String> onDestination = clusters(destinationConfiguration(base));
    Optional<String> sourceCluster = cluster(source);
    Optional<String> destinationCluster = cluster(destination);
    boolean sourceCrossed = sourceCluster.filter(
        name -> onDestination.contains(name) && !onSource.contains(name)).isPresent();
    boolean destinationCrossed = destinationCluster.filter(
        name -> onSource.contains(name) && !onDestination.contains(name)).isPresent();
    String sourceFolder = describe("--src-conf", sourceConf);
    String destinationFolder = describe("--dst-conf", destinationConf);
    if (sourceCrossed && destinationCrossed) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, sourceFolder + " describes DST's"
          + " cluster and " + destinationFolder + " SRC's: they are swapped; give --src-conf"
          + " SRC's cluster's configuration folder and --dst-conf DST's");
    }
    if (sourceCrossed) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "SRC's cluster ("
          + sourceCluster.get() + ") is the one " + destinationFolder + " describes, not "
          + sourceFolder + ", so the source's relays would start on the other cluster; give"
          + " --src-conf SRC's cluster's configuration folder");
    }
    if (destinationCrossed) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "DST's cluster ("
          + destinationCluster.get() + ") is the one " + sourceFolder + " describes, not "
          + destinationFolder + ", so the destination's relays would start on the other"
          + " cluster; give --dst-conf DST's cluster's configuration folder");
    }
  }

  private static String describe(String option, Path folder) {
    return folder == null ? "this process's configuration (no " + option + ")"
        : option + " " + folder;
  }

  /** The clusters a configuration describes, as {@link #cluster} names them. */
  private static Set<String> clusters(Configuration configuration) {
    Set<String> clusters = new HashSet<>();
    cluster(FileSystem.getDefaultUri(configuration)).ifPresent(clusters::add);
    for (String nameservice : configuration.getTrimmedStringCollection("dfs.nameservices")) {
      cluster(URI.create("hdfs://" + nameservice)).ifPresent(clusters::add);
    }
    return clusters;
  }

  /**
   * An HDFS URI's cluster as {@code host:port} (the namenode's default port where none is
   * written, as a nameservice has none); empty for a URI without an authority or of another scheme.
   */
  private static Optional<String> cluster(URI uri) {
    if (!"hdfs".equals(uri.getScheme()) || uri.getHost() == null) {
      return Optional.empty();
    }
    int port = uri.getPort() == -1 ? HdfsClientConfigKeys.DFS_NAMENODE_RPC_PORT_DEFAULT
        : uri.getPort();
    return Optional.of(uri.getHost().toLowerCase(Locale.ROOT) + ":" + port);
  }

  /**
   * Opens SRC's cluster with --src-conf's configuration and DST's with --dst-conf's, where
   * given, and any other with {@code base}.
   */
  FileSystemOpener opener(Configuration base, URI source, URI destination) {
    FileSystemOpener opener = FileSystemOpener.of(base);
    if (sourceConf != null) {
      opener = opener.withCluster(source, sourceConfiguration(base));
    }
    if (destinationConf != null) {
      opener = opener.withCluster(destination, destinationConfiguration(base));
    }
    return opener;
  }

  /** {@code base} with the cluster configuration files in {@code folder} on top. */
  private static Configuration siteConfiguration(Configuration base, Path folder) {
    Configuration configuration = new Configuration(base);
    if (folder == null) {
      return configuration;
    }
    for (String name : SITE_FILES) {
      Path file = folder.resolve(name);
      if (Files.isRegularFile(file)) {
        try {
          configuration.addResource(file.toUri().toURL());
        } catch (MalformedURLException e) {
          throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
              "cannot read " + file + ": " + e.getMessage(), e);
        }
      }
    }
    return configuration;
  }
}
