package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.BestEffortDelete;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.fs.HeartbeatFile;
import dev.relaycp.provision.StaleStagingFolders;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeat files spawned relays follow, one on each site's cluster (each relay reaches
 * its own site's file system), in {@code STAGING/USER/TRANSFER-spawned/heartbeat}. A daemon
 * thread moves them forward every {@code period} and calls {@code alsoEachBeat} (which moves a
 * cloud backend's expiry tags); {@link #close} removes them, which tells every relay that
 * follows them to stop at once.
 */
public final class DriverHeartbeats implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DriverHeartbeats.class);

  private final Map<String, HeartbeatFile> files;
  private final Map<String, FileSystem> fileSystems;
  private final Thread beater;

  private DriverHeartbeats(Map<String, HeartbeatFile> files, Map<String, FileSystem> fileSystems,
      Duration period, Runnable alsoEachBeat) {
    this.files = files;
    this.fileSystems = fileSystems;
    this.beater = new Thread(() -> beat(period, alsoEachBeat), "spawned-relays-heartbeat");
    beater.setDaemon(true);
  }

  /**
   * Creates a heartbeat file on each site's file system ({@code src}, {@code dst}) below
   * {@code stagingDirectory} and starts beating them.
   */
  public static DriverHeartbeats start(Map<String, FileSystem> sites, String stagingDirectory,
      String transferId, Duration period, Runnable alsoEachBeat) {
    requireNonNull(sites, "sites is null");
    requireNonNull(stagingDirectory, "stagingDirectory is null");
    requireNonNull(transferId, "transferId is null");
    requireNonNull(period, "period is null");
    requireNonNull(alsoEachBeat, "alsoEachBeat is null");
    Map<String, HeartbeatFile> files = new LinkedHashMap<>();
    Map<String, FileSystem> fileSystems = new LinkedHashMap<>();
    String user = currentUser();
    for (Map.Entry<String, FileSystem> site : sites.entrySet()) {
      FileSystem fileSystem = site.getValue();
      Path file = fileSystem.makeQualified(new Path(new Path(new Path(stagingDirectory, user),
          transferId + "-spawned"), "heartbeat"));
      files.put(site.getKey(), HeartbeatFile.at(fileSystem, file));
      fileSystems.put(site.getKey(), fileSystem);
    }
    // Each site's file is made at once, not one after the other: the hosts are asked for only
    // once both exist, and each is a few namenode calls, one of them across the WAN.
    List<CompletableFuture<Void>> made = new ArrayList<>();
    files.values().forEach(heartbeat -> made.add(CompletableFuture.runAsync(() -> {
      try {
        heartbeat.create();
      } catch (IOException e) {
        throw HadoopFailures.translate(e, "creating the spawned relays' heartbeat "
            + heartbeat.path());
      }
    }, DriverHeartbeats::onThreadOfItsOwn)));
    RuntimeException failure = null;
    for (CompletableFuture<Void> creating : made) {
      try {
        creating.join();
      } catch (CompletionException e) {
        if (failure == null) {
          failure = e.getCause() instanceof RuntimeException cause ? cause : e;
        }
      }
    }
    if (failure != null) {
      files.forEach((site, heartbeat) -> remove(fileSystems.get(site), heartbeat));
      throw failure;
    }
    files.forEach((site, heartbeat) ->
        StaleStagingFolders.removeBesides(fileSystems.get(site), heartbeat.path().getParent()));
    DriverHeartbeats heartbeats = new DriverHeartbeats(files, fileSystems, period, alsoEachBeat);
    heartbeats.beater.start();
    return heartbeats;
  }

  /** Each site's heartbeat file as a URI, by site. */
  public Map<String, String> uris() {
    Map<String, String> uris = new LinkedHashMap<>();
    files.forEach((site, file) -> uris.put(site, file.path().toString()));
    return uris;
  }

  private void beat(Duration period, Runnable alsoEachBeat) {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(period.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      files.forEach((site, file) -> {
        try {
          file.beat();
        } catch (InterruptedIOException e) {
          LOG.debug("The spawned {} relays' heartbeat was interrupted: {}", site, e.getMessage());
        } catch (IOException e) {
          LOG.warn("Cannot move the spawned {} relays' heartbeat {}: {}", site, file.path(),
              e.getMessage());
        }
      });
      try {
        alsoEachBeat.run();
      } catch (RuntimeException e) {
        LOG.warn("Cannot extend the spawned hosts' expiry: {}", e.getMessage(), e);
      }
    }
  }

  @Override
  public void close() {
    beater.interrupt();
    files.forEach((site, file) -> remove(fileSystems.get(site), file));
  }

  /** Runs {@code task} on a daemon thread of its own (the common pool may have one thread). */
  private static void onThreadOfItsOwn(Runnable task) {
    Thread thread = new Thread(task, "spawned-relays-heartbeat-create");
    thread.setDaemon(true);
    thread.start();
  }

  private static void remove(FileSystem fileSystem, HeartbeatFile file) {
    BestEffortDelete.delete(fileSystem, file.path().getParent(), true,
        "the driver's heartbeat folder");
  }

  private static String currentUser() {
    try {
      return UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      return System.getProperty("user.name");
    }
  }
}
