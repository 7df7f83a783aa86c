package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ReplacedFile;
import dev.relaycp.provision.RelayPool;
import dev.relaycp.provision.RelayPoolStop;
import dev.relaycp.provision.YarnRelaySettings;
import dev.relaycp.provision.YarnRelays;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.Route;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code relaycp relay-pool --pool-file FILE}: YARN relays on both clusters kept for a series of
 * copies ({@link RelayPool}). A copy through YARN relays starts a JVM on every datanode of
 * both sites and warms it on its own files; copies in a row through one pool pay that once.
 *
 * <p>It runs in the foreground, as the pool's ApplicationMasters (those of {@link YarnRelays},
 * inside this process): it keeps the relays' heartbeat, asks YARN to replace a relay that dies
 * and writes the pool file anew when the routes change. It ends, ending both applications and
 * removing the file, when the file is removed, when {@code --for} has passed, or on Ctrl-C or
 * SIGTERM; killed outright, its relays stop themselves once its heartbeat has been still for
 * {@code relaycp.relay.driver-timeout-seconds}.
 */
@Command(
    name = "relay-pool",
    mixinStandardHelpOptions = true,
    description = {
        "Starts relays as YARN containers on both clusters, as `copy --relays yarn` does, and",
        "keeps them for the copies that name FILE (`relaycp copy --relay-pool FILE SRC DST`),",
        "until FILE is removed, --for has passed, or Ctrl-C or SIGTERM. Runs in the foreground.",
        "With --stop, ends the pool that runs with FILE, from any machine that reads FILE."
    })
public final class RelayPoolCommand implements Callable<Integer> {
  private static final Duration POLL = Duration.ofSeconds(1);

  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;
  @Mixin LoginOptions login;

  @Option(names = "--pool-file", required = true, paramLabel = "FILE",
      description = "Where the pool describes its relays (and their secret: readable by you"
          + " only) to the copies: a path on this machine, or a Hadoop URI such as"
          + " hdfs://nn:8020/user/me/relays.pool for copies that run on other machines; remove"
          + " it to stop the pool.")
  String poolFileName;

  private ReplacedFile poolFile;

  @Mixin YarnSiteOptions sites;

  @Option(names = "--for", paramLabel = "DURATION", defaultValue = "8h",
      description = "Stop after this long, e.g. 90m or 12h (default: ${DEFAULT-VALUE}), so that"
          + " a forgotten pool does not hold the clusters' containers.")
  String lifetime;

  @Option(names = "--stop",
      description = "Stop the pool that runs with --pool-file, from any machine that reads the"
          + " file: remove it, wait for the pool to end its YARN applications, and kill those"
          + " still running after --stop-timeout. A pool already stopped is no error.")
  boolean stop;

  @Option(names = "--stop-timeout", paramLabel = "DURATION", defaultValue = "2m",
      description = "With --stop: how long the pool may take to end its applications before"
          + " they are killed (default: ${DEFAULT-VALUE}).")
  String stopTimeout;

  @Override
  public Integer call() throws IOException, InterruptedException {
    Configuration configuration = hadoop.apply(parent.configuration());
    login.apply(configuration);
    Duration duration = check(configuration);
    PrintWriter out = spec.commandLine().getOut();
    if (stop) {
      return stopPool(configuration, duration, out);
    }
    Instant until = Instant.now().plus(duration).truncatedTo(ChronoUnit.SECONDS);
    TransferSecret secret = TransferSecret.generate();
    // Also gone when Ctrl-C or SIGTERM ends the JVM, after YarnRelays' own hook ended the
    // applications.
    poolFile.deleteOnExit();
    YarnRelays.Request request = new YarnRelays.Request(
        "relaycp relay pool " + poolFile,
        sites.sourceConfiguration(configuration), sites.destinationConfiguration(configuration),
        sites.relaysPerSite(),
        YarnRelaySettings.from(configuration, hadoop.properties), secret);
    try (YarnRelays.Starting starting = YarnRelays.begin(request)) {
      YarnRelays relays = starting.withListing(List.of());
      try {
        return serve(relays, secret, until, out);
      } finally {
        relays.close();
        poolFile.delete();
      }
    }
  }

