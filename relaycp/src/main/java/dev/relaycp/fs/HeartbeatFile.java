package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.OptionalLong;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A file whose modification time a driver moves forward while it lives, so the relays it
 * started on a cluster can tell it is gone without a connection to it: the relays read the
 * time and act on whether it changes, never on its value, so the clocks of the driver, the
 * NameNode and the relay need not agree. The file's absence means the driver has ended and
 * removed its staging directory.
 */
public final class HeartbeatFile {
  private final FileSystem fileSystem;
  private final Path path;

  private HeartbeatFile(FileSystem fileSystem, Path path) {
    this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
    this.path = requireNonNull(path, "path is null");
  }

  public static HeartbeatFile at(FileSystem fileSystem, Path path) {
    return new HeartbeatFile(fileSystem, path);
  }

  public Path path() {
    return path;
  }

  /** Creates the (empty) file; the first beat. */
  public void create() throws IOException {
    fileSystem.create(path, true).close();
  }

  /** Moves the modification time to now. */
  public void beat() throws IOException {
    fileSystem.setTimes(path, System.currentTimeMillis(), -1);
  }

  /**
   * The modification time, or empty once the file is gone; an IOException when the file
   * system cannot be reached (which says nothing about the driver).
   */
  public OptionalLong lastBeat() throws IOException {
    try {
      return OptionalLong.of(fileSystem.getFileStatus(path).getModificationTime());
    } catch (FileNotFoundException e) {
      return OptionalLong.empty();
    }
  }
}
