package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.relay.DataCompression;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * How well a copy's files compress on the relay hop, from a sample: up to {@link #FILES}
 * files spread over the listing, the first {@link #BYTES_PER_FILE} bytes of each, compressed
 * frame by frame as a reader relay would ({@link DataCompression}). The ratio is the sample's
 * bytes over its bytes on the wire, 1 or more.
 */
public record CompressionSample(long bytes, long wireBytes, int files) {
  public static final int FILES = 16;
  public static final int BYTES_PER_FILE = 1 << 20;

  public CompressionSample {
    if (bytes < 0 || wireBytes < 0 || wireBytes > bytes || files < 0) {
      throw new IllegalArgumentException("sample of " + bytes + " bytes, " + wireBytes
          + " on the wire, " + files + " files");
    }
  }

  /** File bytes per wire byte; 1 for an empty sample. */
  public double ratio() {
    return wireBytes == 0 ? 1 : (double) bytes / wireBytes;
  }

  /** Samples {@code tree} (listed from {@code fileSystem}), sending DATA frames of {@code frameBytes}. */
  public static CompressionSample of(FileSystem fileSystem, SourceTree tree, int frameBytes) {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(tree, "tree is null");
    List<SourceFile> nonEmpty = new ArrayList<>();
    for (SourceFile file : tree.files()) {
      if (file.length() > 0) {
        nonEmpty.add(file);
      }
    }
    int count = Math.min(FILES, nonEmpty.size());
    long bytes = 0;
    long wire = 0;
    for (int index = 0; index < count; index++) {
      // Spread over the listing: a tree of logs then images samples both.
      SourceFile file = nonEmpty.get((int) ((long) index * nonEmpty.size() / count));
      byte[] head = new byte[(int) Math.min(BYTES_PER_FILE, file.length())];
      try (InputStream in = fileSystem.open(new Path(file.uri()))) {
        int read = in.readNBytes(head, 0, head.length);
        bytes += read;
        wire += DataCompression.wireBytes(head, 0, read, frameBytes);
      } catch (IOException e) {
        throw HadoopFailures.translate(e, "sampling " + file.uri() + " for --compress");
      }
    }
    return new CompressionSample(bytes, wire, count);
  }
}
