package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.HadoopFailures;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.Trash;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --delete}: removes what lies below the destination root and not below the source
 * root, as DistCp's {@code -delete} does, into the destination's trash where it has one
 * ({@code fs.trash.interval} above 0), else for good. A directory absent from the source goes
 * whole and counts once. Nothing a filter excludes at the source is removed: a path is kept
 * when the source path it would have come from matches a filter.
 */
final class TargetPruner {
  private static final Logger LOG = LoggerFactory.getLogger(TargetPruner.class);

  private TargetPruner() {}

  /**
   * @param listed the source tree's relative paths, files and directories
   * @param excludedAtSource whether the full source URI string a target entry mirrors is
   *     filtered out
   * @return how many entries were removed
   */
  static int removeAbsent(FileSystem destination, Path destinationRoot, Path sourceRoot,
      Set<String> listed, Predicate<String> excludedAtSource) {
    requireNonNull(destination, "destination is null");
    Set<String> keep = new HashSet<>(listed);
    int removed = 0;
    Deque<Path> pending = new ArrayDeque<>();
    pending.add(destinationRoot);
    String rootPath = destinationRoot.toUri().getPath();
    while (!pending.isEmpty()) {
      Path directory = pending.poll();
      FileStatus[] children;
      try {
        children = destination.listStatus(directory);
      } catch (FileNotFoundException e) {
        continue;
      } catch (IOException e) {
        throw HadoopFailures.translate(e, "listing " + directory + " for --delete");
      }
      for (FileStatus child : children) {
        String relative = SourceLister.relativePath(destinationRoot.toUri(),
            child.getPath().toUri());
        if (keep.contains(relative)) {
          if (child.isDirectory()) {
            pending.add(child.getPath());
          }
          continue;
        }
        if (excludedAtSource.test(new Path(sourceRoot, relative).toString())) {
          continue;
        }
        remove(destination, child.getPath());
        removed++;
      }
    }
    LOG.info("--delete removed {} entries below {} ({})", removed, rootPath,
        "absent from the source");
    return removed;
  }

  private static void remove(FileSystem destination, Path path) {
    try {
      if (Trash.moveToAppropriateTrash(destination, path, destination.getConf())) {
        return;
      }
      if (!destination.delete(path, true) && destination.exists(path)) {
        throw new IOException("delete returned false");
      }
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "removing " + path + " (absent from the source)");
    }
  }
}
