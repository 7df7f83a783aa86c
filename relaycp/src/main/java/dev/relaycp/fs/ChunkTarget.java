package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Where a writer relay puts one chunk on the destination.
 *
 * @param kind a whole file, or one part of a multipart upload
 * @param path the staged destination file (for a part: the file the upload will complete into)
 * @param uploadHandle the multipart upload's handle bytes; empty for {@link Kind#FILE}
 * @param partNumber the part's number, 1 or more; 0 for {@link Kind#FILE}
 * @param replication replication of the written file
 * @param blockSize block size of the written file
 * @param favoredDatanodes the datanodes that should hold the written file's replicas, in order;
 *     a hint HDFS follows where it can (others fill in for a datanode that is full or gone) and
 *     other file systems ignore; empty for HDFS's own choice
 * @param times the times a writer gives a {@link Kind#FILE} target once it is written, as its
 *     source has them; empty to leave the times the destination gave it
 */
public record ChunkTarget(Kind kind, URI path, byte[] uploadHandle, int partNumber,
    short replication, long blockSize, List<DatanodeAddress> favoredDatanodes,
    Optional<Times> times) {

  /** A file's modification and access times, in milliseconds since the epoch. */
  public record Times(long modificationTime, long accessTime) {
    public Times {
      if (modificationTime < 0 || accessTime < 0) {
        throw new IllegalArgumentException("times must not be negative, got modification "
            + modificationTime + " and access " + accessTime);
      }
    }
  }

  /** How the chunk lands. */
  public enum Kind {
    FILE,
    PART
  }

  public ChunkTarget {
    requireNonNull(kind, "kind is null");
    requireNonNull(path, "path is null");
    requireNonNull(uploadHandle, "uploadHandle is null");
    uploadHandle = uploadHandle.clone();
    if (kind == Kind.PART && (partNumber < 1 || uploadHandle.length == 0)) {
      throw new IllegalArgumentException(
          "a part needs an upload handle and a part number of 1 or more, got " + partNumber);
    }
    if (replication < 1) {
      throw new IllegalArgumentException("replication must be 1 or more, got " + replication);
    }
    if (blockSize < 1) {
      throw new IllegalArgumentException("blockSize must be 1 or more, got " + blockSize);
    }
    requireNonNull(favoredDatanodes, "favoredDatanodes is null");
    favoredDatanodes = List.copyOf(favoredDatanodes);
    requireNonNull(times, "times is null");
    if (kind == Kind.PART && times.isPresent()) {
      throw new IllegalArgumentException("a part has no times of its own; give them to the file");
    }
  }

  /** A target whose writer leaves the times the destination gives it. */
  public ChunkTarget(Kind kind, URI path, byte[] uploadHandle, int partNumber,
      short replication, long blockSize, List<DatanodeAddress> favoredDatanodes) {
    this(kind, path, uploadHandle, partNumber, replication, blockSize, favoredDatanodes,
        Optional.empty());
  }

  public static ChunkTarget file(URI path, short replication, long blockSize) {
    return new ChunkTarget(Kind.FILE, path, new byte[0], 0, replication, blockSize, List.of());
  }

  public static ChunkTarget part(
      URI path, byte[] uploadHandle, int partNumber, short replication, long blockSize) {
    return new ChunkTarget(
        Kind.PART, path, uploadHandle, partNumber, replication, blockSize, List.of());
  }

  /** This target, with its replicas asked of {@code datanodes}. */
  public ChunkTarget favoring(List<DatanodeAddress> datanodes) {
    return new ChunkTarget(kind, path, uploadHandle, partNumber, replication, blockSize, datanodes,
        times);
  }

  /** This file target, to be given {@code fileTimes} once written. */
  public ChunkTarget withTimes(Times fileTimes) {
    return new ChunkTarget(kind, path, uploadHandle, partNumber, replication, blockSize,
        favoredDatanodes, Optional.of(requireNonNull(fileTimes, "fileTimes is null")));
  }

  @Override
  public byte[] uploadHandle() {
    return uploadHandle.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ChunkTarget that
        && kind == that.kind
        && path.equals(that.path)
        && Arrays.equals(uploadHandle, that.uploadHandle)
        && partNumber == that.partNumber
        && replication == that.replication
        && blockSize == that.blockSize
        && favoredDatanodes.equals(that.favoredDatanodes)
        && times.equals(that.times);
  }

  @Override
  public int hashCode() {
    return 31 * path.hashCode() + partNumber;
  }
}
