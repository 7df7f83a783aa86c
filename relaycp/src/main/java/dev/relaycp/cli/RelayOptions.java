package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.fs.ReplacedFile;
import dev.relaycp.provision.LocalRelayProcesses;
import dev.relaycp.provision.RelayPool;
import dev.relaycp.provision.RelayPoolRoutes;
import dev.relaycp.provision.StaticRelays;
import dev.relaycp.provision.YarnRelaySettings;
import dev.relaycp.provision.YarnRelays;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.CopySettings;
import dev.relaycp.transfer.SourceTree;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where a copy's datanode relays come from: running relays (--relays HOST:PORT), YARN
 * containers (--relays yarn), a relay pool's YARN containers (--relay-pool FILE) or relay
 * processes on this machine (--local-relays), their checks, and the transfer secret they share.
 */
public final class RelayOptions {
  private static final String YARN = "yarn";

  @Option(names = "--relays", split = ",", paramLabel = "yarn|HOST:PORT",
      description = "'yarn': start the source site's relays as YARN containers beside its"
          + " datanodes (one per datanode; see --relays-per-site) and stop them after."
          + " HOST:PORT,...: running source-site relays (e.g. on datanodes). Each route pairs"
          + " one of these with one --dst-relays relay; without --dst-relays they also write."
          + " Both: YARN's relays and these.")
  List<String> relays = new ArrayList<>();

  @Option(names = "--dst-relays", split = ",", paramLabel = "yarn|HOST:PORT",
      description = "The destination site's relays: 'yarn' (the default with --relays yarn),"
          + " running relays HOST:PORT,..., or both. One site's relays may run already while"
          + " YARN starts the other's (--relays yarn --dst-relays HOST:PORT, or the reverse).")
  List<String> destinationRelays = new ArrayList<>();

  @Option(names = "--relay-pool", paramLabel = "FILE",
      description = "The relays a running `relaycp relay-pool --pool-file FILE` keeps on both"
          + " clusters (YARN containers already warm), and their secret; FILE as the pool"
          + " named it, a local path or a Hadoop URI.")
  String relayPool;

  @Mixin YarnSiteOptions sites = new YarnSiteOptions();

  @Option(names = "--local-relays", paramLabel = "N",
      description = "Start N relay pairs on this machine for this copy and stop them after"
          + " (the same as --pairs N).")
  Integer localRelays;

  @Option(names = "--secret-file", paramLabel = "FILE",
      description = "The transfer secret running relays were started with (needed with "
          + "--relays; local relays get a fresh one).")
  Path secretFile;

  /** The pool --relay-pool names, read once. */
  private RelayPool pool;

  /** Whether any relay is named or asked for here (not counting --pairs or --spawn). */
  boolean given() {
    return !relays.isEmpty() || localRelays != null || relayPool != null;
  }

  /** Whether YARN starts relays on either site: --relays yarn, or --dst-relays yarn. */
  boolean yarn() {
    return yarnSource() || yarnDestination();
  }

  private boolean yarnSource() {
    return relays.stream().anyMatch(RelayOptions::isYarn);
  }

  /** Whether YARN starts the destination's relays: --dst-relays yarn, or as --relays yarn. */
  private boolean yarnDestination() {
    return destinationRelays.isEmpty() ? yarnSource()
        : destinationRelays.stream().anyMatch(RelayOptions::isYarn);
  }

  private static boolean isYarn(String relay) {
    return YARN.equalsIgnoreCase(relay.strip());
  }

  /** The running relays named beside YARN's, by site. */
  private static List<RelayAddress> running(List<String> named) {
    return named.stream().filter(relay -> !isYarn(relay)).map(RelayAddress::parse).toList();
  }

