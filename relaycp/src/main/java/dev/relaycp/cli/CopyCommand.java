package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.AutoPairs;
import dev.relaycp.plan.ObservedRates;
import dev.relaycp.plan.ThroughputHistory;
import dev.relaycp.provision.spawn.SpawnedRelays;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.CopyDriver;
import dev.relaycp.transfer.CopyReport;
import dev.relaycp.transfer.CopySettings;
import dev.relaycp.transfer.RouteSource;
import dev.relaycp.transfer.SourceTree;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code relaycp copy SRC DST}: copies a tree through relays and verifies every file. */
@Command(
    name = "copy",
    mixinStandardHelpOptions = true,
    description = {
        "Copies SRC (a file or directory, any Hadoop FileSystem URI) to DST through relays.",
        "A directory's files land below DST. Files are staged beside DST, verified against",
        "the source by COMPOSITE_CRC checksum, and only then renamed into place."
    })
public final class CopyCommand implements Callable<Integer> {
  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;
  @Mixin LoginOptions login;
  @Mixin HistoryOptions history = new HistoryOptions();
  @Mixin RelayOptions relayOptions;
  @Mixin PairsOptions pairsOptions;
  @Mixin SpawnOptions spawnOptions;
  @Mixin SyncOptions syncOptions;
  /** The spawned relays of this copy, once started, for the summary. */
  private SpawnedRelays spawned;

  @Parameters(index = "0", paramLabel = "SRC", description = "Source file or directory URI.")
  String source;

  @Parameters(index = "1", paramLabel = "DST", description = "Destination URI.")
  String destination;

  @Option(names = "--overwrite", description = "Replace files that exist at the destination.")
  boolean overwrite;

  @Option(names = "--json", description = "Print the summary as JSON on standard output.")
  boolean json;

  @Option(names = "--report", paramLabel = "FILE", description = "Also write the JSON summary to FILE.")
  Path report;

  @Option(names = "--no-progress", description = "Do not draw the progress bar.")
  boolean noProgress;

  @Option(names = "--compress", description = "Compress the bytes on the relay hop (Snappy;"
      + " frames that do not shrink cross as they are). Key: relaycp.copy.compress.")
  boolean compress;

  @Override
  public Integer call() throws IOException {
    Configuration configuration = hadoop.apply(parent.configuration());
    CopySettings settings = settings(configuration);
    login.apply(configuration);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ThroughputHistory observed = history.read(configuration);
    Optional<AutoPairs.Spawning> spawning = spawnOptions.spawning()
        ? Optional.of(spawnOptions.planned(configuration, relayOptions.given()))
        : Optional.empty();
    // SRC and DST are opened with their clusters' own configurations (--src-conf, --dst-conf),
    // as their relays open them, by the planner, the spawned relays and the driver alike.
    FileSystemOpener opener = relayOptions.opener(configuration, settings);
    try (RelayOptions.TemporarySecret secret = relayOptions.secret(err, configuration);
        CopyProgress progress = CopyProgress.start(!noProgress && !json)) {
      Optional<PairsChoice> auto = pairsOptions.choice(settings, configuration, opener, observed,
          spawning, relayOptions.yarn(), choice -> {
            if (!json) {
              progress.printAbove(err, "relaycp: --pairs auto: "
                  + (spawning.isPresent() ? "spawned" : "local") + " relays, " + choice);
            }
          });
      try (RelaysForListing relays = relaysFor(configuration, opener, settings, secret, auto)) {
        CopyReport result = new CopyDriver(opener)
            .copy(settings, relays, secret.secret(), progress);
        progress.close();
        if (history.recording(configuration)) {
          ObservedRates.record(history.file(configuration),
              ObservedRates.ofCopy(result.routeResults()), err);
        }
        Map<String, Object> summary = CopySummary.of(result);
        auto.flatMap(PairsChoice::summary).ifPresent(plan -> summary.put("plan", plan));
        if (spawned != null) {
          summary.putAll(SpawnOptions.summary(spawned, result.bytes(), configuration,
              auto.flatMap(PairsChoice::plan).map(choice -> choice.plan().chosen().dollars())));
        }
        if (report != null) {
          Files.writeString(report, CopySummary.jsonMapper().writeValueAsString(summary));
        }
        out.println(json ? CopySummary.jsonMapper().writeValueAsString(summary)
            : CopySummary.line(result));
        if (!json) {
          syncOptions.report(result.sync(), out, err);
        }
        out.flush();
        return ExitCodes.OK;
      }
    }
  }

