package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Opens a byte range of a source file. On a datanode that holds the range's blocks the HDFS
 * client reads them locally (short-circuit where configured), which is why reader relays sit
 * on datanodes.
 */
public final class HadoopRangeReader {
  private final FileSystemOpener opener;

  public HadoopRangeReader(FileSystemOpener opener) {
    this.opener = requireNonNull(opener, "opener is null");
  }

  /** A stream positioned at {@code offset} of {@code source}; the caller reads and closes it. */
  public InputStream open(URI source, long offset) {
    requireNonNull(source, "source is null");
    try {
      FSDataInputStream stream = opener.open(source).open(new Path(source));
      try {
        if (offset > 0) {
          stream.seek(offset);
        }
        return stream;
      } catch (IOException e) {
        stream.close();
        throw e;
      }
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading " + source + " at offset " + offset);
    }
  }
}
