package dev.relaycp.provision;

import static dev.relaycp.fs.HadoopFailures.firstLine;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.BestEffortDelete;
import dev.relaycp.fs.ReplacedFile;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a relay pool from any machine that reads its file ({@code relaycp relay-pool --stop}):
 * removes the file, which the pool takes as the sign to end both its YARN applications, waits
 * for the ResourceManagers to report them ended, and kills those still running after the wait
 * (a pool whose process hangs, or was killed and left them to YARN's expiry of their
 * ApplicationMasters). Then it removes the staging folders such a pool leaves behind (a pool
 * that ends on its own removes them itself), rather than leave them to the day-old sweep of
 * {@link StaleStagingFolders}.
 */
public final class RelayPoolStop {
  private static final Logger LOG = LoggerFactory.getLogger(RelayPoolStop.class);
  private static final long POLL_MILLIS = 250;
  /** How long a ResourceManager that does not answer is tried before the stop gives up. */
  private static final long CONNECT_WAIT_MILLIS = TimeUnit.SECONDS.toMillis(30);
  private static final Set<YarnApplicationState> ENDED = EnumSet.of(
      YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);

  /**
   * What the stop did.
   *
   * @param found whether the file named a pool (none: it had stopped already)
   * @param ended the pool's applications by site that ended within the wait
   * @param killed those the stop killed after it
   * @param stagingRemoved the staging folders the pool had left, which the stop removed
   */
  public record Outcome(boolean found, Map<String, String> ended, Map<String, String> killed,
      List<String> stagingRemoved) {
    public Outcome {
      ended = Map.copyOf(requireNonNull(ended, "ended is null"));
      killed = Map.copyOf(requireNonNull(killed, "killed is null"));
      stagingRemoved = List.copyOf(requireNonNull(stagingRemoved, "stagingRemoved is null"));
    }
  }

  private RelayPoolStop() {}

  /**
   * Stops the pool of {@code file}, whose applications run on the clusters of {@code source}
   * ("src") and {@code destination} ("dst"), waiting up to {@code wait} for it to end them.
   * CLUSTER_UNREACHABLE where a ResourceManager cannot tell or kill an application; the file
   * is removed before that.
   */
  public static Outcome stop(ReplacedFile file, Configuration source, Configuration destination,
      Duration wait) throws IOException, InterruptedException {
    requireNonNull(file, "file is null");
    requireNonNull(source, "source is null");
    requireNonNull(destination, "destination is null");
    requireNonNull(wait, "wait is null");
    Optional<RelayPool.Written> written = RelayPool.readWritten(file);
    file.delete();
    if (written.isEmpty()) {
      return new Outcome(false, Map.of(), Map.of(), List.of());
    }
    Map<String, String> applications = written.get().pool().applications();
    LOG.info("Removed {}: waiting up to {} s for the pool to end {}", file, wait.toSeconds(),
        applications);
    Map<String, YarnClient> clients = new LinkedHashMap<>();
    try {
      for (String site : applications.keySet()) {
        clients.put(site, client(configurationOf(site, source, destination)));
      }
      Map<String, String> ended = new LinkedHashMap<>();
      long deadline = System.nanoTime() + wait.toNanos();
      while (true) {
        for (Map.Entry<String, String> application : applications.entrySet()) {
          if (!ended.containsKey(application.getKey())
              && hasEnded(clients.get(application.getKey()), application)) {
            ended.put(application.getKey(), application.getValue());
          }
        }
        if (ended.size() == applications.size() || System.nanoTime() >= deadline) {
          break;
        }
        Thread.sleep(POLL_MILLIS);
      }
      Map<String, String> killed = new LinkedHashMap<>();
      for (Map.Entry<String, String> application : applications.entrySet()) {
        String site = application.getKey();
        if (!ended.containsKey(site)) {
          LOG.warn("The relay pool's {} application {} still runs {} s after its file was"
              + " removed: killing it", site, application.getValue(), wait.toSeconds());
          kill(clients.get(site), site, application.getValue());
          killed.put(site, application.getValue());
        }
      }
      List<String> stagingRemoved = removeStaging(written.get().pool().stagingFolders(),
          source, destination);
      return new Outcome(true, ended, killed, stagingRemoved);
    } finally {
      clients.values().forEach(YarnClient::stop);
    }
  }

