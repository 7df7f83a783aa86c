package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
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
 * application) would hand relaycp an instance in another checksum mode. So relaycp keeps its
 * own instances ({@code FileSystem.newInstance}), one per scheme, authority and user, shared by
 * every opener in the process; Hadoop's shutdown hook closes them.
 */
public final class FileSystemOpener {
  /** The Hadoop key that selects how block checksums are combined into a file checksum. */
  public static final String CHECKSUM_COMBINE_MODE = "dfs.checksum.combine.mode";

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

  private FileSystemOpener(Configuration configuration) {
    this.configuration = new Configuration(configuration);
    this.configuration.set(CHECKSUM_COMBINE_MODE, "COMPOSITE_CRC");
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

  /** The FileSystem for {@code uri}, shared with relaycp's other users of the same cluster. */
  public FileSystem open(URI uri) {
    requireNonNull(uri, "uri is null");
    try {
      UserGroupInformation user = UserGroupInformation.getCurrentUser();
      // A relay opens a file system at every chunk: where the URI names its cluster as the
      // instance does (scheme://authority, as HDFS's does), skip Hadoop's cache and its client.
      if (uri.getScheme() != null && uri.getAuthority() != null) {
        FileSystem known = OPENED.get(new Key(
            URI.create(uri.getScheme() + "://" + uri.getAuthority()), user));
        if (known != null) {
          return known;
        }
      }
      FileSystem fileSystem = FileSystem.get(uri, configuration);
      Key key = new Key(fileSystem.getUri(), user);
      FileSystem own = OPENED.get(key);
      if (own == null) {
        synchronized (OPENED) {
          own = OPENED.get(key);
          if (own == null) {
            own = FileSystem.newInstance(fileSystem.getUri(), configuration);
            OPENED.put(key, own);
          }
        }
      }
      return own;
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

  /** Whether this process already holds relaycp's instance for {@code fileSystem}'s cluster. */
  static boolean isOpen(URI fileSystem) throws IOException {
    return OPENED.containsKey(new Key(fileSystem, UserGroupInformation.getCurrentUser()));
  }

  private record Key(URI fileSystem, UserGroupInformation user) {}
}
