package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.HadoopFailures;
import java.io.IOException;
import java.net.URI;
import java.util.HexFormat;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Compares a source file and its copy by {@link FileChecksum}. Both FileSystems must have been
 * opened in COMPOSITE_CRC mode (see {@link dev.relaycp.fs.FileSystemOpener}): then the
 * checksum depends only on the bytes, not on block size or how the copy was cut into parts.
 */
public final class ChecksumVerifier {
  private final FileSystem source;
  private final FileSystem destination;

  public ChecksumVerifier(FileSystem source, FileSystem destination) {
    this.source = requireNonNull(source, "source is null");
    this.destination = requireNonNull(destination, "destination is null");
  }

  public FileVerification verify(String path, URI sourceFile, URI copy, long bytes) {
    FileChecksum expected = checksum(source, sourceFile);
    FileChecksum actual = checksum(destination, copy);
    if (expected == null || actual == null) {
      throw new RelayCpException(ErrorCode.UNSUPPORTED_FILESYSTEM,
          "cannot verify " + path + ": " + (expected == null ? sourceFile : copy)
              + " has no file checksum; relaycp verifies through HDFS's COMPOSITE_CRC checksums");
    }
    return new FileVerification(path, bytes, actual.getAlgorithmName(),
        HexFormat.of().formatHex(actual.getBytes()), expected.equals(actual));
  }

  private static FileChecksum checksum(FileSystem fileSystem, URI file) {
    try {
      return fileSystem.getFileChecksum(new Path(file));
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading the checksum of " + file);
    }
  }
}