  /** Every check of the options against each other and the configuration, in one place. */
  CopySettings settings(Configuration configuration) {
    spawnOptions.check(pairsOptions.auto());
    relayOptions.check(pairsOptions.pairs, spawnOptions.spawning());
    pairsOptions.check(configuration);
    if (report != null) {
      Path folder = report.toAbsolutePath().getParent();
      if (folder == null || !Files.isDirectory(folder) || !Files.isWritable(folder)) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--report " + report
            + ": folder " + folder + " does not exist or is not writable; create it or name"
            + " another file");
      }
    }
    // Local relays read these when they start: a bad value fails here, before any starts.
    RelayProcess.relaySettings("127.0.0.1", 0, TransferSecret.generate(), configuration);
    URI sourceUri = uri(source, "SRC");
    URI destinationUri = uri(destination, "DST");
    relayOptions.checkSites(sourceUri, destinationUri, configuration);
    CopySettings settings = CopySettings.from(configuration, sourceUri, destinationUri,
        overwrite, syncOptions.settings(overwrite));
    return compress ? settings.withCompress(true) : settings;
  }

  /** Parses a URI the way Hadoop would, with a message that says how to fix a bad one. */
  static URI uri(String text, String what) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new RelayCpException(ErrorCode.MALFORMED_URI, what + " '" + text
          + "' is not a valid URI (" + e.getReason() + "); write it as hdfs://namenode:port/path");
    }
    if (uri.getScheme() == null || uri.getPath() == null || uri.getPath().isEmpty()
        || (uri.getAuthority() == null && "hdfs".equals(uri.getScheme()))) {
      throw new RelayCpException(ErrorCode.MALFORMED_URI, what + " '" + text
          + "' needs a scheme, authority and path; write it as hdfs://namenode:port/path");
    }
    return uri;
  }

  /**
   * The relays of this copy, started once the listing is known (YARN's applications begin
   * before it): the datanode relays (or local ones), with spawned pairs joining them when
   * asked for. With --pairs auto, how many pairs is chosen from the listing.
   */
  private RelaysForListing relaysFor(Configuration configuration, FileSystemOpener opener,
      CopySettings settings, RelayOptions.TemporarySecret secret, Optional<PairsChoice> auto) {
    String application = "relaycp " + source + " -> " + destination;
    Optional<ToIntFunction<SourceTree>> givenLocalPairs = relayOptions.localRelays == null
        ? Optional.empty() : Optional.of(tree -> relayOptions.localRelays);
    if (!spawnOptions.spawning()) {
      Optional<ToIntFunction<SourceTree>> localPairs = givenLocalPairs;
      if (localPairs.isEmpty() && auto.isPresent()) {
        localPairs = Optional.of(auto.get()::pairs);
      } else if (localPairs.isEmpty() && pairsOptions.fixed() > 0) {
        localPairs = Optional.of(tree -> pairsOptions.fixed());
      }
      return relayOptions.relaysFor(configuration, hadoop.properties, application, localPairs,
          secret);
    }
    Optional<RelaysForListing> base = relayOptions.given()
        ? Optional.of(relayOptions.relaysFor(configuration, hadoop.properties, application,
            givenLocalPairs, secret))
        : Optional.empty();
    if (base.isEmpty()) {
      return RelaysForListing.of(
          tree -> withSpawned(tree, Optional.empty(), configuration, opener, settings, secret,
              auto));
    }
    return base.get().around(datanodeRelays -> tree -> withSpawned(tree,
        Optional.of(datanodeRelays), configuration, opener, settings, secret, auto));
  }

  /**
   * The relays for {@code tree}: the spawned pairs (as many as --pairs auto chooses for it, else
   * --spawn's), beside the datanode relays if there are any; those alone when no pair is to be
   * spawned.
   */
  private RouteSource withSpawned(SourceTree tree,
      Optional<Function<SourceTree, RouteSource>> datanodeRelays, Configuration configuration,
      FileSystemOpener opener, CopySettings settings, RelayOptions.TemporarySecret secret,
      Optional<PairsChoice> auto) {
    int pairs = auto.map(choice -> choice.pairs(tree)).orElseGet(() -> spawnOptions.spawn);
    if (pairs == 0 && datanodeRelays.isPresent()) {
      return datanodeRelays.get().apply(tree);
    }
    Function<Supplier<Optional<RouteSource>>, SpawnedRelays> starter = spawnOptions.starter(
        pairs, configuration, opener, settings.source(), settings.destination(), secret.secret(),
        secret.file(), auto.flatMap(PairsChoice::plan)
            .map(choice -> choice.plan().pretest().pays()).orElse(false));
    spawned = starter.apply(() -> datanodeRelays.map(relays -> relays.apply(tree)));
    return spawned;
  }
}