  /** The checks of these options against each other; {@code pairs} is --pairs, if given. */
  void check(String pairs, boolean spawning) {
    checkYarn();
    checkPool(pairs, spawning);
    if (localRelays == null && pairs == null && relays.isEmpty() && relayPool == null
        && !spawning) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "no relays given; pass --local-relays N (or --pairs auto) to start relays here,"
              + " --relays yarn, --relay-pool FILE or --relays host:port,...");
    }
    if ((localRelays != null || (pairs != null && !spawning)) && !relays.isEmpty()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          (pairs != null ? "--pairs" : "--local-relays") + " starts relays here but --relays names"
              + " running ones; use one of them");
    }
    if (localRelays != null && pairs != null && !spawning) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--local-relays N is --pairs N; give only one of them");
    }
    if (localRelays != null && localRelays < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--local-relays must be 1 or more, got " + localRelays);
    }
    if (!relays.isEmpty() && !yarn() && secretFile == null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--relays needs --secret-file, the secret those relays were started with");
    }
  }

  private void checkPool(String pairs, boolean spawning) {
    if (relayPool == null) {
      return;
    }
    String other = !relays.isEmpty() ? "--relays" : !destinationRelays.isEmpty() ? "--dst-relays"
        : localRelays != null ? "--local-relays" : pairs != null && !spawning ? "--pairs"
        : sites.relaysPerSiteGiven() ? "--relays-per-site" : secretFile != null ? "--secret-file"
        : null;
    if (other != null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--relay-pool gives the copy its"
          + " relays and their secret; drop " + other);
    }
  }

  private void checkYarn() {
    if (yarnDestination() && relays.isEmpty()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--dst-relays yarn needs --relays"
          + " too: yarn, or the running source-site relays (HOST:PORT,...) that read for the"
          + " destination's YARN relays");
    }
    if (yarnSource() && yarnDestination() && running(relays).isEmpty()
        && !running(destinationRelays).isEmpty()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "running destination relays"
          + " beside --dst-relays yarn need running source relays beside --relays yarn to"
          + " pair with; name them in --relays (yarn,HOST:PORT,...) or drop them");
    }
    if (!yarn() && relayPool == null && sites.given()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--src-conf, --dst-conf and"
          + " --relays-per-site steer the relays YARN starts; add yarn to --relays or"
          + " --dst-relays, or drop them");
    }
    sites.check();
    if (yarn()) {
      boolean running = !running(relays).isEmpty() || !running(destinationRelays).isEmpty();
      if (running && secretFile == null) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "running relays beside yarn"
            + " need --secret-file, the secret they were started with (YARN's relays get it too)");
      }
      if (!running && secretFile != null) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--secret-file is for running"
            + " relays; YARN relays get a fresh secret for each copy, so drop it");
      }
    }
  }

  /** The file of --relay-pool. */
  private ReplacedFile poolFile(Configuration configuration) {
    return PoolFileOption.resolve(relayPool, "--relay-pool", configuration);
  }

  /** The pool of --relay-pool, read when first asked for. */
  private RelayPool pool(Configuration configuration) {
    if (pool == null) {
      pool = RelayPool.read(poolFile(configuration), Instant.now());
    }
    return pool;
  }

  /**
   * The datanode relays for the listing: a relay pool's (--relay-pool), else YARN containers
   * named {@code applicationName} (with running relays beside them), else local pairs when
   * {@code localPairs} gives their number for the listing, else the running relays.
   */
  RelaysForListing relaysFor(Configuration configuration,
      Map<String, String> properties, String applicationName,
      Optional<ToIntFunction<SourceTree>> localPairs, TemporarySecret secret) {
    if (relayPool != null) {
      YarnRelaySettings settings = YarnRelaySettings.from(configuration, properties);
      // The pool's relays run this build where they run this process's relay jar.
      boolean thisBuild = RelayKeys.COPY_RUNNING_RELAYS_SAME_BUILD.from(configuration)
          || YarnRelays.relayJarHash(settings.jar())
              .filter(pool(configuration).relayJarHash()::equals).isPresent();
      RelayPoolRoutes pooled = RelayPoolRoutes.follow(poolFile(configuration),
          pool(configuration), thisBuild, settings.replacementWait());
      return RelaysForListing.of(tree -> pooled);
    }
    if (yarn()) {
      Configuration source = sites.sourceConfiguration(configuration);
      Configuration destination = sites.destinationConfiguration(configuration);
      YarnRelaySettings settings = YarnRelaySettings.from(configuration, properties);
      List<RelayAddress> readers = running(relays);
      List<RelayAddress> writers = running(destinationRelays);
      boolean sameBuild = RelayKeys.COPY_RUNNING_RELAYS_SAME_BUILD.from(configuration);
      // A site YARN starts no relays on has running ones, which pair with the other site's
      // containers; running relays named beside yarn pair among themselves.
      YarnRelays.Starting starting = YarnRelays.begin(new YarnRelays.Request(applicationName,
          source, destination, sites.relaysPerSite(), settings, secret.secret(),
          yarnSource() ? List.of() : readers, yarnDestination() ? List.of() : writers,
          sameBuild));
      boolean beside = yarnSource() ? !readers.isEmpty() : !writers.isEmpty();
      return RelaysForListing.of(tree -> {
        YarnRelays started = starting.withListing(tree.hostsByBytes());
        return beside ? started.with(StaticRelays.of(readers, writers).ofThisBuild(sameBuild))
            : started;
      }, starting::close);
    }
    if (localPairs.isPresent()) {
      boolean tls = RelayKeys.RELAY_TLS.from(configuration);
      // The identity is taken once the listing is done, as the relays start: the driver makes
      // it in the background from there, so that the listing does not wait for it.
      return RelaysForListing.of(tree -> LocalRelayProcesses.start(
          localPairs.get().applyAsInt(tree), secret.file(), properties, List.of(),
          tls ? RelayTls.identityToShare() : Optional.empty()));
    }
    StaticRelays running = StaticRelays.of(running(relays), running(destinationRelays))
        .ofThisBuild(RelayKeys.COPY_RUNNING_RELAYS_SAME_BUILD.from(configuration));
    return RelaysForListing.of(tree -> running);
  }

  /**
   * Refuses, with relays YARN starts, configuration folders crossed with SRC and DST (see
   * {@link YarnSiteOptions#checkNotCrossed}).
   */
  void checkSites(URI source, URI destination, Configuration base) {
    if (yarn()) {
      sites.checkNotCrossed(source, destination, base);
    }
  }

  /**
   * Opens SRC's cluster with --src-conf's configuration and DST's with --dst-conf's, where
   * given, and any other with {@code base}.
   */
  FileSystemOpener opener(Configuration base, CopySettings settings) {
    return sites.opener(base, settings.source(), settings.destination());
  }

  /**
   * The transfer's secret: --secret-file's, else --relay-pool's or a fresh one, in a file only
   * this user reads.
   */
  TemporarySecret secret(PrintWriter err, Configuration configuration) throws IOException {
    if (secretFile != null) {
      return new TemporarySecret(SecretFile.read(secretFile, err), secretFile, false);
    }
    TransferSecret secret = relayPool != null
        ? pool(configuration).secret() : TransferSecret.generate();
    Path file = Files.createTempFile("relaycp-secret-", "");
    // Also gone when Ctrl-C or SIGTERM ends the JVM before the copy closes it.
    file.toFile().deleteOnExit();
    secret.writeTo(file);
    return new TemporarySecret(secret, file, true);
  }

  /** The transfer's secret, and the file it lives in, removed after the copy if made here. */
  record TemporarySecret(TransferSecret secret, Path file, boolean owned)
      implements AutoCloseable {
    @Override
    public void close() throws IOException {
      if (owned) {
        Files.deleteIfExists(file);
      }
    }
  }
}
