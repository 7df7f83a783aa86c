package dev.relaycp.cli;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.Constraints;
import dev.relaycp.plan.CopyModel;
import dev.relaycp.plan.CopyOverheads;
import dev.relaycp.plan.DataRate;
import dev.relaycp.plan.DataSize;
import dev.relaycp.plan.DistcpSettings;
import dev.relaycp.plan.LiveInputs;
import dev.relaycp.plan.MachineType;
import dev.relaycp.plan.Objective;
import dev.relaycp.plan.Plan;
import dev.relaycp.plan.PlanInput;
import dev.relaycp.plan.PlanRow;
import dev.relaycp.plan.Planner;
import dev.relaycp.plan.Pricing;
import dev.relaycp.plan.RelayCatalog;
import dev.relaycp.plan.RelaycpSettings;
import dev.relaycp.plan.Site;
import dev.relaycp.plan.ThesisSettings;
import dev.relaycp.plan.ThesisVariant;
import dev.relaycp.plan.ThroughputHistory;
import dev.relaycp.plan.ThroughputHistoryFile;
import dev.relaycp.plan.Workload;
import dev.relaycp.transfer.ClusterSurvey;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code relaycp plan}: predicted seconds and dollars for each number of relay pairs, with
 * DistCp and a one-node copy beside them, and the chosen p. Options are read as text and parsed
 * here so that every bad value becomes a {@link RelayCpException} with the fix in its message.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Predict the time and money of a copy for p = 0..P relay pairs, beside DistCp and a",
      "one-node copy, and choose p.",
      "",
      "Live: relaycp plan SRC DST lists SRC, counts each cluster's datanodes and takes node",
      "rates from the throughput history where measured (else --external, --internal); the",
      "notes say which figures are measured. What-if: --what-if and flags, no clusters.",
      "",
      "Sizes take decimal units (kB, MB, GB, TB: powers of 1000) or binary units (KiB, MiB,",
      "GiB, TiB: powers of 1024); rates take the same followed by /s (90MiB/s, 100MB/s) or",
      "Mbps and Gbps (10^6 and 10^9 bits per second). Egress is priced per GB of 2^30 bytes,",
      "as AWS bills and as the thesis counts.",
    })
public final class PlanCommand implements Callable<Integer> {
  private static final Pattern PAIRS = Pattern.compile("\\s*(\\d+)\\s*(?:-\\s*(\\d+)\\s*)?");
  private static final Pattern GROUP = Pattern.compile("\\s*(\\d+)\\s*[xX*]\\s*(\\S+)\\s*");

  @Spec CommandSpec spec;
  @ParentCommand RelayCpCommand parent;
  @Mixin HadoopOptions hadoop = new HadoopOptions();

  @Parameters(
      arity = "0..2",
      paramLabel = "SRC DST",
      description = "Live mode: the source and destination URIs of the copy to plan. The source"
          + " is listed and each cluster's datanodes counted.")
  List<String> locations = new ArrayList<>();

  @Option(names = "--what-if", description = "Plan a copy described by flags, without clusters.")
  boolean whatIf;

  @Option(names = "--model", paramLabel = "MODEL", defaultValue = "relaycp",
      description = "thesis, relaycp or distcp (default: ${DEFAULT-VALUE}).")
  String model;

  @Option(names = "--thesis-variant", paramLabel = "VARIANT", defaultValue = "piped",
      description = "For --model thesis: basic (eq. 3.2), pipelined (3.3), piped (3.4) or hdfs (5.1)"
          + " (default: ${DEFAULT-VALUE}).")
  String thesisVariant;

  @Option(names = "--size", paramLabel = "SIZE", description = "Total bytes to copy, e.g. 8GiB or 500GB.")
  String size;

  @Option(names = "--files", paramLabel = "N",
      description = "Number of equal files sharing --size (default: 1).")
  Long files;

  @Option(names = "--file-sizes", paramLabel = "HISTOGRAM",
      description = "Files as COUNTxSIZE groups instead of --size/--files, e.g. 2x10GiB,1000x1MiB.")
  String fileSizes;

  @Option(names = {"--source-nodes", "--src-datanodes"}, paramLabel = "N",
      description = "Datanodes of the source cluster, each running a relay (what-if default: 1;"
          + " live: the NameNode's report, else the datanodes holding the source's blocks).")
  Integer sourceNodes;

  @Option(names = {"--destination-nodes", "--dst-datanodes"}, paramLabel = "N",
      description = "Datanodes of the destination cluster (what-if default: 1; live: the"
          + " NameNode's report, which needs the HDFS superuser).")
  Integer destinationNodes;

