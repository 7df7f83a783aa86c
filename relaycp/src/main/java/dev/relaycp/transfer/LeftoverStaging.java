package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.HadoopFailures;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Staging directories that copies to a destination left behind: those beside the destination
 * whose heartbeat has not moved since a cut-off (a driver killed outright cannot remove its
 * own), and those a copy kept for the same command to resume (marked stopped). A running copy
 * moves its heartbeat every few seconds, so a cut-off minutes back spares it. Times are the
 * file system's, compared with this machine's clock.
 */
public final class LeftoverStaging {
  private static final Logger LOG = LoggerFactory.getLogger(LeftoverStaging.class);

  /**
   * One leftover.
   *
   * @param lastBeat when its copy last showed it was alive (the heartbeat's modification time,
   *     or the directory's where there is no heartbeat)
   * @param bytes what it holds
   */
  public record Leftover(Path path, Instant lastBeat, long bytes) {
    public Leftover {
      requireNonNull(path, "path is null");
      requireNonNull(lastBeat, "lastBeat is null");
    }
  }

  private LeftoverStaging() {}

  /**
   * The staging directories beside {@code destination} silent since before {@code cutOff}, or
   * kept for a resume.
   */
  public static List<Leftover> find(FileSystem fileSystem, Path destination, Instant cutOff) {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(destination, "destination is null");
    requireNonNull(cutOff, "cutOff is null");
    Path ancestor = StagingArea.ancestor(fileSystem, fileSystem.makeQualified(destination));
    List<Leftover> found = new ArrayList<>();
    try {
      for (FileStatus status : fileSystem.listStatus(ancestor,
          path -> path.getName().startsWith(StagingArea.PREFIX))) {
        if (!status.isDirectory()) {
          continue;
        }
        long lastBeat = status.getModificationTime();
        try {
          lastBeat = fileSystem.getFileStatus(new Path(status.getPath(), StagingArea.HEARTBEAT))
              .getModificationTime();
        } catch (FileNotFoundException e) {
          // An older relaycp's staging: the directory's own time stands for it.
        }
        boolean stopped = fileSystem.exists(new Path(status.getPath(), StagingArea.STOPPED));
        if (stopped || Instant.ofEpochMilli(lastBeat).isBefore(cutOff)) {
          found.add(new Leftover(status.getPath(), Instant.ofEpochMilli(lastBeat),
              fileSystem.getContentSummary(status.getPath()).getLength()));
        }
      }
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "listing staging directories in " + ancestor);
    }
    found.sort(Comparator.comparing(Leftover::lastBeat));
    return found;
  }

  /** Removes each leftover; returns those removed (a failure is logged, the rest tried). */
  public static List<Leftover> remove(FileSystem fileSystem, List<Leftover> leftovers) {
    requireNonNull(fileSystem, "fileSystem is null");
    List<Leftover> removed = new ArrayList<>();
    for (Leftover leftover : requireNonNull(leftovers, "leftovers is null")) {
      try {
        if (fileSystem.delete(leftover.path(), true)) {
          removed.add(leftover);
        }
      } catch (IOException e) {
        LOG.warn("Cannot remove {}: {}", leftover.path(), e.getMessage());
      }
    }
    return removed;
  }
}
