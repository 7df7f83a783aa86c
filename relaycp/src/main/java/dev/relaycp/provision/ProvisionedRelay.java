package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.BestEffortDelete;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.fs.HeartbeatFile;
import dev.relaycp.fs.RelayAnnouncements;
import dev.relaycp.relay.DriverWatch;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's side of being started by a provisioner that cannot see its output (YARN): it
 * announces where it listens in the transfer's staging directory, and stops once the driver
 * that started it is gone.
 */
public final class ProvisionedRelay {
  private static final Logger LOG = LoggerFactory.getLogger(ProvisionedRelay.class);

  private ProvisionedRelay() {}

  /** Writes {@code address} ({@code host:port}) as relay {@code name} in {@code directoryUri}. */
  public static void announce(Configuration configuration, String directoryUri, String name,
      String address) {
    Path directory = new Path(requireNonNull(directoryUri, "directoryUri is null"));
    try {
      announcementsIn(configuration, directory).publish(name, address);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "announcing this relay in " + directory);
    }
    LOG.info("Announced {} as {} in {}", address, name, directory);
  }

  /**
   * Says in {@code directoryUri}, the folder relays announce themselves in, that relay {@code
   * name} is busy with work that outlives the copy, so that its driver waits for it a while
   * before ending it (YarnRelays#awaitBackgroundWork); closing the result withdraws that. Where
   * the folder cannot be written the relay goes on without asking, as the work is only worth
   * waiting for, not needed.
   */
  public static Closeable markBusy(Configuration configuration, String directoryUri,
      String name) {
    Path directory = new Path(requireNonNull(directoryUri, "directoryUri is null"));
    try {
      Closeable marker = announcementsIn(configuration, directory).busy(name);
      return () -> {
        try {
          marker.close();
        } catch (IOException e) {
          LOG.debug("Cannot withdraw relay {}'s busy marker in {}", name, directory, e);
        }
      };
    } catch (IOException | RuntimeException e) {
      LOG.info("Cannot tell the driver in {} that relay {} is busy: {}", directory, name,
          e.toString());
      return () -> { };
    }
  }

  /** The folder relays announce themselves in, on the relay's own client of its cluster. */
  private static RelayAnnouncements announcementsIn(Configuration configuration, Path directory) {
    return RelayAnnouncements.in(FileSystemOpener.of(configuration).open(directory.toUri()),
        directory);
  }

  /**
   * Watches the driver's heartbeat file on a daemon thread and runs {@code stop} once the
   * driver has ended (the file is gone) or has been silent for {@code timeout}; in the second
   * case the driver died without cleaning up, so this relay removes the transfer's staging
   * directory (the heartbeat's parent: the jar and the secret) on its way out.
   */
  public static void followDriver(Configuration configuration, String heartbeatUri,
      Duration timeout, Runnable stop) {
    requireNonNull(stop, "stop is null");
    Path heartbeat = new Path(requireNonNull(heartbeatUri, "heartbeatUri is null"));
    // The relay's own instance for its cluster (made as it starts), not a second client.
    FileSystem fileSystem = FileSystemOpener.of(configuration).open(heartbeat.toUri());
    DriverWatch watch = DriverWatch.of(HeartbeatFile.at(fileSystem, heartbeat), timeout);
    Duration period = Duration.ofMillis(Math.max(100, Math.min(2_000, timeout.toMillis() / 4)));
    Thread watcher = new Thread(() -> {
      DriverWatch.Verdict verdict = watch.await(period);
      if (verdict == DriverWatch.Verdict.DRIVER_SILENT) {
        LOG.warn("No heartbeat from the driver for {} s ({}): stopping, and removing the"
            + " transfer's staging directory", timeout.toSeconds(), heartbeat);
        BestEffortDelete.delete(fileSystem, heartbeat.getParent(), true,
            "the transfer's staging directory");
      } else if (verdict == DriverWatch.Verdict.DRIVER_ENDED) {
        LOG.info("The driver has ended ({} is gone): stopping", heartbeat);
      }
      if (verdict != null) {
        stop.run();
      }
    }, "relay-driver-watch");
    watcher.setDaemon(true);
    watcher.start();
  }
}
