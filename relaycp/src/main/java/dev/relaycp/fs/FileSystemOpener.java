package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens Hadoop file systems for relaycp. Every FileSystem it returns compares checksums in
 * {@code COMPOSITE_CRC} mode, which does not depend on block or chunk size, so a source and a
 * destination with different layouts give equal checksums for equal bytes.
 *
 * <p>Hadoop's own cache ({@code FileSystem.get}) keys instances by scheme, authority and user,
 * not by configuration: code that opened the same cluster first (a test, an embedding
 * application, an earlier copy in the same JVM with other {@code -D} options) would hand
 * relaycp an instance in another checksum mode or checksum type. So relaycp keeps its own
 * instances ({@code FileSystem.newInstance}), one per scheme, authority, user and
 * configuration (every property, compared by digest), shared by every opener in the process
 * whose settings are equal, and makes no instance in Hadoop's cache beside them; Hadoop's
 * shutdown hook closes them.
 *
 * <p>Its HDFS clients also retry a file's close sooner than HDFS's defaults, unless the site
 * or the user set either key: see {@link #CLOSE_FIRST_RETRY_MILLIS}.
 */
public final class FileSystemOpener {
  /** The Hadoop key that selects how block checksums are combined into a file checksum. */
  public static final String CHECKSUM_COMBINE_MODE = "dfs.checksum.combine.mode";
  /** How long an HDFS client waits before it first asks again to close a file. */
  public static final String CLOSE_FIRST_RETRY_KEY =
      "dfs.client.block.write.locateFollowingBlock.initial.delay.ms";
  /** How many times an HDFS client asks again, each wait twice the one before. */
  public static final String CLOSE_RETRIES_KEY =
      "dfs.client.block.write.locateFollowingBlock.retries";
  /**
   * relaycp's first wait before an HDFS client asks its namenode again to close a file, in
   * place of HDFS's 400 ms. A namenode closes a file only once a datanode has reported the
   * file's last block, and the client's first request often comes before that report: in the
   * WAN lab 36-61% of small files' closes waited, so the 400 ms was most of a small file's
   * cost. DistCp's maps on 5,000 files of 64 KiB took 359 s with HDFS's waits and 186 s with
   * these (bench/results/lab-2026-11-29-close-retry/). The same keys pace the retries of a
   * block's allocation, which these settings also make sooner.
   */
  public static final int CLOSE_FIRST_RETRY_MILLIS = 25;
  /**
   * Retries after {@link #CLOSE_FIRST_RETRY_MILLIS}: 25 ms doubled nine times gives up after
   * 12.8 s, as HDFS's five retries from 400 ms do after 12.4 s.
   */
  public static final int CLOSE_RETRIES = 9;

  private static final Logger LOG = LoggerFactory.getLogger(FileSystemOpener.class);
  private static final Map<Key, FileSystem> OPENED = new ConcurrentHashMap<>();
  private static final String[] HDFS_CLIENT_CLASSES = {
    "org.apache.hadoop.hdfs.DFSClient",
    "org.apache.hadoop.hdfs.DFSInputStream",
    "org.apache.hadoop.hdfs.DFSOutputStream",
    "org.apache.hadoop.hdfs.DataStreamer",
    "org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolTranslatorPB",
    "org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos",
    "org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos",
  };

  private final Configuration configuration;
  /** {@link #configuration}'s digest, which instances are shared by; it is never changed. */
  private final String settings;

  private FileSystemOpener(Configuration configuration) {
    this.configuration = new Configuration(configuration);
    this.configuration.set(CHECKSUM_COMBINE_MODE, "COMPOSITE_CRC");
    if (!chosen(configuration, CLOSE_FIRST_RETRY_KEY)
        && !chosen(configuration, CLOSE_RETRIES_KEY)) {
      this.configuration.setInt(CLOSE_FIRST_RETRY_KEY, CLOSE_FIRST_RETRY_MILLIS);
      this.configuration.setInt(CLOSE_RETRIES_KEY, CLOSE_RETRIES);
    }
    this.settings = digest(this.configuration);
  }

  /**
   * Every property of {@code configuration}, in name order, as one SHA-256: two openers share
   * instances exactly when their settings are equal, however each Configuration was made.
   */
  private static String digest(Configuration configuration) {
    Map<String, String> sorted = new TreeMap<>();
    for (Map.Entry<String, String> property : configuration) {
      sorted.put(property.getKey(), property.getValue());
    }
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256, which every Java has", e);
    }
    for (Map.Entry<String, String> property : sorted.entrySet()) {
      digest.update(property.getKey().getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
      digest.update(String.valueOf(property.getValue()).getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  /** Whether {@code key} was set by anything but Hadoop's own defaults (a site file, -D, code). */
  private static boolean chosen(Configuration configuration, String key) {
    String[] sources = configuration.getPropertySources(key);
    return sources != null
        && Arrays.stream(sources).anyMatch(source -> !source.endsWith("-default.xml"));
  }

  public static FileSystemOpener of(Configuration configuration) {
    return new FileSystemOpener(requireNonNull(configuration, "configuration is null"));
  }

  public Configuration configuration() {
    return new Configuration(configuration);
  }

  /**
   * Loads the login user and the HDFS client's classes now, and opens the client of the
   * configured default file system ({@code fs.defaultFS}, the relay's own cluster) when it is
   * HDFS, without connecting anywhere: a client makes no call to its namenode until it is
   * used. A relay's first chunk then does not pay for them (several seconds of CPU on a small
   * machine). A class that is not on the class path, or a default that cannot be opened, is
   * skipped.
   */
  public void prepare() {
    try {
      UserGroupInformation.getCurrentUser();
      FileSystem.getFileSystemClass("hdfs", configuration);
    } catch (IOException e) {
      LOG.debug("Could not prepare the HDFS client: {}", e.toString());
    }
    for (String name : HDFS_CLIENT_CLASSES) {
      try {
        Class.forName(name, true, FileSystemOpener.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        LOG.debug("Not preloaded: {}", name);
      }
    }
    URI home = FileSystem.getDefaultUri(configuration);
    if ("hdfs".equals(home.getScheme())) {
      try {
        open(home);
      } catch (RelayCpException e) {
        LOG.debug("Did not open the default file system {}: {}", home, e.getMessage());
      }
    }
  }

  /**
   * The FileSystem for {@code uri}, shared with relaycp's other users of the same cluster with
   * equal settings. The first caller for a cluster, user and settings makes it; callers on
   * other threads that ask for the same one meanwhile wait for it rather than make a second (a
   * driver opens each cluster from its main thread and from the threads that start its YARN
   * relays at once, with the same settings, and an HDFS client first made in a fresh JVM costs
   * tenths of a CPU second).
   */
  public FileSystem open(URI uri) {
    requireNonNull(uri, "uri is null");
    try {
      UserGroupInformation user = UserGroupInformation.getCurrentUser();
      URI cluster = cluster(uri);
      Key key = new Key(cluster.toString(), user, settings);
      // A relay opens a file system at every chunk: the known instance, without a lock.
      FileSystem known = OPENED.get(key);
      if (known != null) {
        return known;
      }
      try {
        return OPENED.computeIfAbsent(key, absent -> {
          try {
            LOG.debug("Opening {} for {} with settings {}", cluster, user,
                settings.substring(0, 12));
            return FileSystem.newInstance(cluster, configuration);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    } catch (UnsupportedFileSystemException e) {
      throw new RelayCpException(ErrorCode.UNSUPPORTED_FILESYSTEM,
          "no Hadoop FileSystem for scheme '" + uri.getScheme() + "' in " + uri
              + "; use an hdfs:// URI or put the scheme's connector on the class path", e);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "connecting to " + uri);
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(ErrorCode.MALFORMED_URI,
          "cannot use " + uri + ": " + e.getMessage() + "; write it as scheme://host:port/path", e);
    }
  }

  /**
   * The file system {@code uri} names, as {@code scheme://authority}, with the configured
   * default filling in what it leaves out, as {@code FileSystem.get} does.
   */
  private URI cluster(URI uri) {
    String scheme = uri.getScheme();
    String authority = uri.getAuthority();
    URI home = FileSystem.getDefaultUri(configuration);
    if (scheme == null && authority == null) {
      scheme = home.getScheme();
      authority = home.getAuthority();
    } else if (scheme != null && authority == null && scheme.equals(home.getScheme())) {
      authority = home.getAuthority();
    }
    if (scheme == null) {
      throw new IllegalArgumentException("it names no scheme, and neither does "
          + FileSystem.FS_DEFAULT_NAME_KEY + " (" + home + ")");
    }
    return URI.create(name(scheme, authority));
  }

  /** A file system's name in {@link Key}: {@code scheme://authority/}. */
  private static String name(String scheme, String authority) {
    return scheme + "://" + (authority == null ? "" : authority) + "/";
  }

  /**
   * Closes every file system opened for {@code user}, relaycp's and Hadoop's cached ones: a
   * relay's caller is one user per transfer, and a long-lived relay serves many transfers.
   */
  public static void closeAll(UserGroupInformation user) {
    requireNonNull(user, "user is null");
    OPENED.entrySet().removeIf(entry -> {
      if (entry.getKey().user() != user) {
        return false;
      }
      try {
        entry.getValue().close();
      } catch (IOException e) {
        LOG.debug("Closing {} for {}: {}", entry.getKey().fileSystem(), user, e.toString());
      }
      return true;
    });
    try {
      FileSystem.closeAllForUGI(user);
    } catch (IOException e) {
      LOG.debug("Closing Hadoop's cached file systems for {}: {}", user, e.toString());
    }
  }

  /**
   * Whether this process already holds relaycp's instance for {@code fileSystem}'s cluster
   * with this opener's settings.
   */
  boolean isOpen(URI fileSystem) throws IOException {
    return OPENED.containsKey(new Key(name(fileSystem.getScheme(), fileSystem.getAuthority()),
        UserGroupInformation.getCurrentUser(), settings));
  }

  /**
   * A file system as {@code scheme://authority/}, the user it is opened for and the digest of
   * the settings it was made with.
   */
  private record Key(String fileSystem, UserGroupInformation user, String settings) {}
}
