package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.DataRate;
import dev.relaycp.plan.DataSize;
import dev.relaycp.plan.MachineType;
import dev.relaycp.plan.ObservedRates;
import dev.relaycp.provision.StaticRelays;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.RelayProbe.PairResult;
import dev.relaycp.transfer.RelayProbe;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code relaycp probe SRC_DIR DST_DIR}: measures relay pairs and records their rates. */
@Command(
    name = "probe",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Measures the throughput of each relay pair with one short send, as the thesis's",
        "pre-test does, and records it in the throughput history for `relaycp plan`.",
        "A scratch file of --size synthetic bytes is written below SRC_DIR, sent through each",
        "pair in turn into a scratch directory below DST_DIR (read and write path as in a",
        "copy), and both scratch directories are removed after.",
        "Sizes take decimal (MB, GB) or binary (MiB, GiB) units."
    })
public final class ProbeCommand implements Callable<Integer> {
  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;

  @Parameters(index = "0", paramLabel = "SRC_DIR",
      description = "A directory on the source cluster where a scratch directory may be made.")
  String source;

  @Parameters(index = "1", paramLabel = "DST_DIR",
      description = "A directory on the destination cluster where a scratch directory may be made.")
  String destination;

  @Option(names = "--relays", split = ",", paramLabel = "HOST:PORT", required = true,
      description = "Running source-site relays; pair i is the i-th of these with the i-th"
          + " --dst-relays relay.")
  List<String> relays = new ArrayList<>();

  @Option(names = "--dst-relays", split = ",", paramLabel = "HOST:PORT",
      description = "Running destination-site relays (without them the --relays also write).")
  List<String> destinationRelays = new ArrayList<>();

  @Option(names = "--secret-file", paramLabel = "FILE", required = true,
      description = "The transfer secret the relays were started with.")
  Path secretFile;

  @Option(names = "--size", paramLabel = "SIZE", defaultValue = "64MiB",
      description = "Bytes of each pair's timed send (default: ${DEFAULT-VALUE}).")
  String size;

  @Option(names = "--wait-seconds", paramLabel = "SECONDS", defaultValue = "120",
      description = "How long to wait for a relay to answer and for each send (default: ${DEFAULT-VALUE}).")
  long waitSeconds;

  @Mixin CatalogOptions catalog = new CatalogOptions();
  @Mixin HistoryOptions history = new HistoryOptions();

  @Option(names = "--json", description = "Print the results as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Configuration configuration = hadoop.apply(parent.configuration());
    RelayProbe.Settings settings = settings();
    Optional<MachineType> machine = catalog.find();
    TransferSecret secret = SecretFile.read(secretFile, spec.commandLine().getErr());
    StaticRelays pairs = StaticRelays.of(
        relays.stream().map(RelayAddress::parse).toList(),
        destinationRelays.stream().map(RelayAddress::parse).toList());
    List<PairResult> results =
        new RelayProbe(FileSystemOpener.of(configuration)).probe(settings, pairs.routes(), secret);

    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Path historyFile = history.file(configuration);
    Map<String, DataRate> samples = ObservedRates.ofProbe(results, machine);
    boolean recorded = history.recording(configuration)
        && ObservedRates.record(historyFile, samples, err);
    if (json) {
      out.println(CopySummary.jsonMapper().writerWithDefaultPrettyPrinter()
          .writeValueAsString(toJson(results, recorded ? historyFile : null)));
    } else {
      for (PairResult result : results) {
        out.println(result.measured()
            ? String.format(Locale.ROOT, "%s: %s in %.2f s, %.1f MB/s", result.route(),
                CopySummary.humanBytes(result.bytes()), result.seconds(),
                result.bytesPerSecond() / 1e6)
            : result.route() + ": failed: " + result.failure().orElse("too fast to time"));
      }
      if (recorded) {
        out.println("recorded in " + historyFile + ": " + String.join(", ", samples.keySet()));
      }
    }
    out.flush();
    long failed = results.stream().filter(result -> !result.measured()).count();
    if (failed > 0) {
      throw new RelayCpException(ErrorCode.RELAY_UNREACHABLE, failed + " of " + results.size()
          + " relay pairs could not be probed (see above); check that they run and share"
          + " --secret-file");
    }
    return ExitCodes.OK;
  }

  /** Every option checked here, before anything is started. */
  private RelayProbe.Settings settings() {
    DataSize bytes = DataSize.parse(size);
    if (bytes.bytes() < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--size " + size + " is empty; give at least one byte, e.g. --size 64MiB");
    }
    if (waitSeconds < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--wait-seconds " + waitSeconds + " is below 1; give 1 or more");
    }
    return new RelayProbe.Settings(CopyCommand.uri(source, "SRC_DIR"),
        CopyCommand.uri(destination, "DST_DIR"), bytes.bytes(), waitSeconds);
  }

  private static Map<String, Object> toJson(List<PairResult> results, Path recordedIn) {
    List<Map<String, Object>> pairs = new ArrayList<>();
    for (PairResult result : results) {
      Map<String, Object> pair = new LinkedHashMap<>();
      pair.put("route", result.route().id());
      pair.put("reader", result.route().reader().toString());
      pair.put("writer", result.route().writer().toString());
      pair.put("bytes", result.bytes());
      pair.put("seconds", result.seconds());
      pair.put("mbPerSecond", result.bytesPerSecond() / 1e6);
      pair.put("failure", result.failure().orElse(null));
      pairs.add(pair);
    }
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("pairs", pairs);
    root.put("history", recordedIn == null ? null : recordedIn.toString());
    return root;
  }
}
