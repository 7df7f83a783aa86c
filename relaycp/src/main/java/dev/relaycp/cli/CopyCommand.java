package dev.relaycp.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.AutoPairs;
import dev.relaycp.plan.Constraints;
import dev.relaycp.plan.Objective;
import dev.relaycp.plan.ObservedRates;
import dev.relaycp.plan.ThroughputHistoryFile;
import dev.relaycp.provision.LocalRelayProcesses;
import dev.relaycp.provision.RelayProvisioner;
import dev.relaycp.provision.StaticRelays;
import dev.relaycp.provision.YarnRelays;
import dev.relaycp.provision.YarnRelaySettings;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.CopyDriver;
import dev.relaycp.transfer.CopyReport;
import dev.relaycp.transfer.CopySettings;
import dev.relaycp.transfer.RouteResult;
import dev.relaycp.transfer.RouteSource;
import dev.relaycp.transfer.SourceTree;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.function.Function;
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
  static final String BLOCKS_PER_CHUNK = RelayKeys.COPY_BLOCKS_PER_CHUNK.key();
  static final String CHUNKS_IN_FLIGHT = RelayKeys.COPY_CHUNKS_IN_FLIGHT_PER_ROUTE.key();
  static final String BYTES_IN_FLIGHT = RelayKeys.COPY_BYTES_IN_FLIGHT_PER_ROUTE.key();
  static final String MAX_SENDS = RelayKeys.COPY_MAX_SENDS_PER_CHUNK.key();
  static final String VERIFICATION_THREADS = RelayKeys.COPY_VERIFICATION_THREADS.key();
  static final String RELAY_WAIT_SECONDS = RelayKeys.COPY_RELAY_WAIT_SECONDS.key();
  static final String MAX_AUTO_PAIRS = RelayKeys.COPY_MAX_AUTO_PAIRS.key();
  private static final String YARN = "yarn";
  private static final List<String> SITE_FILES =
      List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml");

  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;

  @Parameters(index = "0", paramLabel = "SRC", description = "Source file or directory URI.")
  String source;

  @Parameters(index = "1", paramLabel = "DST", description = "Destination URI.")
  String destination;

  @Option(names = "--relays", split = ",", paramLabel = "yarn|HOST:PORT",
      description = {"'yarn': start the source site's relays as YARN containers beside its",
          "datanodes (one per datanode; see --relays-per-site) and stop them after.",
          "HOST:PORT,...: running source-site relays (e.g. on datanodes). Each route pairs",
          "one of these with one --dst-relays relay; without --dst-relays they also write."})
  List<String> relays = new ArrayList<>();

  @Option(names = "--dst-relays", split = ",", paramLabel = "yarn|HOST:PORT",
      description = "The destination site's relays: 'yarn' (the default with --relays yarn)"
          + " or running relays.")
  List<String> destinationRelays = new ArrayList<>();

  @Option(names = "--src-conf", paramLabel = "DIR",
      description = "With --relays yarn: the source cluster's Hadoop configuration folder"
          + " (core-site.xml, hdfs-site.xml, yarn-site.xml); default: this process's.")
  Path sourceConf;

  @Option(names = "--dst-conf", paramLabel = "DIR",
      description = "With --relays yarn: the destination cluster's configuration folder;"
          + " default: this process's.")
  Path destinationConf;

  @Option(names = "--relays-per-site", paramLabel = "N",
      description = "With --relays yarn: relays on each site (default: one per datanode).")
  Integer relaysPerSite;

  @Option(names = "--local-relays", paramLabel = "N",
      description = "Start N relay pairs on this machine for this copy and stop them after"
          + " (the same as --pairs N).")
  Integer localRelays;

  @Option(names = "--pairs", paramLabel = "auto|N",
      description = "Start relay pairs on this machine for this copy: N of them, or 'auto' for"
          + " as many as the planner chooses (relaycp model; see --objective).")
  String pairs;

  @Option(names = "--objective", paramLabel = "OBJECTIVE",
      description = "With --pairs auto: fastest (within --budget), cheapest (within --deadline)"
          + " or balanced (default).")
  String objective;

  @Option(names = "--budget", paramLabel = "DOLLARS", description = "With --pairs auto: most dollars to spend.")
  Double budget;

  @Option(names = "--deadline", paramLabel = "SECONDS", description = "With --pairs auto: most seconds the copy may take.")
  Double deadline;

  @Option(names = "--src-datanodes", paramLabel = "N",
      description = "With --pairs auto: the source's datanodes, if the NameNode does not report them.")
  Integer sourceDatanodes;

  @Option(names = "--dst-datanodes", paramLabel = "N",
      description = "With --pairs auto: the destination's datanodes, if the NameNode does not"
          + " report them to this user (the report needs the HDFS superuser).")
  Integer destinationDatanodes;

  @Option(names = "--history", paramLabel = "FILE",
      description = "Throughput history the copy reads (--pairs auto) and adds each relay host's"
          + " measured rate to (default: relaycp.history.file, else ~/.config/relaycp/history.json).")
  Path history;

  @Option(names = "--no-history", description = "Record no measured rates (also relaycp.history.enabled=false).")
  boolean noHistory;

  @Option(names = "--secret-file", paramLabel = "FILE",
      description = "The transfer secret running relays were started with (needed with "
          + "--relays; local relays get a fresh one).")
  Path secretFile;

  @Option(names = "--overwrite", description = "Replace files that exist at the destination.")
  boolean overwrite;

  @Option(names = "--json", description = "Print the summary as JSON on standard output.")
  boolean json;

  @Option(names = "--report", paramLabel = "FILE", description = "Also write the JSON summary to FILE.")
  Path report;

  @Option(names = "--no-progress", description = "Do not draw the progress bar.")
  boolean noProgress;

  @Override
  public Integer call() throws IOException {
    Configuration configuration = hadoop.apply(parent.configuration());
    CopySettings settings = settings(configuration);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Path historyFile = HistoryFile.path(history, configuration, System.getenv());
    Optional<AutoPairs> auto = autoPairs(settings, configuration, historyFile);
    auto.ifPresent(choice -> {
      if (!json) {
        err.printf(Locale.ROOT, "relaycp: --pairs auto: starting %d local relay pair(s): %s%n",
            choice.pairs(), choice.plan().reason());
        err.flush();
      }
    });
    try (TemporarySecret secret = secret();
        CopyProgress progress = CopyProgress.start(!noProgress && !json)) {
      CopyReport result = new CopyDriver(FileSystemOpener.of(configuration))
          .copy(settings, relaysFor(configuration, secret, auto), secret.secret(), progress);
      progress.close();
      if (HistoryFile.recording(noHistory, configuration)) {
        ObservedRates.record(historyFile, ObservedRates.ofCopy(result.routeResults()), err);
      }
      Map<String, Object> summary = summary(result);
      auto.ifPresent(choice -> summary.put("plan", planSummary(choice)));
      if (report != null) {
        Files.writeString(report, jsonMapper().writeValueAsString(summary));
      }
      if (json) {
        out.println(jsonMapper().writeValueAsString(summary));
      } else {
        out.printf("Copied %d files (%s) in %.1f s: %.1f MB/s over %d routes; "
                + "%d chunks re-sent; all %d files verified (COMPOSITE_CRC).%n",
            result.files(), humanBytes(result.bytes()), result.seconds(),
            result.megabytesPerSecond(), result.routes() - result.routesDropped(),
            result.chunksResent(), result.verification().size());
      }
      out.flush();
      return ExitCodes.OK;
    }
  }

  /** With --pairs auto, the planner's choice; checked options only (see {@link #settings}). */
  private Optional<AutoPairs> autoPairs(CopySettings settings, Configuration configuration,
      Path historyFile) {
    if (!"auto".equalsIgnoreCase(pairs)) {
      return Optional.empty();
    }
    Constraints constraints = new Constraints(
        objective == null ? Objective.BALANCED : parseObjective(objective),
        budget == null ? OptionalDouble.empty() : OptionalDouble.of(budget),
        deadline == null ? OptionalDouble.empty() : OptionalDouble.of(deadline),
        Constraints.DEFAULT_KNEE_FRACTION, Constraints.DEFAULT_EXTERNAL_SPREAD);
    return Optional.of(AutoPairs.choose(FileSystemOpener.of(configuration),
        new AutoPairs.Request(settings.source(), settings.destination(),
            sourceDatanodes == null ? OptionalInt.empty() : OptionalInt.of(sourceDatanodes),
            destinationDatanodes == null ? OptionalInt.empty() : OptionalInt.of(destinationDatanodes),
            ThroughputHistoryFile.loadIfPresent(historyFile), constraints,
            configuration.getInt(MAX_AUTO_PAIRS, 8), settings.blocksPerChunk(),
            RelayKeys.PARALLEL_STREAMS.intFrom(configuration))));
  }

  private static Map<String, Object> planSummary(AutoPairs choice) {
    Map<String, Object> plan = new LinkedHashMap<>();
    plan.put("pairs", choice.pairs());
    plan.put("predictedSeconds", choice.plan().chosen().seconds());
    plan.put("reason", choice.plan().reason());
    plan.put("notes", choice.notes());
    return plan;
  }

  private static Objective parseObjective(String text) {
    try {
      return Objective.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "unknown --objective '" + text + "'; use fastest, cheapest or balanced");
    }
  }

  /** Every check of the options against each other and the configuration, in one place. */
  CopySettings settings(Configuration configuration) {
    checkYarnOptions();
    if (localRelays == null && pairs == null && relays.isEmpty()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "no relays given; pass --local-relays N (or --pairs auto) to start relays here, or"
              + " --relays host:port,...");
    }
    if ((localRelays != null || pairs != null) && !relays.isEmpty()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          (pairs != null ? "--pairs" : "--local-relays") + " starts relays here but --relays names"
              + " running ones; use one of them");
    }
    if (localRelays != null && pairs != null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--local-relays N is --pairs N; give only one of them");
    }
    if (localRelays != null && localRelays < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--local-relays must be 1 or more, got " + localRelays);
    }
    if (pairs != null && !"auto".equalsIgnoreCase(pairs) && fixedPairs() < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--pairs '" + pairs + "' is neither auto nor a number of 1 or more; e.g. --pairs 2");
    }
    boolean auto = "auto".equalsIgnoreCase(pairs);
    if (!auto && (objective != null || budget != null || deadline != null
        || sourceDatanodes != null || destinationDatanodes != null)) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--objective, --budget, --deadline, --src-datanodes and --dst-datanodes steer"
              + " --pairs auto; add --pairs auto or drop them");
    }
    if (objective != null) {
      parseObjective(objective);
    }
    for (Integer count : new Integer[] {sourceDatanodes, destinationDatanodes}) {
      if (count != null && count < 1) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
            "--src-datanodes and --dst-datanodes must be 1 or more, got " + count);
      }
    }
    if (configuration.getInt(MAX_AUTO_PAIRS, 8) < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          MAX_AUTO_PAIRS + " must be 1 or more; fix it in relaycp-site.xml or -D");
    }
    if (!relays.isEmpty() && !yarnRelays() && secretFile == null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--relays needs --secret-file, the secret those relays were started with");
    }
    if (report != null) {
      Path folder = report.toAbsolutePath().getParent();
      if (folder == null || !Files.isDirectory(folder) || !Files.isWritable(folder)) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--report " + report
            + ": folder " + folder + " does not exist or is not writable; create it or name"
            + " another file");
      }
    }
    // Local relays read these when they start: a bad value fails here, before any starts.
    RelayCommand.relaySettings("127.0.0.1", 0, TransferSecret.generate(), configuration);
    try {
      return new CopySettings(uri(source, "SRC"), uri(destination, "DST"), overwrite,
          configuration.getInt(BLOCKS_PER_CHUNK, 1),
          configuration.getInt(CHUNKS_IN_FLIGHT, CopySettings.DEFAULT_CHUNKS_IN_FLIGHT_PER_ROUTE),
          configuration.getLongBytes(BYTES_IN_FLIGHT,
              CopySettings.DEFAULT_BYTES_IN_FLIGHT_PER_ROUTE),
          configuration.getInt(MAX_SENDS, 8),
          configuration.getInt(VERIFICATION_THREADS, 16),
          configuration.getLong(RELAY_WAIT_SECONDS, CopySettings.DEFAULT_RELAY_WAIT_SECONDS),
          RelayKeys.SILENCE_TIMEOUT_SECONDS.from(configuration));
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "bad copy setting: " + e.getMessage() + "; fix it in relaycp-site.xml or -D");
    }
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

  private TemporarySecret secret() throws IOException {
    if (secretFile != null) {
      return new TemporarySecret(SecretFile.read(secretFile, spec.commandLine().getErr()),
          secretFile, false);
    }
    Path file = Files.createTempFile("relaycp-secret-", "");
    TransferSecret secret = TransferSecret.generate();
    secret.writeTo(file);
    return new TemporarySecret(secret, file, true);
  }

  /** The N of --pairs N, or 0 when it is not a number. */
  private int fixedPairs() {
    try {
      return Integer.parseInt(pairs.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Whether the relays include YARN containers: --relays yarn[,HOST:PORT...]. */
  private boolean yarnRelays() {
    return relays.stream().anyMatch(CopyCommand::isYarn);
  }

  private static boolean isYarn(String relay) {
    return YARN.equalsIgnoreCase(relay.strip());
  }

  /** The running relays named beside YARN's (e.g. spawned hosts), by site. */
  private List<RelayAddress> runningRelays(List<String> named) {
    return named.stream().filter(relay -> !isYarn(relay)).map(RelayAddress::parse).toList();
  }

  private void checkYarnOptions() {
    boolean yarnDestination = destinationRelays.stream().anyMatch(CopyCommand::isYarn);
    if (yarnRelays() && !destinationRelays.isEmpty() && !yarnDestination) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--relays yarn starts the relays"
          + " of both sites through YARN; drop --dst-relays or add yarn to it");
    }
    if (yarnDestination && !yarnRelays()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--dst-relays yarn needs"
          + " --relays yarn: both sites' relays start through YARN, or neither's");
    }
    if (!yarnRelays() && (sourceConf != null || destinationConf != null
        || relaysPerSite != null)) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--src-conf, --dst-conf and"
          + " --relays-per-site steer --relays yarn; add --relays yarn or drop them");
    }
    if (relaysPerSite != null && relaysPerSite < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--relays-per-site must be 1 or more, got " + relaysPerSite);
    }
    for (Path folder : new Path[] {sourceConf, destinationConf}) {
      if (folder != null && !Files.isDirectory(folder)) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "configuration folder " + folder
            + " does not exist; give the folder holding the cluster's core-site.xml and"
            + " yarn-site.xml");
      }
    }
    if (yarnRelays()) {
      boolean running = relays.size() > 1 || destinationRelays.size() > 1;
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

  /** The relays of this copy, started once the listing is known. */
  private Function<SourceTree, RouteSource> relaysFor(Configuration configuration,
      TemporarySecret secret, Optional<AutoPairs> auto) {
    if (yarnRelays()) {
      Configuration source = siteConfiguration(configuration, sourceConf);
      Configuration destination = siteConfiguration(configuration, destinationConf);
      YarnRelaySettings yarn = YarnRelaySettings.from(configuration, hadoop.properties);
      List<RelayAddress> runningReaders = runningRelays(relays);
      List<RelayAddress> runningWriters = runningRelays(destinationRelays);
      return tree -> {
        YarnRelays started = YarnRelays.start(new YarnRelays.Request(
            "relaycp " + this.source + " -> " + this.destination, source, destination,
            relaysPerSite == null ? 0 : relaysPerSite, tree.hostsByBytes(), yarn,
            secret.secret()));
        return runningReaders.isEmpty() ? started
            : started.with(StaticRelays.of(runningReaders, runningWriters));
      };
    }
    if (localRelays != null || pairs != null) {
      int count = auto.map(AutoPairs::pairs)
          .orElseGet(() -> localRelays != null ? localRelays : fixedPairs());
      return tree -> LocalRelayProcesses.start(count, secret.file(), hadoop.properties,
          List.of());
    }
    StaticRelays running = StaticRelays.of(runningRelays(relays),
        runningRelays(destinationRelays));
    return tree -> running;
  }

  /** {@code base} with the cluster configuration files in {@code folder} on top. */
  static Configuration siteConfiguration(Configuration base, Path folder) {
    Configuration configuration = new Configuration(base);
    if (folder == null) {
      return configuration;
    }
    for (String name : SITE_FILES) {
      Path file = folder.resolve(name);
      if (Files.isRegularFile(file)) {
        try {
          configuration.addResource(file.toUri().toURL());
        } catch (MalformedURLException e) {
          throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
              "cannot read " + file + ": " + e.getMessage(), e);
        }
      }
    }
    return configuration;
  }

  static Map<String, Object> summary(CopyReport result) {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("source", result.source());
    summary.put("destination", result.destination());
    summary.put("bytes", result.bytes());
    summary.put("files", result.files());
    summary.put("directories", result.directories());
    summary.put("seconds", result.seconds());
    summary.put("mbPerSecond", result.megabytesPerSecond());
    summary.put("provisioner", result.provisioner());
    summary.put("relaysStarted", result.relaysStarted());
    summary.put("relays", 2 * result.routes());
    summary.put("routes", result.routes());
    summary.put("localReadFraction", result.localReadFraction());
    summary.put("routesDropped", result.routesDropped());
    summary.put("chunks", result.chunks());
    summary.put("phaseSeconds", result.phaseSeconds());
    summary.put("chunksResent", result.chunksResent());
    summary.put("verified", result.allVerified());
    summary.put("verification", result.verification());
    List<Map<String, Object>> routeRates = new ArrayList<>();
    for (RouteResult route : result.routeResults()) {
      Map<String, Object> rate = new LinkedHashMap<>();
      rate.put("route", route.routeId());
      rate.put("reader", route.reader().toString());
      rate.put("writer", route.writer().toString());
      rate.put("bytes", route.bytes());
      rate.put("chunks", route.chunks());
      rate.put("busySeconds", route.busySeconds());
      rate.put("mbPerSecond", route.bytesPerSecond() / 1e6);
      rate.put("dropped", route.dropped());
      rate.put("joinedSeconds", route.joinedSeconds());
      routeRates.add(rate);
    }
    summary.put("routeRates", routeRates);
    return summary;
  }

  public static ObjectMapper jsonMapper() {
    return new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
  }

  static String humanBytes(long bytes) {
    if (bytes < 1_000_000) {
      return bytes + " bytes";
    }
    return String.format("%.1f MB", bytes / 1e6);
  }

  /** The transfer's secret, and the file it lives in, removed after the copy if we made it. */
  private record TemporarySecret(TransferSecret secret, Path file, boolean owned)
      implements AutoCloseable {
    @Override
    public void close() throws IOException {
      if (owned) {
        Files.deleteIfExists(file);
      }
    }
  }
}
