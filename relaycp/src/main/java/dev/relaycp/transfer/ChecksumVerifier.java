package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.relay.StoredChecksum;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.CrcUtil;

/**
 * Compares a copy with its source by {@link FileChecksum}: with the source's own, or with the
 * CRC32C of the source's bytes as the relays read them. Both FileSystems must have been opened
 * in COMPOSITE_CRC mode (see {@link dev.relaycp.fs.FileSystemOpener}): then the checksum
 * depends only on the bytes, not on block size or how the copy was cut into parts, and a
 * COMPOSITE-CRC32C checksum is the CRC32C of all the file's bytes.
 */
public final class ChecksumVerifier {
  /** HDFS's name for a file checksum that is the CRC32C of all the file's bytes. */
  static final String COMPOSITE_CRC32C = "COMPOSITE-CRC32C";

  private final FileSystem source;
  private final FileSystem destination;

  public ChecksumVerifier(FileSystem source, FileSystem destination) {
    this.source = requireNonNull(source, "source is null");
    this.destination = requireNonNull(destination, "destination is null");
  }

  public FileVerification verify(String path, URI sourceFile, URI copy, long bytes) {
    return compare(path, sourceFile, copy, bytes, checksum(destination, copy));
  }

  /**
   * Compares a copy with {@code sourceCrc32c}, the CRC32C of its source's bytes as the reader
   * relays read them (see {@link SourceCrcs}), when the copy's checksum is a COMPOSITE-CRC32C;
   * otherwise (no CRC known, or the destination writes CRC32 checksums) with the source's
   * {@link FileChecksum}, as {@link #verify(String, URI, URI, long)} does.
   */
  public FileVerification verify(String path, URI sourceFile, URI copy, long bytes,
      OptionalInt sourceCrc32c) {
    FileChecksum actual = checksum(destination, copy);
    if (actual == null) {
      return compare(path, sourceFile, copy, bytes, null);
    }
    return compareStored(path, bytes,
        new StoredChecksum(actual.getAlgorithmName(), actual.getBytes()), sourceCrc32c)
        .orElseGet(() -> compare(path, sourceFile, copy, bytes, actual));
  }

  /**
   * Compares a copy with {@code sourceCrc32c} through {@code stored}, the copy's checksum as
   * the destination gave it (to a writer relay, say), when that is a COMPOSITE-CRC32C; empty
   * otherwise (no CRC known, or another algorithm), for the caller to check the copy itself.
   */
  static Optional<FileVerification> compareStored(String path, long bytes, StoredChecksum stored,
      OptionalInt sourceCrc32c) {
    requireNonNull(path, "path is null");
    requireNonNull(stored, "stored is null");
    requireNonNull(sourceCrc32c, "sourceCrc32c is null");
    if (sourceCrc32c.isEmpty() || !COMPOSITE_CRC32C.equals(stored.algorithm())) {
      return Optional.empty();
    }
    byte[] value = stored.value();
    return Optional.of(new FileVerification(path, bytes, stored.algorithm(),
        HexFormat.of().formatHex(value),
        Arrays.equals(value, CrcUtil.intToBytes(sourceCrc32c.getAsInt()))));
  }

  private FileVerification compare(String path, URI sourceFile, URI copy, long bytes,
      FileChecksum actual) {
    FileChecksum expected = checksum(source, sourceFile);
    if (expected == null || actual == null) {
      throw new RelayCpException(ErrorCode.UNSUPPORTED_FILESYSTEM,
          "cannot verify " + path + ": " + (expected == null ? sourceFile : copy)
              + " has no file checksum; relaycp verifies through HDFS's COMPOSITE_CRC checksums");
    }
    return new FileVerification(path, bytes, actual.getAlgorithmName(),
        HexFormat.of().formatHex(actual.getBytes()), expected.equals(actual));
  }

  /**
   * Before anything moves: the checksum of SRC's smallest non-empty file, which shows that
   * SRC's file system has checksums at all (empty for a tree of empty files).
   *
   * @throws RelayCpException UNSUPPORTED_FILESYSTEM when it has none
   */
  Optional<FileChecksum> sourceSample(SourceTree tree) {
    Optional<SourceFile> smallest = tree.files().stream()
        .filter(file -> file.length() > 0)
        .min(Comparator.comparingLong(SourceFile::length));
    if (smallest.isEmpty()) {
      return Optional.empty();
    }
    FileChecksum sample = checksum(source, smallest.get().uri());
    if (sample == null) {
      throw new RelayCpException(ErrorCode.UNSUPPORTED_FILESYSTEM, "SRC's file system ("
          + source.getUri() + ") gives no file checksums, so relaycp could not verify a copy;"
          + " nothing was copied. Copy from a file system with checksums (HDFS)");
    }
    return Optional.of(sample);
  }

  /**
   * Before anything moves: writes a one-byte probe in {@code folder} of the destination and
   * refuses a destination that gives no file checksums, or whose checksums are of another kind
   * than {@code sample}'s (CRC32 against CRC32C: {@code dfs.checksum.type}), since no copy
   * could then match its source.
   */
  void checkDestination(Path folder, FileChecksum sample) {
    Path probe = new Path(folder, ".checksum-probe");
    FileChecksum written;
    try {
      try (FSDataOutputStream out = destination.create(probe, true)) {
        out.write(0);
      }
      written = destination.getFileChecksum(probe);
      destination.delete(probe, false);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "writing a checksum probe in " + folder);
    }
    if (written == null) {
      throw new RelayCpException(ErrorCode.UNSUPPORTED_FILESYSTEM, "DST's file system ("
          + destination.getUri() + ") gives no file checksums, so relaycp could not verify a"
          + " copy; nothing was copied. Copy to a file system with checksums (HDFS)");
    }
    if (!written.getAlgorithmName().equals(sample.getAlgorithmName())) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "DST writes "
          + written.getAlgorithmName() + " checksums but SRC's are "
          + sample.getAlgorithmName() + ", so no copy could match its source; nothing was"
          + " copied. Give the destination's writers SRC's checksum type (-D dfs.checksum.type="
          + sample.getAlgorithmName().replace("COMPOSITE-", "") + " with relaycp's relays)");
    }
  }

  private static FileChecksum checksum(FileSystem fileSystem, URI file) {
    try {
      return fileSystem.getFileChecksum(new Path(file));
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading the checksum of " + file);
    }
  }
}
