package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.net.URI;

/**
 * One file of the source tree and the attributes the copy keeps.
 *
 * @param relativePath path below the source root, '/'-separated; empty when the source is a
 *     single file
 */
public record SourceFile(
    String relativePath,
    URI uri,
    long length,
    long blockSize,
    short replication,
    FileAttributes attributes) {

  public SourceFile {
    requireNonNull(relativePath, "relativePath is null");
    requireNonNull(uri, "uri is null");
    requireNonNull(attributes, "attributes is null");
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative, got " + length);
    }
    if (blockSize < 1) {
      throw new IllegalArgumentException("blockSize must be positive, got " + blockSize);
    }
  }
}
