package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.fs.BestEffortDelete;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transfer folders in a user's relay staging folder that their drivers left behind. A
 * driver killed outright (SIGKILL, a machine lost) removes nothing, and where none of its
 * relays ran on that cluster to see the heartbeat stop (the driver died before they started),
 * nothing else would. A transfer folder is stale once its heartbeat file, or the folder itself
 * where it has none, has not moved for {@link #STALE_AFTER}: a live driver moves its heartbeat
 * every sixth of its driver timeout, which is at most an hour ({@link
 * RelayKeys#DRIVER_TIMEOUT_SECONDS}). The relay jar cache ({@link RelayJarCache#FOLDER}) stays.
 *
 * <p>The heartbeat's time is the clock of the driver that moved it and the folder's the
 * NameNode's; a day dwarfs any skew between them and this process.
 */
public final class StaleStagingFolders {
  private static final Logger LOG = LoggerFactory.getLogger(StaleStagingFolders.class);
  static final Duration STALE_AFTER = Duration.ofDays(1);
  private static final String HEARTBEAT = "heartbeat";

  private StaleStagingFolders() {}

  /**
   * Removes the stale transfer folders beside {@code own} (a transfer folder this process has
   * just made), on a daemon thread of its own: the caller does not wait.
   */
  public static void removeBesides(FileSystem fileSystem, Path own) {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(own, "own is null");
    Thread sweep = new Thread(() -> remove(fileSystem, own.getParent(), own.getName(),
        Instant.now()), "relay-staging-sweep");
    sweep.setDaemon(true);
    sweep.start();
  }

  /**
   * Removes the stale transfer folders in {@code userFolder}, other than {@code own}; returns
   * how many it removed. Never throws: a folder it cannot read or remove is logged and left.
   */
  public static int remove(FileSystem fileSystem, Path userFolder, String own, Instant now) {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(userFolder, "userFolder is null");
    requireNonNull(own, "own is null");
    requireNonNull(now, "now is null");
    FileStatus[] entries;
    try {
      entries = fileSystem.listStatus(userFolder);
    } catch (FileNotFoundException e) {
      return 0;
    } catch (IOException | RuntimeException e) {
      LOG.debug("Cannot list {} for stale transfer folders", userFolder, e);
      return 0;
    }
    long staleBefore = now.minus(STALE_AFTER).toEpochMilli();
    int removed = 0;
    for (FileStatus entry : entries) {
      String name = entry.getPath().getName();
      if (!entry.isDirectory() || name.equals(own) || name.equals(RelayJarCache.FOLDER)) {
        continue;
      }
      long lastMoved;
      try {
        lastMoved = lastMoved(fileSystem, entry);
      } catch (IOException | RuntimeException e) {
        LOG.debug("Cannot tell whether {} is stale", entry.getPath(), e);
        continue;
      }
      if (lastMoved < staleBefore && BestEffortDelete.delete(fileSystem, entry.getPath(), true,
          "a transfer folder its driver left " + Duration.ofMillis(now.toEpochMilli()
              - lastMoved).toHours() + " hours ago")) {
        removed++;
      }
    }
    if (removed > 0) {
      LOG.info("Removed {} transfer folders in {} that their drivers left, still for more than"
          + " {} hours", removed, userFolder, STALE_AFTER.toHours());
    }
    return removed;
  }

  /** When the folder's heartbeat last moved, or the folder itself where it has none. */
  private static long lastMoved(FileSystem fileSystem, FileStatus folder) throws IOException {
    try {
      return fileSystem.getFileStatus(new Path(folder.getPath(), HEARTBEAT))
          .getModificationTime();
    } catch (FileNotFoundException e) {
      return folder.getModificationTime();
    }
  }
}