  @Option(names = "--replication", paramLabel = "R",
      description = "Copies the destination file system writes of each byte (what-if default: 1;"
          + " live: the destination's default replication).")
  Integer replication;

  @Option(names = "--internal", paramLabel = "RATE", defaultValue = "90MiB/s",
      description = "Throughput of each node inside its site (default: ${DEFAULT-VALUE}, thesis Table 4.3;"
          + " live: measured figures from --history first).")
  String internal;

  @Option(names = "--external", paramLabel = "RATE", defaultValue = "15MiB/s",
      description = "WAN throughput of each node to the other site (default: ${DEFAULT-VALUE}, thesis"
          + " Table 4.3; live: measured figures from --history first).")
  String external;

  @Option(names = "--boot-seconds", paramLabel = "SECONDS", defaultValue = "90",
      description = "Boot time of a spawned relay when --vm-type is not given (default: ${DEFAULT-VALUE}).")
  double bootSeconds;

  @Option(names = "--vm-price-per-hour", paramLabel = "DOLLARS", defaultValue = "0.0464",
      description = "Price of a spawned relay VM when --vm-type is not given (default: ${DEFAULT-VALUE},"
          + " t2.medium in thesis Table 4.1).")
  double vmPricePerHour;

  @Option(names = "--vm-type", paramLabel = "TYPE",
      description = "Spawn relays of this catalog type (NAME or PROVIDER/NAME), or 'auto' for the most"
          + " WAN per dollar; without it, spawned relays are like the nodes, with --boot-seconds and"
          + " --vm-price-per-hour.")
  String vmType;

  @Option(names = "--catalog", paramLabel = "FILE",
      description = "Relay catalog CSV (default: $RELAYCP_CONF_DIR/relay-catalog.csv, else conf/relay-catalog.csv).")
  Path catalog;

  @Option(names = "--history", paramLabel = "FILE",
      description = "Measured throughputs to prefer over the catalog and the rate defaults"
          + " (default: relaycp.history.file, else ~/.config/relaycp/history.json).")
  Path history;

  @Option(names = "--egress-per-gb", paramLabel = "DOLLARS", defaultValue = "0.02",
      description = "Egress price per GB (2^30 bytes) (default: ${DEFAULT-VALUE}, thesis Table 4.4).")
  double egressPerGigabyte;

  @Option(names = "--node-price-per-hour", paramLabel = "DOLLARS", defaultValue = "0",
      description = "Price of a cluster node's hour, counted for DistCp (default: ${DEFAULT-VALUE}: not counted).")
  double nodePricePerHour;

  @Option(names = "--pairs", paramLabel = "P or P0-P1", defaultValue = "0-8",
      description = "Numbers of relay pairs to consider (default: ${DEFAULT-VALUE}).")
  String pairs;

  @Option(names = "--objective", paramLabel = "OBJECTIVE", defaultValue = "balanced",
      description = "fastest (within --budget), cheapest (within --deadline) or balanced: the knee"
          + " (default: ${DEFAULT-VALUE}).")
  String objective;

  @Option(names = "--budget", paramLabel = "DOLLARS", description = "Most dollars to spend.")
  Double budget;

  @Option(names = "--deadline", paramLabel = "SECONDS", description = "Most seconds the copy may take.")
  Double deadline;

  @Option(names = "--knee", paramLabel = "FRACTION", defaultValue = "0.05",
      description = "Balanced: one more pair must save this fraction of the time (default: ${DEFAULT-VALUE}).")
  double knee;

  @Option(names = "--wan-spread", paramLabel = "FRACTION", defaultValue = "0.10",
      description = "Spread of a VM's WAN rate between VMs of a type, for the pre-testing advice"
          + " (default: ${DEFAULT-VALUE}).")
  double wanSpread;

  @Option(names = "--split-rate", paramLabel = "RATE", defaultValue = "65MiB/s",
      description = "Thesis model: split and merge throughput v_s, also export and import for hdfs"
          + " (default: ${DEFAULT-VALUE}).")
  String splitRate;

  @Option(names = "--pretest-seconds", paramLabel = "SECONDS", defaultValue = "60",
      description = "Time to probe spawned VMs when pre-testing (default: ${DEFAULT-VALUE}, thesis §6.1.3).")
  double pretestSeconds;

