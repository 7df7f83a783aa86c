package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what a copy, a probe or a relay start left behind, where failing to is no reason to
 * fail what called it: a path already gone is fine, and any other failure is logged as a
 * warning naming the path, so that a person can remove it by hand.
 */
public final class BestEffortDelete {
  private static final Logger LOG = LoggerFactory.getLogger(BestEffortDelete.class);

  private BestEffortDelete() {}

  /**
   * Deletes {@code path} ({@code recursive}ly for a directory); returns whether it is gone.
   *
   * @param what what the path is, for the warning ("the staging directory")
   */
  public static boolean delete(FileSystem fileSystem, Path path, boolean recursive,
      String what) {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(path, "path is null");
    try {
      fileSystem.delete(path, recursive);
      return true;
    } catch (FileNotFoundException e) {
      LOG.debug("{} {} already gone", what, path);
      return true;
    } catch (IOException e) {
      LOG.warn("Cannot remove {} {}: {}; remove it by hand", what, path,
          HadoopFailures.firstLine(String.valueOf(e.getMessage())));
      return false;
    }
  }
}
