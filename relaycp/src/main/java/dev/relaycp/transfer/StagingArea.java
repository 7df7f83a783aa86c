package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.BestEffortDelete;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.fs.HeartbeatFile;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where files are written before commit: a hidden directory beside the destination, in its
 * nearest existing ancestor, so that renames into place stay within one directory tree of one
 * FileSystem and nothing is created under the destination's final names until commit. A copy
 * that stops before it ends (Ctrl-C, a failure a retry may mend, a killed driver) leaves it
 * for the same command to resume: each run of that command writes its own journal and names
 * its files after its run number, so nothing a relay of an earlier run still writes is
 * overwritten.
 *
 * <pre>
 * &lt;ancestor&gt;/.relaycp-staging-&lt;transfer id&gt;/
 *     heartbeat          its modification time moves while a driver uses it
 *     journal-&lt;run&gt;      what each run staged ({@link CopyJournal})
 *     stopped            present while no driver uses it and a run may take it up
 *     tree/              with --atomic: the committed tree, renamed to DST as a whole
 *     f&lt;file&gt;.&lt;run&gt;.&lt;send&gt;     a file sent as one chunk; each send gets its own name
 *     m&lt;file&gt;.&lt;run&gt;/data    a file of several chunks, completed from a multipart upload
 *     m&lt;file&gt;.&lt;run&gt;/data_multipart_*   that upload's parts until it completes
 *     p&lt;file&gt;/part-&lt;n&gt;.&lt;run&gt;   on a file system with concat (HDFS): each part a file,
 *                      written with the source's replication and block size, concatenated
 *                      into the first at completion (all in one directory, as concat wants)
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
  static final String STOPPED = "stopped";
  private static final Logger LOG = LoggerFactory.getLogger(StagingArea.class);

  private final FileSystem fileSystem;
  private final Path root;
  private final int run;

  private StagingArea(FileSystem fileSystem, Path root, int run) {
    this.fileSystem = fileSystem;
    this.root = root;
    this.run = run;
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
      StagingArea staging = new StagingArea(fileSystem, root, 0);
      staging.heartbeat().create();
      return staging;
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "creating a staging directory under " + ancestor);
    }
  }

  /**
   * Takes up an earlier run's staging directory as run {@code run}: its heartbeat moves again
   * and it is no longer marked stopped.
   */
  static StagingArea adopt(FileSystem fileSystem, Path root, int run) {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(root, "root is null");
    if (run < 1) {
      throw new IllegalArgumentException("an adopted staging's run is 1 or more, got " + run);
    }
    StagingArea staging = new StagingArea(fileSystem, root, run);
    try {
      staging.heartbeat().create();
      fileSystem.delete(new Path(root, STOPPED), false);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "taking up the staging directory " + root);
    }
    return staging;
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

  /** Which run of the copy this is: 0 for the first, one more for each resume. */
  int run() {
    return run;
  }

  URI wholeFile(int fileIndex, int send) {
    return new Path(root, "f" + fileIndex + "." + run + "." + send).toUri();
  }

  URI multipartFile(int fileIndex) {
    return new Path(new Path(root, "m" + fileIndex + "." + run), "data").toUri();
  }

  URI partFile(int fileIndex, int partNumber) {
    return new Path(partDirectory(fileIndex), "part-" + partNumber + "." + run).toUri();
  }

  /** Where an atomic copy commits the whole tree before renaming it to DST. */
  Path atomicTree() {
    return new Path(root, "tree");
  }

  /** Where every part of a file concatenated at completion is written, whatever its run. */
  Path partDirectory(int fileIndex) {
    return new Path(root, "p" + fileIndex);
  }

  URI emptyFile(int fileIndex) {
    return new Path(root, "e" + fileIndex + "." + run).toUri();
  }

  /**
   * Leaves the staging for a later run of the same command: marked stopped, so that run takes
   * it up at once rather than waiting for the heartbeat to go still. Logs rather than throws.
   */
  void keepForResume() {
    try {
      fileSystem.create(new Path(root, STOPPED), true).close();
    } catch (IOException e) {
      LOG.warn("Cannot mark the staging directory {} stopped: {}", root, e.getMessage());
    }
  }

  /** Removes the staging directory and everything in it; logs rather than throws. */
  void remove() {
    BestEffortDelete.delete(fileSystem, root, true, "the staging directory");
  }
}