  @Option(names = "--chunk-size", paramLabel = "SIZE", defaultValue = "128MiB",
      description = "relaycp chunk size (default: ${DEFAULT-VALUE}).")
  String chunkSize;

  @Option(names = "--streams-per-relay", paramLabel = "N", defaultValue = "16",
      description = "relaycp streams per relay (default: ${DEFAULT-VALUE}).")
  int streamsPerRelay;

  @Option(names = "--distcp-maps", paramLabel = "N", defaultValue = "20",
      description = "DistCp -m (default: ${DEFAULT-VALUE}).")
  int distcpMaps;

  @Option(names = "--distcp-slots-per-node", paramLabel = "N", defaultValue = "4",
      description = "Map containers each node runs at once (default: ${DEFAULT-VALUE}).")
  int distcpSlotsPerNode;

  @Option(names = "--distcp-blocks-per-chunk", paramLabel = "N", defaultValue = "0",
      description = "DistCp -blocksperchunk; 0 copies whole files (default: ${DEFAULT-VALUE}).")
  int distcpBlocksPerChunk;

  @Option(names = "--distcp-job-seconds", paramLabel = "SECONDS",
      defaultValue = "20",
      description = "DistCp's job start-up before its first map starts: listing, submission, the"
          + " MapReduce application master (default: ${DEFAULT-VALUE}).")
  double distcpJobSeconds;

  @Option(names = "--distcp-task-seconds", paramLabel = "SECONDS", defaultValue = "4",
      description = "Start-up of each DistCp map container (default: ${DEFAULT-VALUE}).")
  double distcpTaskSeconds;

  @Option(names = "--distcp-file-seconds", paramLabel = "SECONDS", defaultValue = "0.1",
      description = "DistCp's cost per file besides its bytes: create, close, checksum"
          + " comparison, rename (default: ${DEFAULT-VALUE}).")
  double distcpFileSeconds;

  @Option(names = "--distcp-concurrent-files", paramLabel = "N", defaultValue = "0",
      description = "How many DistCp maps pay their cost per file at full speed at once; more"
          + " share it (the namenodes' handlers, a small cluster's cores), and"
          + " --distcp-file-seconds is then a lone map's cost. 0: no limit"
          + " (default: ${DEFAULT-VALUE}).")
  double distcpConcurrentFiles;

  @Option(names = "--relaycp-start-seconds", paramLabel = "SECONDS", defaultValue = "2",
      description = "relaycp's start-up before listing: the driver's JVM and its first"
          + " connections (default: ${DEFAULT-VALUE}).")
  double relaycpStartSeconds;

  @Option(names = "--relaycp-file-seconds", paramLabel = "SECONDS", defaultValue = "0.02",
      description = "relaycp's cost per file on a stream besides its bytes: open, create, close"
          + " (default: ${DEFAULT-VALUE}).")
  double relaycpFileSeconds;

  @Option(names = "--relaycp-commit-seconds", paramLabel = "SECONDS", defaultValue = "0.001",
      description = "relaycp's commit cost per file: the driver's rename into place"
          + " (default: ${DEFAULT-VALUE}).")
  double relaycpCommitSeconds;

  @Option(names = "--relaycp-concurrent-files", paramLabel = "N", defaultValue = "0",
      description = "How many relaycp streams pay a file's open and close cost at full speed at"
          + " once; more share it (the destination's namenode, the hosts' cores), and"
          + " --relaycp-file-seconds is then a stream's cost with no one sharing. 0: no limit"
          + " (default: ${DEFAULT-VALUE}).")
  double relaycpConcurrentFiles;

  @Option(names = "--relaycp-spawned-file-factor", paramLabel = "FACTOR", defaultValue = "1",
      description = "How many times a datanode relay's cost per file a spawned relay pays: more"
          + " than 1 for small VMs whose relay has just started; where streams share the file"
          + " cost (--relaycp-concurrent-files) it slows them all (default: ${DEFAULT-VALUE}).")
  double relaycpSpawnedFileFactor;

  @Option(names = "--relaycp-verify-seconds", paramLabel = "SECONDS", defaultValue = "0.001",
      description = "relaycp's verification cost per file: comparing the two clusters'"
          + " checksums, with the driver's requests in parallel (default: ${DEFAULT-VALUE}).")
  double relaycpVerifySeconds;

  @Option(names = "--block-size", paramLabel = "SIZE",
      description = "HDFS block size (what-if default: 128MiB; live: the source files' largest).")
  String blockSize;

  @Option(names = "--json", description = "Print the plan as JSON.")
  boolean json;

  public PlanCommand() {}

