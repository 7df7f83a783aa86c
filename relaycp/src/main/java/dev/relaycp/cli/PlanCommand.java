package dev.relaycp.cli;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.Constraints;
import dev.relaycp.plan.DataSize;
import dev.relaycp.plan.LiveInputs;
import dev.relaycp.plan.MachineChoice;
import dev.relaycp.plan.MachineType;
import dev.relaycp.plan.PairRange;
import dev.relaycp.plan.Placement;
import dev.relaycp.plan.Plan;
import dev.relaycp.plan.PlanInput;
import dev.relaycp.plan.PlanReport;
import dev.relaycp.plan.Planner;
import dev.relaycp.plan.Site;
import dev.relaycp.plan.ThroughputHistory;
import dev.relaycp.plan.Workload;
import dev.relaycp.transfer.ClusterSurvey;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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
 * by the planner so that every bad value becomes a {@link RelayCpException} with the fix in its
 * message; the plan package assembles the inputs and renders the plan.
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
  @Spec CommandSpec spec;
  @ParentCommand RelayCpCommand parent;
  @Mixin HadoopOptions hadoop = new HadoopOptions();

  @Parameters(arity = "0..2", paramLabel = "SRC DST",
      description = "Live mode: the source and destination URIs of the copy to plan. The source"
          + " is listed and each cluster's datanodes counted.")
  List<String> locations = new ArrayList<>();

  @Option(names = "--what-if", description = "Plan a copy described by flags, without clusters.")
  boolean whatIf;

  @Option(names = "--model", paramLabel = "MODEL", defaultValue = "relaycp",
      description = "thesis, relaycp or distcp (default: ${DEFAULT-VALUE}).")
  String model;

  @Option(names = "--pairs", paramLabel = "P or P0-P1", defaultValue = "0-8",
      description = "Numbers of relay pairs to consider (default: ${DEFAULT-VALUE}).")
  String pairs;

  @Mixin WorkloadOptions workload = new WorkloadOptions();
  @Mixin DatanodeOptions datanodes = new DatanodeOptions();
  @Mixin NodeOptions nodes = new NodeOptions();

  @Option(names = "--placement", paramLabel = "even|one|SIZE,...",
      description = "What-if: where the source's bytes are: spread evenly over its datanodes"
          + " (even, the default), all on one (one, as when one client wrote them from a"
          + " datanode), a size per datanode (4GiB,0,0), or a size per set of datanodes holding"
          + " the same blocks, numbered from 1 (1+2=3GiB,3=1GiB). A live plan reads the"
          + " listing's block locations.")
  String placement;

  @Option(names = "--boot-seconds", paramLabel = "SECONDS",
      description = "Boot time of a spawned relay when --vm-type is not given (default: ${DEFAULT-VALUE}).")
  double bootSeconds = MachineChoice.DEFAULT_BOOT_SECONDS;

  @Option(names = "--vm-price-per-hour", paramLabel = "DOLLARS",
      description = "Price of a spawned relay VM when --vm-type is not given (default: ${DEFAULT-VALUE},"
          + " t2.medium in thesis Table 4.1).")
  double vmPricePerHour = MachineChoice.DEFAULT_DOLLARS_PER_HOUR;

  @Mixin CatalogOptions catalog = new CatalogOptions();
  @Mixin HistoryOptions history = new HistoryOptions();
  @Mixin ObjectiveOptions objective = new ObjectiveOptions();

  @Option(names = "--knee", paramLabel = "FRACTION",
      description = "Balanced: one more pair must save this fraction of the time (default: ${DEFAULT-VALUE}).")
  double knee = Constraints.DEFAULT_KNEE_FRACTION;

  @Option(names = "--wan-spread", paramLabel = "FRACTION",
      description = "Spread of a VM's WAN rate between VMs of a type, for the pre-testing advice"
          + " (default: ${DEFAULT-VALUE}).")
  double wanSpread = Constraints.DEFAULT_EXTERNAL_SPREAD;

  @Mixin ThesisOptions thesis = new ThesisOptions();
  @Mixin RelaycpModelOptions relaycp = new RelaycpModelOptions();
  @Mixin DistcpOptions distcp = new DistcpOptions();

  @Option(names = "--json", description = "Print the plan as JSON.")
  boolean json;

  public PlanCommand() {}

  @Override
  public Integer call() {
    validate();
    Configuration configuration =
        hadoop.apply(parent == null ? new Configuration() : parent.configuration());
    Path historyFile = history.file(configuration);
    // Read only when a figure can come from it: a live plan's node rates, or --vm-type's.
    ThroughputHistory measured = whatIf && catalog.vmType().isEmpty()
        ? ThroughputHistory.empty() : history.read(configuration);
    List<String> notes = new ArrayList<>();
    LiveInputs sites = whatIf ? whatIfInputs() : liveInputs(configuration, measured);
    notes.addAll(sites.notes());
    MachineType machine = new MachineChoice(catalog.vmType(), catalog.catalog(), vmPricePerHour,
        bootSeconds).choose(whatIf ? "what-if" : "as-nodes",
            whatIf ? "--external, --internal, --boot-seconds, --vm-price-per-hour"
                : "the source datanodes' rates, --boot-seconds, --vm-price-per-hour",
            sites.source(), measured, historyFile, System.getenv(), notes);
    PlanInput input = new PlanInput(sites.workload(), sites.source(), sites.destination(),
        machine, nodes.pricing(), relaycp.settings(configuration),
        distcp.settings(sites.blockSize()), thesis.settings());
    PairRange range = PairRange.parse(pairs);
    Plan plan = Planner.plan(input, Planner.model(model), range.first(), range.last(),
        objective.constraints(knee, wanSpread)).withNotes(notes);
    PlanReport report = new PlanReport(plan, input);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(report.json());
    } else {
      out.print(report.table());
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** Every check of the options against each other, before anything is read or listed. */
  private void validate() {
    if (whatIf && !locations.isEmpty()) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "--what-if takes no SRC or DST; drop " + String.join(" ", locations));
    }
    if (!whatIf && locations.size() != 2) {
      throw new RelayCpException(INVALID_ARGUMENT,
          "give SRC and DST to plan a copy between live clusters, or describe the copy with"
              + " --what-if --size SIZE --files N");
    }
    if (!whatIf && workload.given()) {
      throw new RelayCpException(INVALID_ARGUMENT,
          "--size, --files and --file-sizes describe a --what-if copy; a live plan lists SRC, so"
              + " drop them");
    }
    if (!whatIf && placement != null) {
      throw new RelayCpException(INVALID_ARGUMENT, "--placement describes a --what-if copy; a"
          + " live plan reads where SRC's blocks are, so drop it");
    }
    datanodes.source();
    datanodes.destination();
    nodes.replication(1);
    if (placement != null) {
      Placement.parse(placement, datanodes.source().orElse(1), 1);
    }
  }

  /** The copy the flags describe, on sites of one node each unless counts are given. */
  private LiveInputs whatIfInputs() {
    Workload files = workload.workload();
    int sourceNodes = datanodes.source().orElse(1);
    Site source = new Site(sourceNodes, nodes.external(), nodes.internal(), 1,
        placement == null ? Placement.even(sourceNodes, 1)
            : Placement.parse(placement, sourceNodes, 1));
    Site destination = new Site(datanodes.destination().orElse(1), nodes.external(),
        nodes.internal(), nodes.replication(1));
    return new LiveInputs(files, source, destination, nodes.blockSize(), List.of());
  }

  private LiveInputs liveInputs(Configuration configuration, ThroughputHistory measured) {
    ClusterSurvey survey = ClusterSurvey.of(FileSystemOpener.of(configuration),
        CopyCommand.uri(locations.get(0), "SRC"), CopyCommand.uri(locations.get(1), "DST"),
        datanodes.source(), datanodes.destination());
    LiveInputs live = LiveInputs.of(survey, measured,
        new LiveInputs.RateFlag("--external", nodes.external(), given("--external")),
        new LiveInputs.RateFlag("--internal", nodes.internal(), given("--internal")));
    Site destination = live.destination();
    DataSize blockSize = nodes.blockSize(live.blockSize());
    return new LiveInputs(live.workload(), live.source(),
        new Site(destination.nodes(), destination.external(), destination.internal(),
            nodes.replication(destination.replication())),
        blockSize, live.notes());
  }

  private boolean given(String option) {
    return spec.commandLine().getParseResult() != null
        && spec.commandLine().getParseResult().hasMatchedOption(option);
  }
}
