package dev.relaycp.testkit;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Two in-process HDFS clusters, "source" and "destination", each with its own NameNode and
 * datanodes, for the demo and the tests. A small block size makes modest files span many
 * blocks, so chunking and multipart paths are exercised without much data.
 */
public final class EmbeddedClusters implements AutoCloseable {
  private final Path baseDirectory;
  private final MiniDFSCluster source;
  private final MiniDFSCluster destination;

  private EmbeddedClusters(Path baseDirectory, MiniDFSCluster source,
      MiniDFSCluster destination) {
    this.baseDirectory = baseDirectory;
    this.source = source;
    this.destination = destination;
  }

  /** Starts both clusters with {@code datanodes} datanodes each and the given block size. */
  public static EmbeddedClusters start(int datanodes, long blockSize) throws IOException {
    Path base = Files.createTempDirectory("relaycp-clusters-");
    MiniDFSCluster source = null;
    try {
      source = cluster(base.resolve("source"), datanodes, blockSize);
      MiniDFSCluster destination = cluster(base.resolve("destination"), datanodes, blockSize);
      return new EmbeddedClusters(base, source, destination);
    } catch (IOException | RuntimeException e) {
      if (source != null) {
        source.shutdown();
      }
      FileUtil.fullyDelete(base.toFile());
      throw e;
    }
  }

  private static MiniDFSCluster cluster(Path directory, int datanodes, long blockSize)
      throws IOException {
    return EmbeddedHdfs.build(directory.toFile(), datanodes,
        EmbeddedHdfs.smallBlocks(blockSize, Math.min(2, datanodes)));
  }

  public MiniDFSCluster source() {
    return source;
  }

  public MiniDFSCluster destination() {
    return destination;
  }

  public URI sourceUri(String path) {
    return uri(source, path);
  }

  public URI destinationUri(String path) {
    return uri(destination, path);
  }

  private static URI uri(MiniDFSCluster cluster, String path) {
    requireNonNull(path, "path is null");
    return URI.create(cluster.getURI().toString() + path);
  }

  @Override
  public void close() {
    try {
      destination.shutdown();
    } finally {
      source.shutdown();
      FileUtil.fullyDelete(baseDirectory.toFile());
    }
  }
}
