package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.fs.HeartbeatFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where files are written before commit: a hidden directory beside the destination, in its
 * nearest existing ancestor, so that renames into place stay within one directory tree of one
 * FileSystem and nothing is created under the destination's final names until commit.
 *
 * <pre>
 * &lt;ancestor&gt;/.relaycp-staging-&lt;transfer id&gt;/
 *     heartbeat          its modification time moves while the driver lives
 *     f&lt;file&gt;.&lt;send&gt;     a file sent as one chunk; each send gets its own name
 *     p&lt;file&gt;/data      a file of several chunks, completed from a multipart upload
 *     p&lt;file&gt;data_multipart_*   that upload's parts until it completes
 *     p&lt;file&gt;/part-&lt;n&gt;   on a file system with concat (HDFS): each part a file, written
 *                      with the source's replication and block size, concatenated into the
 *                      first at completion
 *
 * The upload's parts sit beside its target (Hadoop's FileSystemMultipartUploader names the
 * collector after the target's parent and name), which is why the target is one level down:
 * so the parts stay inside the staging directory and go with it.
 * </pre>
 */
public final class StagingArea {
  /** The name of every staging directory, before its transfer id. */
  public static final String PREFIX = ".relaycp-staging-";
  static final String HEARTBEAT = "heartbeat";
  private static final Logger LOG = LoggerFactory.getLogger(StagingArea.class);

  private final FileSystem fileSystem;
  private final Path root;

  private StagingArea(FileSystem fileSystem, Path root) {
    this.fileSystem = fileSystem;
    this.root = root;
  }

  /** Creates the staging directory beside {@code destination}, with its first heartbeat. */
  static StagingArea create(FileSystem fileSystem, Path destination, String transferId) {
    requireNonNull(fileSystem, "fileSystem is null");
    Path ancestor = ancestor(fileSystem, destination);
    try {
      Path root = fileSystem.makeQualified(new Path(ancestor, PREFIX + transferId));
      if (!fileSystem.mkdirs(root)) {
        throw new IOException("mkdirs returned false");
      }
      StagingArea staging = new StagingArea(fileSystem, root);
      staging.heartbeat().create();
      return staging;
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "creating a staging directory under " + ancestor);
    }
  }

  /** Where staging directories for {@code destination} go: its nearest existing ancestor. */
  static Path ancestor(FileSystem fileSystem, Path destination) {
    Path ancestor = destination.getParent() == null ? destination : destination.getParent();
    try {
      while (ancestor.getParent() != null && !fileSystem.exists(ancestor)) {
        ancestor = ancestor.getParent();
      }
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "looking for " + destination + "'s parent");
    }
    return ancestor;
  }

  /** The file whose modification time tells that the copy using this staging still runs. */
  HeartbeatFile heartbeat() {
    return HeartbeatFile.at(fileSystem, new Path(root, HEARTBEAT));
  }

  /** Moves the heartbeat forward; logs rather than throws. */
  void beat() {
    try {
      heartbeat().beat();
    } catch (IOException e) {
      LOG.debug("Cannot move the staging heartbeat in {}: {}", root, e.getMessage());
    }
  }

  Path root() {
    return root;
  }

  URI wholeFile(int fileIndex, int send) {
    return new Path(root, "f" + fileIndex + "." + send).toUri();
  }

  URI multipartFile(int fileIndex) {
    return new Path(new Path(root, "p" + fileIndex), "data").toUri();
  }

  URI partFile(int fileIndex, int partNumber) {
    return new Path(new Path(root, "p" + fileIndex), "part-" + partNumber).toUri();
  }

  URI emptyFile(int fileIndex) {
    return new Path(root, "e" + fileIndex).toUri();
  }

  /** Removes the staging directory and everything in it; logs rather than throws. */
  void remove() {
    try {
      fileSystem.delete(root, true);
    } catch (FileNotFoundException e) {
      LOG.debug("Staging directory {} already gone", root);
    } catch (IOException e) {
      LOG.warn("Could not remove the staging directory {}: {}", root, e.getMessage());
    }
  }
}