  /**
   * Removes the staging folders of a pool whose applications have ended; returns those that
   * were there. A folder that cannot be removed is logged and left to the sweep. Only this
   * user's transfer folders in the site's relay staging folder are removed: the pool file
   * names the folders, and a stop run by a more powerful user (HDFS's superuser) must not
   * delete whatever a file another user can write names.
   */
  private static List<String> removeStaging(Map<String, String> folders, Configuration source,
      Configuration destination) throws IOException {
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    List<String> removed = new ArrayList<>();
    for (Map.Entry<String, String> folder : folders.entrySet()) {
      Path path = new Path(folder.getValue());
      Configuration configuration = configurationOf(folder.getKey(), source, destination);
      try (FileSystem fileSystem = FileSystem.newInstance(path.toUri(), configuration)) {
        if (!isTransferFolder(fileSystem, path, configuration, user)) {
          LOG.warn("Not removing {}, which the relay pool file names as its {} staging folder:"
              + " it is no transfer folder of {} in {}", path, folder.getKey(), user,
              YarnRelaySettings.stagingDirectory(configuration));
          continue;
        }
        if (fileSystem.exists(path) && BestEffortDelete.delete(fileSystem, path, true,
            "the relay pool's staging folder")) {
          removed.add(folder.getValue());
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("Cannot remove the relay pool's {} staging folder {}: {}; remove it by hand,"
            + " or a copy's sweep of day-old staging folders will", folder.getKey(), path,
            firstLine(e.getMessage()));
      }
    }
    return removed;
  }

  /** Whether {@code path} is STAGING/{@code user}/UUID, as the relays' start names them. */
  private static boolean isTransferFolder(FileSystem fileSystem, Path path,
      Configuration configuration, String user) {
    Path userFolder = path.getParent();
    if (userFolder == null || userFolder.getParent() == null
        || !userFolder.getName().equals(user)) {
      return false;
    }
    Path staging = fileSystem.makeQualified(
        new Path(YarnRelaySettings.stagingDirectory(configuration)));
    if (!fileSystem.makeQualified(userFolder.getParent()).equals(staging)) {
      return false;
    }
    try {
      return UUID.fromString(path.getName()).toString().equals(path.getName());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The cluster configuration of {@code site}: the destination's for "dst", else the source's. */
  private static Configuration configurationOf(String site, Configuration source,
      Configuration destination) {
    return site.equals("dst") ? destination : source;
  }

  private static YarnClient client(Configuration configuration) {
    Configuration quick = new Configuration(configuration);
    quick.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, CONNECT_WAIT_MILLIS);
    YarnClient client = YarnClient.createYarnClient();
    client.init(quick);
    client.start();
    return client;
  }

  private static boolean hasEnded(YarnClient client, Map.Entry<String, String> application) {
    try {
      return ENDED.contains(client.getApplicationReport(
          ApplicationId.fromString(application.getValue())).getYarnApplicationState());
    } catch (ApplicationNotFoundException forgotten) {
      return true;
    } catch (YarnException | IOException e) {
      throw unreachable(application.getKey(), application.getValue(), "ask for", e);
    }
  }

  private static void kill(YarnClient client, String site, String id) {
    try {
      client.killApplication(ApplicationId.fromString(id));
    } catch (ApplicationNotFoundException forgotten) {
      LOG.info("The {} application {} is gone already", site, id);
    } catch (YarnException | IOException e) {
      throw unreachable(site, id, "kill", e);
    }
  }

  private static RelayCpException unreachable(String site, String id, String what,
      Exception e) {
    return new RelayCpException(ErrorCode.CLUSTER_UNREACHABLE, "cannot " + what
        + " the relay pool's application " + id + " on the " + site + " cluster's"
        + " ResourceManager: " + firstLine(e.getMessage()) + "; `yarn application -kill " + id
        + "` there ends it", e);
  }
}