  /** Every check of the options, in one place; returns --for, or with --stop its timeout. */
  private Duration check(Configuration configuration) throws IOException {
    Duration duration = SpawnOptions.duration(lifetime, "--for");
    sites.check();
    poolFile = PoolFileOption.resolve(poolFileName, "--pool-file", configuration);
    if (stop) {
      return SpawnOptions.duration(stopTimeout, "--stop-timeout");
    }
    Optional<String> notWritable = poolFile.whyNotWritable();
    if (notWritable.isPresent()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--pool-file " + poolFile
          + ": " + notWritable.get() + "; create it or name another file");
    }
    if (poolFile.exists()) {
      RelayPool running;
      try {
        running = RelayPool.read(poolFile, Instant.now());
      } catch (RelayCpException stopped) {
        if (stopped.code().retryable()) {
          // Unread, the file may be a live pool's: it is not taken over.
          throw stopped;
        }
        // A pool killed outright left it; this pool takes its place.
        return duration;
      }
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "a relay pool runs with "
          + poolFile + " (until " + running.until() + "); stop it by removing the file, or"
          + " name another --pool-file");
    }
    return duration;
  }

  /**
   * Waits for the relays asked for, writes the pool file, then keeps it true until the pool
   * is to end; returns the exit code.
   */
  private int serve(YarnRelays relays, TransferSecret secret, Instant until, PrintWriter out)
      throws IOException, InterruptedException {
    while (relays.mayJoin()) {
      Thread.sleep(250);
    }
    List<Route> routes = live(relays);
    publish(relays, routes, secret, until);
    out.printf("relaycp: relay pool up: %d routes (YARN applications %s), until %s; copy with"
            + " `relaycp copy --relay-pool %s SRC DST`; remove %s to stop it%n", routes.size(),
        relays.applications(), until, poolFile, poolFile);
    out.flush();
    Instant written = Instant.now();
    while (true) {
      Thread.sleep(POLL.toMillis());
      Instant now = Instant.now();
      if (!poolFile.exists()) {
        return removed(out);
      }
      if (!now.isBefore(until)) {
        out.println("relaycp: the relay pool's --for " + lifetime + " has passed: stopping it");
        return ExitCodes.OK;
      }
      List<Route> current = live(relays);
      if (!current.isEmpty() && !current.equals(routes)) {
        // While a lost relay's replacement starts, the file keeps the routes it had. A file
        // removed since the check above is not written again (its removal stops the pool),
        // short of a removal in the instant between this check and the rename.
        if (!poolFile.exists()) {
          return removed(out);
        }
        routes = current;
        publish(relays, routes, secret, until);
        written = now;
        out.printf("relaycp: relay pool: %d routes now%n", routes.size());
        out.flush();
      } else if (Duration.between(written, now).compareTo(RelayPool.REFRESH) >= 0) {
        if (!poolFile.touch(now)) {
          return removed(out);
        }
        written = now;
      }
    }
  }

  /** Writes the pool file for {@code routes}, replacing it whole. */
  private void publish(YarnRelays relays, List<Route> routes, TransferSecret secret,
      Instant until) throws IOException {
    RelayPool.of(routes, secret, relays.relayJarHash(), relays.applications(),
        relays.stagingFolders(), until).writeTo(poolFile);
  }

  /** --stop: ends the pool of the file, wherever it runs. */
  private int stopPool(Configuration configuration, Duration timeout, PrintWriter out)
      throws IOException, InterruptedException {
    RelayPoolStop.Outcome outcome = RelayPoolStop.stop(poolFile,
        sites.sourceConfiguration(configuration), sites.destinationConfiguration(configuration),
        timeout);
    if (!outcome.found()) {
      out.println("relaycp: no relay pool runs with " + poolFile + ": nothing to stop");
    } else if (outcome.killed().isEmpty()) {
      out.println("relaycp: removed " + poolFile + "; the relay pool ended its applications "
          + outcome.ended());
    } else {
      out.println("relaycp: removed " + poolFile + "; killed the relay pool's applications "
          + outcome.killed() + ", still running after --stop-timeout " + stopTimeout
          + (outcome.ended().isEmpty() ? "" : " (" + outcome.ended() + " had ended)"));
    }
    if (!outcome.stagingRemoved().isEmpty()) {
      out.println("relaycp: removed the staging folders the relay pool left: "
          + String.join(", ", outcome.stagingRemoved()));
    }
    out.flush();
    return ExitCodes.OK;
  }

  private int removed(PrintWriter out) {
    out.println("relaycp: " + poolFile + " was removed: stopping the relay pool");
    return ExitCodes.OK;
  }

  /**
   * The pool's live routes; RELAY_START_FAILED where it has none and none may join (every
   * relay of a site lost, its replacements used up or failed).
   */
  private static List<Route> live(YarnRelays relays) {
    List<Route> routes = relays.liveRoutes();
    if (routes.isEmpty() && !relays.mayJoin()) {
      throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "the relay pool has no route"
          + " left: every relay of a site ended and YARN started none in its place; see `yarn"
          + " logs -applicationId` for " + relays.applications());
    }
    return routes;
  }
}
