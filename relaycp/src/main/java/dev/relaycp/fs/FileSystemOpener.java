package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.apache.hadoop.hdfs.HAUtilClient;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
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
 * configuration (its properties beyond the JVM's default resources, compared by digest),
 * shared by every opener in the process whose settings are equal, and makes no instance in
 * Hadoop's cache beside them; Hadoop's shutdown hook closes them. An opener may open some
 * clusters with configurations of their own ({@link #withCluster}): a copy's two sites'.
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

  /** The configuration of every cluster without one of its own (and relaycp's settings). */
  private final Settings base;
  /** Clusters opened with a configuration of their own, by {@link Key#fileSystem} name. */
  private final Map<String, Settings> clusters;

  /**
   * A configuration as this class opens file systems with it, and its digest, which instances
   * are shared by. Neither is changed after it is made.
   */
  private record Settings(Configuration configuration, String digest) {
    static Settings of(Configuration given) {
      Configuration configuration = new Configuration(given);
      configuration.set(CHECKSUM_COMBINE_MODE, "COMPOSITE_CRC");
      if (!RelayKeys.isChosen(given, CLOSE_FIRST_RETRY_KEY)
          && !RelayKeys.isChosen(given, CLOSE_RETRIES_KEY)) {
        configuration.setInt(CLOSE_FIRST_RETRY_KEY, CLOSE_FIRST_RETRY_MILLIS);
        configuration.setInt(CLOSE_RETRIES_KEY, CLOSE_RETRIES);
      }
      return new Settings(configuration, digestOf(configuration));
    }
  }

  private FileSystemOpener(Settings base, Map<String, Settings> clusters) {
    this.base = base;
    this.clusters = Map.copyOf(clusters);
  }

  /**
   * A SHA-256 of the properties {@code configuration} has beyond the JVM's default resources
   * ({@code core-site.xml}, {@code hdfs-default.xml} and the like, named without a folder),
   * in name order: the properties set in code or by {@code -D}, and those of resources added
   * to it (a cluster's configuration folder). Default resources are the same for every
   * configuration in the JVM, but Hadoop adds some only when a class first needs them (HDFS's
   * when its client is first made, YARN's with its first client), and every configuration
   * reloads then: counting them would make the digest depend on when it was taken.
   */
  private static String digestOf(Configuration configuration) {
    Map<String, String> sorted = new TreeMap<>();
    for (Map.Entry<String, String> property : configuration) {
      if (!fromDefaultsOnly(configuration.getPropertySources(property.getKey()))) {
        sorted.put(property.getKey(), property.getValue());
      }
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

  /** Whether every source of a property is a default resource: a bare {@code NAME.xml}. */
  private static boolean fromDefaultsOnly(String[] sources) {
    return sources != null && sources.length > 0 && Arrays.stream(sources)
        .allMatch(source -> source.endsWith(".xml") && source.indexOf('/') < 0
            && source.indexOf(':') < 0 && source.indexOf(' ') < 0);
  }

  public static FileSystemOpener of(Configuration configuration) {
    return new FileSystemOpener(
        Settings.of(requireNonNull(configuration, "configuration is null")), Map.of());
  }

  /**
   * This opener, but opening the cluster of {@code uri} with {@code clusterConfiguration} (its
   * client configuration: its HA nameservice, its security settings), as the relays on that
   * cluster open it. {@link #configuration()} stays this opener's.
   */
  public FileSystemOpener withCluster(URI uri, Configuration clusterConfiguration) {
    requireNonNull(uri, "uri is null");
    requireNonNull(clusterConfiguration, "clusterConfiguration is null");
    Map<String, Settings> more = new HashMap<>(clusters);
    more.put(cluster(uri).toString(), Settings.of(clusterConfiguration));
    return new FileSystemOpener(base, more);
  }

  /** The configuration given to {@link #of}, where relaycp's own settings are read. */
  public Configuration configuration() {
    return new Configuration(base.configuration());
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
      FileSystem.getFileSystemClass("hdfs", base.configuration());
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
    URI home = FileSystem.getDefaultUri(base.configuration());
    if ("hdfs".equals(home.getScheme())) {
      try {
        open(home, false);
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
   * tenths of a CPU second). Before it makes an HDFS client of a cluster named by host and
   * port, it connects once to the namenode's port and fails with {@code CLUSTER_UNREACHABLE}
   * if nothing answers within the connect timeout ({@link #requireNamenodeAnswers}).
   */
  public FileSystem open(URI uri) {
    return open(uri, true);
  }

  /**
   * {@link #open(URI)}; {@code checkNamenode} false leaves out {@link #requireNamenodeAnswers},
   * for {@link #prepare}, which connects nowhere.
   */
  private FileSystem open(URI uri, boolean checkNamenode) {
    requireNonNull(uri, "uri is null");
    try {
      UserGroupInformation user = UserGroupInformation.getCurrentUser();
      URI cluster = cluster(uri);
      Settings settings = clusters.getOrDefault(cluster.toString(), base);
      Key key = new Key(cluster.toString(), user, settings.digest());
      // A relay opens a file system at every chunk: the known instance, without a lock.
      FileSystem known = OPENED.get(key);
      if (known != null) {
        return known;
      }
      if (checkNamenode) {
        requireNamenodeAnswers(cluster, settings.configuration());
      }
      try {
        return OPENED.computeIfAbsent(key, absent -> {
          try {
            LOG.debug("Opening {} for {} with settings {}", cluster, user,
                settings.digest().substring(0, 12));
            return FileSystem.newInstance(cluster, settings.configuration());
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
   * Fails within one connect timeout where an HDFS cluster named by host and port takes no
   * connection at its namenode's port. HDFS's client retries a connect that nothing answers 45
   * times, 20 s each ({@code ipc.client.connect.max.retries.on.timeouts}, {@code
   * ipc.client.connect.timeout}): a namenode address that is wrong, or behind a firewall that
   * drops packets, held a copy for 15 minutes without a word, and each relay's first chunk as
   * long. One TCP connect, given that timeout (20 s by default), tells it apart; what a
   * connect that fails at once means (refused, no route, an unknown host) HDFS's client says
   * itself without waiting. A logical (HA) nameservice is left to its failover proxy, which
   * tries each namenode in turn.
   */
  private static void requireNamenodeAnswers(URI cluster, Configuration configuration) {
    if (!HdfsConstants.HDFS_URI_SCHEME.equalsIgnoreCase(cluster.getScheme())
        || cluster.getHost() == null || HAUtilClient.isLogicalUri(configuration, cluster)) {
      return;
    }
    int port = cluster.getPort() < 0
        ? HdfsClientConfigKeys.DFS_NAMENODE_RPC_PORT_DEFAULT : cluster.getPort();
    InetSocketAddress namenode = new InetSocketAddress(cluster.getHost(), port);
    if (namenode.isUnresolved()) {
      return;
    }
    int timeoutMillis = configuration.getInt(
        CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY,
        CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_DEFAULT);
    try (Socket socket = new Socket()) {
      socket.connect(namenode, timeoutMillis);
    } catch (SocketTimeoutException e) {
      throw new RelayCpException(ErrorCode.CLUSTER_UNREACHABLE, "the namenode of " + cluster
          + " (" + cluster.getHost() + ":" + port + ") took no connection within "
          + timeoutMillis + " ms; check the address and that its port is open to this host", e);
    } catch (IOException e) {
      LOG.debug("A first connection to the namenode of {} failed at once ({}); its client"
          + " reports it", cluster, e.toString());
    }
  }

  /**
   * The file system {@code uri} names, as {@code scheme://authority}, with the configured
   * default filling in what it leaves out, as {@code FileSystem.get} does.
   */
  private URI cluster(URI uri) {
    String scheme = uri.getScheme();
    String authority = uri.getAuthority();
    URI home = FileSystem.getDefaultUri(base.configuration());
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
    String name = name(fileSystem.getScheme(), fileSystem.getAuthority());
    return OPENED.containsKey(new Key(name, UserGroupInformation.getCurrentUser(),
        clusters.getOrDefault(name, base).digest()));
  }

  /**
   * A file system as {@code scheme://authority/}, the user it is opened for and the digest of
   * the settings it was made with.
   */
  private record Key(String fileSystem, UserGroupInformation user, String settings) {}
}