  /** The default overheads with the start-up and per-file costs the options give. */
  private CopyOverheads overheads() {
    CopyOverheads defaults = CopyOverheads.DEFAULT;
    return new CopyOverheads(relaycpStartSeconds, defaults.listingSecondsPerFile(),
        relaycpFileSeconds, defaults.perChunkSeconds(), relaycpCommitSeconds,
        relaycpVerifySeconds);
  }

  @Override
  public Integer call() throws Exception {
    validate();
    Configuration configuration =
        hadoop.apply(parent == null ? new Configuration() : parent.configuration());
    Path historyFile = HistoryFile.path(history, configuration, System.getenv());
    // Read only when a figure can come from it: a live plan's node rates, or --vm-type's.
    ThroughputHistory measured = whatIf && vmType == null
        ? ThroughputHistory.empty()
        : ThroughputHistoryFile.loadIfPresent(historyFile);
    List<String> notes = new ArrayList<>();
    Workload workload;
    Site source;
    Site destination;
    DataSize blocks;
    if (whatIf) {
      DataRate nodeExternal = DataRate.parse(external);
      DataRate nodeInternal = DataRate.parse(internal);
      workload = workload();
      source = new Site(orOne(sourceNodes), nodeExternal, nodeInternal, 1);
      destination = new Site(orOne(destinationNodes), nodeExternal, nodeInternal, orOne(replication));
      blocks = DataSize.parse(blockSize == null ? "128MiB" : blockSize);
    } else {
      LiveInputs live = liveInputs(configuration, measured);
      workload = live.workload();
      source = live.source();
      destination = replication == null
          ? live.destination()
          : new Site(live.destination().nodes(), live.destination().external(),
              live.destination().internal(), replication);
      blocks = blockSize == null ? live.blockSize() : DataSize.parse(blockSize);
      notes.addAll(live.notes());
    }
    Optional<RelayCatalog> relayCatalog = catalog(vmType != null, notes);
    MachineType machine =
        machine(relayCatalog, source.external(), source.internal(), measured, historyFile, notes);
    PlanInput input =
        new PlanInput(
            workload,
            source,
            destination,
            machine,
            new Pricing(egressPerGigabyte, nodePricePerHour),
            new RelaycpSettings(DataSize.parse(chunkSize), streamsPerRelay, overheads())
                .withConcurrentFiles(relaycpConcurrentFiles)
                .withSpawnedFileCostFactor(relaycpSpawnedFileFactor),
            new DistcpSettings(
                distcpMaps, distcpSlotsPerNode, distcpJobSeconds, distcpTaskSeconds,
                distcpFileSeconds, distcpBlocksPerChunk, blocks, distcpConcurrentFiles),
            new ThesisSettings(
                variant(), DataRate.parse(splitRate), pretestSeconds, DataRate.parse(splitRate),
                DataRate.parse(splitRate)));
    Constraints constraints =
        new Constraints(
            objective(),
            budget == null ? OptionalDouble.empty() : OptionalDouble.of(budget),
            deadline == null ? OptionalDouble.empty() : OptionalDouble.of(deadline),
            knee,
            wanSpread);
    int[] range = pairRange();
    CopyModel copyModel = Planner.model(model);
    Plan plan = Planner.plan(input, copyModel, range[0], range[1], constraints);
    if (vmType == null) {
      relayCatalog.ifPresent(
          found -> {
            MachineType best = found.mostWanPerDollar(Optional.empty(), 1);
            notes.add(
                String.format(
                    Locale.ROOT,
                    "most WAN per dollar in the catalog: %s/%s, %.1f MiB/s per $/h (use --vm-type auto)",
                    best.provider(), best.name(), best.externalMebibytesPerSecondPerDollarHour()));
          });
    }
    plan = plan.withNotes(notes);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(toJson(plan, input));
    } else {
      printTable(out, plan, input);
    }
    out.flush();
    return 0;
  }

  /** Every check of the options against each other, before anything is read or listed. */
  private void validate() {
    if (whatIf && !locations.isEmpty()) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "--what-if takes no SRC or DST; drop " + String.join(" ", locations));
    }
    if (!whatIf && locations.size() != 2) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "give SRC and DST to plan a copy between live clusters, or describe the copy with"
              + " --what-if --size SIZE --files N");
    }
    if (!whatIf && (size != null || files != null || fileSizes != null)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "--size, --files and --file-sizes describe a --what-if copy; a live plan lists SRC, so"
              + " drop them");
    }
    for (Integer count : new Integer[] {sourceNodes, destinationNodes, replication}) {
      if (count != null && count < 1) {
        throw new RelayCpException(
            INVALID_ARGUMENT,
            "node counts and --replication must be 1 or more, got " + count + "; give 1 or more");
      }
    }
  }

  private LiveInputs liveInputs(Configuration configuration, ThroughputHistory measured) {
    URI sourceUri = CopyCommand.uri(locations.get(0), "SRC");
    URI destinationUri = CopyCommand.uri(locations.get(1), "DST");
    ClusterSurvey survey = ClusterSurvey.of(FileSystemOpener.of(configuration), sourceUri,
        destinationUri, optional(sourceNodes), optional(destinationNodes));
    return LiveInputs.of(survey, measured,
        new LiveInputs.RateFlag("--external", DataRate.parse(external), given("--external")),
        new LiveInputs.RateFlag("--internal", DataRate.parse(internal), given("--internal")));
  }

  private boolean given(String option) {
    return spec.commandLine().getParseResult() != null
        && spec.commandLine().getParseResult().hasMatchedOption(option);
  }

  private static int orOne(Integer value) {
    return value == null ? 1 : value;
  }

  private static OptionalInt optional(Integer value) {
    return value == null ? OptionalInt.empty() : OptionalInt.of(value);
  }

  private Workload workload() {
    if (fileSizes != null) {
      if (size != null) {
        throw new RelayCpException(
            INVALID_ARGUMENT, "give either --size (with --files) or --file-sizes, not both");
      }
      List<Workload.FileGroup> groups = new ArrayList<>();
      for (String part : fileSizes.split(",")) {
        Matcher matcher = GROUP.matcher(part);
        if (!matcher.matches()) {
          throw new RelayCpException(
              INVALID_ARGUMENT,
              "cannot read '" + part + "' of --file-sizes; write COUNTxSIZE groups, e.g. 2x10GiB,1000x1MiB");
        }
        groups.add(new Workload.FileGroup(Long.parseLong(matcher.group(1)), DataSize.parse(matcher.group(2))));
      }
      return new Workload(groups);
    }
    if (size == null) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "--what-if needs --size (e.g. --size 8GiB) or --file-sizes");
    }
    return Workload.equalFiles(DataSize.parse(size), files == null ? 1 : files);
  }

  private Optional<RelayCatalog> catalog(boolean required, List<String> notes) {
    if (catalog != null) {
      return Optional.of(RelayCatalog.load(catalog));
    }
    try {
      return Optional.of(RelayCatalog.loadDefault(System.getenv()));
    } catch (RelayCpException e) {
      if (required) {
        throw e;
      }
      notes.add("no relay catalog: " + e.getMessage());
      return Optional.empty();
    }
  }

  private MachineType machine(
      Optional<RelayCatalog> relayCatalog, DataRate nodeExternal, DataRate nodeInternal,
      ThroughputHistory measured, Path historyFile, List<String> notes) {
    if (vmType == null) {
      String name = whatIf ? "what-if" : "as-nodes";
      return new MachineType(
          name, "-", name, vmPricePerHour, nodeExternal, nodeInternal, bootSeconds, 1, 0,
          whatIf
              ? "--external, --internal, --boot-seconds, --vm-price-per-hour"
              : "the source datanodes' rates, --boot-seconds, --vm-price-per-hour");
    }
    RelayCatalog found = relayCatalog.orElseThrow();
    MachineType chosen =
        vmType.equalsIgnoreCase("auto") ? found.mostWanPerDollar(Optional.empty(), 1) : found.find(vmType);
    MachineType withHistory = measured.applyTo(chosen);
    if (withHistory.equals(chosen)) {
      notes.add("figures of " + chosen.provider() + "/" + chosen.name() + " from the catalog: " + chosen.source());
    } else {
      notes.add(
          "figures of " + chosen.provider() + "/" + chosen.name() + " measured (" + historyFile + "): "
              + withHistory.source());
    }
    return withHistory;
  }

  private ThesisVariant variant() {
    try {
      return ThesisVariant.valueOf(thesisVariant.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "unknown --thesis-variant '" + thesisVariant + "'; use basic, pipelined, piped or hdfs");
    }
  }

  private Objective objective() {
    try {
      return Objective.valueOf(objective.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "unknown --objective '" + objective + "'; use fastest, cheapest or balanced");
    }
  }

  private int[] pairRange() {
    Matcher matcher = PAIRS.matcher(pairs);
    if (!matcher.matches()) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "cannot read --pairs '" + pairs + "'; give a number or a range such as 0-8");
    }
    int first = Integer.parseInt(matcher.group(1));
    int last = matcher.group(2) == null ? first : Integer.parseInt(matcher.group(2));
    return new int[] {first, last};
  }

  private static void printTable(PrintWriter out, Plan plan, PlanInput input) {
    MachineType machine = plan.machine();
    out.printf(
        Locale.ROOT, "model %s: %s in %d file(s); %d source and %d destination node(s)%n",
        plan.model(), input.workload().totalSize(), input.workload().fileCount(),
        input.source().nodes(), input.destination().nodes());
    out.printf(Locale.ROOT, "spawned relays: %s%n", machine);
    out.printf(
        Locale.ROOT, "baselines: DistCp %.1f s, one-node copy %.1f s%n",
        plan.distcpSeconds(), plan.sequentialSeconds());
    out.printf(
        Locale.ROOT, "%3s %5s  %-12s %6s %10s %10s %9s %11s%n",
        "", "pairs", "VM type", "relays", "seconds", "dollars", "vs DistCp", "vs one node");
    for (PlanRow row : plan.rows()) {
      out.printf(
          Locale.ROOT, "%3s %5d  %-12s %6d %10.1f %10.4f %8.2fx %10.2fx%n",
          row.pairs() == plan.chosen().pairs() ? "*" : "", row.pairs(), row.machineType(),
          row.estimate().relaysStarted(), row.seconds(), row.dollars(), row.speedupVersusDistcp(),
          row.speedupVersusSequential());
    }
    out.printf(Locale.ROOT, "chosen: p = %d (%s)%n", plan.chosen().pairs(), plan.reason());
    out.printf(Locale.ROOT, "%s%n", plan.pretest().reason());
    for (String note : plan.notes()) {
      out.printf(Locale.ROOT, "note: %s%n", note);
    }
  }

  private static String toJson(Plan plan, PlanInput input) throws Exception {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = mapper.createObjectNode();
    root.put("model", plan.model());
    root.put("bytes", input.workload().totalSize().bytes());
    root.put("files", input.workload().fileCount());
    ObjectNode machine = root.putObject("machine");
    machine.put("provider", plan.machine().provider());
    machine.put("vmType", plan.machine().name());
    machine.put("dollarsPerHour", plan.machine().dollarsPerHour());
    machine.put("externalMebibytesPerSecond", round(plan.machine().external().mebibytesPerSecond(), 3));
    machine.put("internalMebibytesPerSecond", round(plan.machine().internal().mebibytesPerSecond(), 3));
    machine.put("bootSeconds", plan.machine().bootSeconds());
    machine.put("source", plan.machine().source());
    root.put("distcpSeconds", round(plan.distcpSeconds(), 1));
    root.put("sequentialSeconds", round(plan.sequentialSeconds(), 1));
    ArrayNode rows = root.putArray("rows");
    for (PlanRow row : plan.rows()) {
      writeRow(rows.addObject(), row);
    }
    ObjectNode chosen = root.putObject("chosen");
    writeRow(chosen, plan.chosen());
    chosen.put("reason", plan.reason());
    ObjectNode pretest = root.putObject("pretest");
    pretest.put("pays", plan.pretest().pays());
    pretest.put("pairs", plan.pretest().pairs());
    pretest.put("pretestSeconds", plan.pretest().pretestSeconds());
    pretest.put("secondsWithout", round(plan.pretest().secondsWithout(), 1));
    pretest.put("dollarsWithout", round(plan.pretest().dollarsWithout(), 4));
    pretest.put("secondsWith", round(plan.pretest().secondsWith(), 1));
    pretest.put("dollarsWith", round(plan.pretest().dollarsWith(), 4));
    pretest.put("reason", plan.pretest().reason());
    ArrayNode notes = root.putArray("notes");
    plan.notes().forEach(notes::add);
    return mapper.writeValueAsString(root);
  }

  private static void writeRow(ObjectNode node, PlanRow row) {
    node.put("pairs", row.pairs());
    node.put("vmType", row.machineType());
    node.put("relaysStarted", row.estimate().relaysStarted());
    node.put("seconds", round(row.seconds(), 1));
    node.put("dollars", round(row.dollars(), 4));
    node.put("speedupVsDistcp", round(row.speedupVersusDistcp(), 3));
    node.put("speedupVsSequential", round(row.speedupVersusSequential(), 3));
  }

  private static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }
}
