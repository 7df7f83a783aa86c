package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.HadoopFailures;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The staging directory an earlier run of the same copy (same source, same destination) left
 * beside the destination, which this run takes up instead of sending everything again.
 *
 * <p>It is taken up once no driver uses it: at once if its run stopped and said so (Ctrl-C,
 * SIGTERM, a failure a retry may mend), otherwise once its heartbeat has not moved for {@code
 * stale} (a driver killed outright). A heartbeat that keeps moving that long means another
 * driver copies the same tree now: that is a {@link ErrorCode#COPY_RUNNING} failure, as two
 * copies into one staging would spoil each other.
 */
final class ResumableStaging {
  private static final Logger LOG = LoggerFactory.getLogger(ResumableStaging.class);
  private static final long POLL_MILLIS = 500;

  /** An earlier run's staging, free to take up, and what it holds. */
  record Found(Path root, CopyJournal.Recovered recovered) {
    Found {
      requireNonNull(root, "root is null");
      requireNonNull(recovered, "recovered is null");
    }
  }

  private ResumableStaging() {}

  /**
   * The newest staging beside {@code destinationRoot} whose journal names this copy, once no
   * driver uses it; empty if there is none.
   */
  static Optional<Found> find(FileSystem fileSystem, Path sourceRoot, Path destinationRoot,
      Duration stale) throws InterruptedException {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(sourceRoot, "sourceRoot is null");
    requireNonNull(stale, "stale is null");
    Path ancestor = StagingArea.ancestor(fileSystem, destinationRoot);
    Path newest = null;
    long newestBeat = Long.MIN_VALUE;
    try {
      for (FileStatus status : fileSystem.listStatus(ancestor,
          path -> path.getName().startsWith(StagingArea.PREFIX))) {
        if (!status.isDirectory() || CopyJournal.header(fileSystem, status.getPath())
            .filter(header -> header.sameCopy(sourceRoot, destinationRoot)).isEmpty()) {
          continue;
        }
        long beat = lastBeat(fileSystem, status.getPath());
        if (beat > newestBeat) {
          newest = status.getPath();
          newestBeat = beat;
        }
      }
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "looking for an earlier run's staging in " + ancestor);
    }
    if (newest == null) {
      return Optional.empty();
    }
    awaitUnused(fileSystem, newest, stale);
    return Optional.of(new Found(newest, CopyJournal.read(fileSystem, newest)));
  }

  /** Returns once no driver uses {@code root}; throws COPY_RUNNING if one still does. */
  private static void awaitUnused(FileSystem fileSystem, Path root, Duration stale)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + stale.toMillis();
    boolean said = false;
    while (true) {
      try {
        if (fileSystem.exists(new Path(root, StagingArea.STOPPED))) {
          return;
        }
        long age = System.currentTimeMillis() - lastBeat(fileSystem, root);
        if (age >= stale.toMillis()) {
          return;
        }
        if (System.currentTimeMillis() >= deadline) {
          throw new RelayCpException(ErrorCode.COPY_RUNNING, "another relaycp copy of the same"
              + " source to the same destination is running: its staging " + root
              + " moved " + age / 1000 + " s ago; wait for it to end (or stop it), then run"
              + " this command again");
        }
        if (!said) {
          LOG.info("Found {} of an earlier run of this copy; its heartbeat moved {} s ago,"
              + " waiting until it has been still {} s (a driver killed outright) to resume"
              + " it", root, age / 1000, stale.toSeconds());
          said = true;
        }
      } catch (IOException e) {
        throw HadoopFailures.translate(e, "reading the heartbeat of " + root);
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  private static long lastBeat(FileSystem fileSystem, Path root) throws IOException {
    try {
      return fileSystem.getFileStatus(new Path(root, StagingArea.HEARTBEAT))
          .getModificationTime();
    } catch (FileNotFoundException e) {
      return fileSystem.getFileStatus(root).getModificationTime();
    }
  }
}
