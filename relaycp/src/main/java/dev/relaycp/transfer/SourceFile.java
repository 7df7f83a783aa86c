package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.List;

/**
 * One file of the source tree and the attributes the copy keeps.
 *
 * @param relativePath path below the source root, '/'-separated; empty when the source is a
 *     single file
 * @param blocks where its blocks live, in order; empty where the file system does not say
 */
public record SourceFile(
    String relativePath,
    URI uri,
    long length,
    long blockSize,
    short replication,
    FileAttributes attributes,
    List<BlockPlacement> blocks) {

  public SourceFile {
    requireNonNull(relativePath, "relativePath is null");
    requireNonNull(uri, "uri is null");
    requireNonNull(attributes, "attributes is null");
    blocks = List.copyOf(requireNonNull(blocks, "blocks is null"));
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative, got " + length);
    }
    if (blockSize < 1) {
      throw new IllegalArgumentException("blockSize must be positive, got " + blockSize);
    }
  }
}
