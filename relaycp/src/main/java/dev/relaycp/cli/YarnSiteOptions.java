package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
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
          + " hdfs-site.xml, yarn-site.xml); default: this process's. With --relays yarn,"
          + " --relay-pool or relay-pool.")
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
