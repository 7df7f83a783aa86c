package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * A small file that one process writes whole, again and again, and others read, readable and
 * writable by its owner only from the moment it exists: on this machine's disk, or on a Hadoop
 * file system (HDFS) that processes on other machines read too, as the steps of a workflow
 * running on a cluster's nodes do. A reader never sees half of one: each write is a new file
 * moved over the old one in one rename.
 */
public interface ReplacedFile {
  /** What the file held when read, and when it was last written or touched. */
  record Contents(byte[] bytes, Instant written) {
    public Contents {
      requireNonNull(bytes, "bytes is null");
      requireNonNull(written, "written is null");
    }
  }

  /**
   * The file at {@code location}: a URI with a scheme other than {@code file} (e.g. {@code
   * hdfs://nn:8020/user/me/relays.pool}) is on that Hadoop file system, opened with {@code
   * configuration}; any other location is a path on this machine.
   */
  static ReplacedFile at(String location, Configuration configuration) {
    requireNonNull(location, "location is null");
    requireNonNull(configuration, "configuration is null");
    if (location.isBlank()) {
      throw new IllegalArgumentException("location is blank");
    }
    String scheme = null;
    try {
      scheme = new URI(location).getScheme();
    } catch (URISyntaxException e) {
      // A path with characters a URI does not take (spaces, say) is a local one.
    }
    if (scheme == null || scheme.equals("file")) {
      return LocalReplacedFile.at(scheme == null
          ? java.nio.file.Path.of(location) : java.nio.file.Path.of(URI.create(location)));
    }
    return HadoopReplacedFile.at(new org.apache.hadoop.fs.Path(location), configuration);
  }

  /** Its contents and time; empty where it does not exist. */
  Optional<Contents> read() throws IOException;

  /** Writes {@code bytes} as the whole file, replacing what was there in one rename. */
  void replace(byte[] bytes) throws IOException;

  /** Gives the file the time {@code now}; false where it does not exist. */
  boolean touch(Instant now) throws IOException;

  boolean exists() throws IOException;

  /** Removes the file, if it exists. */
  void delete() throws IOException;

  /**
   * Removes the file when this JVM ends, also by Ctrl-C or SIGTERM, if it is still there
   * then.
   */
  void deleteOnExit() throws IOException;

  /**
   * Why the file cannot be written where it is named (its folder is missing, or not writable by
   * this user), as the end of a sentence; empty where it can.
   */
  Optional<String> whyNotWritable() throws IOException;
}
