package dev.relaycp.testkit;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys.BlockWrite;

/**
 * One in-process HDFS cluster in a temporary folder of its own, for a test that needs one
 * cluster; closing it stops the cluster and removes the folder.
 */
public final class EmbeddedHdfs implements AutoCloseable {
  private final Path folder;
  private final MiniDFSCluster cluster;

  private EmbeddedHdfs(Path folder, MiniDFSCluster cluster) {
    this.folder = folder;
    this.cluster = cluster;
  }

  /** {@code datanodes} datanodes with Hadoop's default settings. */
  public static EmbeddedHdfs start(String name, int datanodes) throws IOException {
    return start(name, datanodes, configuration -> { });
  }

  /**
   * {@code datanodes} datanodes, with {@code settings} applied to the cluster's configuration;
   * {@code name} names the temporary folder.
   */
  public static EmbeddedHdfs start(String name, int datanodes, Consumer<Configuration> settings)
      throws IOException {
    requireNonNull(name, "name is null");
    requireNonNull(settings, "settings is null");
    Path folder = Files.createTempDirectory("relaycp-" + name + "-");
    try {
      return new EmbeddedHdfs(folder, build(folder.toFile(), datanodes, settings));
    } catch (IOException | RuntimeException e) {
      FileUtil.fullyDelete(folder.toFile());
      throw e;
    }
  }

  /**
   * The demo's settings: blocks of {@code blockSize} (small ones allowed, so that modest files
   * span many blocks), {@code replication} copies of each, and permissions checked.
   */
  public static Consumer<Configuration> smallBlocks(long blockSize, int replication) {
    return configuration -> {
      configuration.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, blockSize);
      configuration.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
      configuration.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, replication);
      configuration.setBoolean(DFSConfigKeys.DFS_PERMISSIONS_ENABLED_KEY, true);
    };
  }

  /**
   * A configuration whose HDFS clients ask again to close a file as relaycp's do (relaycp's
   * {@code FileSystemOpener}: first after 25 ms, nine times doubling), not after HDFS's 400 ms:
   * about half of a small file's closes, and of a file's later blocks' allocations, come before
   * the datanode has reported the block they wait for, and a test writing 1,500 small files
   * spent 38 of its 45 s in those waits. Every embedded cluster's own clients use these
   * settings (the test's, and DistCp's where a test runs it with the cluster's configuration);
   * a test that makes a client of its own makes it from this.
   */
  public static Configuration clientConfiguration() {
    Configuration configuration = new Configuration();
    configuration.setInt(BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY, 25);
    configuration.setInt(BlockWrite.LOCATEFOLLOWINGBLOCK_RETRIES_KEY, 9);
    return configuration;
  }

  /**
   * A cluster of {@code datanodes} datanodes keeping its data in {@code folder}, started, its
   * clients with {@link #clientConfiguration()}'s settings and {@code settings}.
   */
  static MiniDFSCluster build(File folder, int datanodes, Consumer<Configuration> settings)
      throws IOException {
    Configuration configuration = clientConfiguration();
    settings.accept(configuration);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(configuration, folder)
        .numDataNodes(datanodes)
        .build();
    try {
      cluster.waitActive();
    } catch (IOException | RuntimeException e) {
      cluster.shutdown(true);
      throw e;
    }
    return cluster;
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  /** The cluster's file system, as the test's own client (not relaycp's opener). */
  public FileSystem fileSystem() throws IOException {
    return cluster.getFileSystem();
  }

  /** {@code path} on this cluster, as an hdfs:// URI. */
  public URI uri(String path) {
    requireNonNull(path, "path is null");
    return URI.create(cluster.getURI().toString() + path);
  }

  @Override
  public void close() {
    cluster.shutdown(true);
    FileUtil.fullyDelete(folder.toFile());
  }
}
