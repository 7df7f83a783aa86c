package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.ThroughputHistory.Direction;
import dev.relaycp.transfer.ClusterSurvey;
import dev.relaycp.transfer.CompressionSample;
import dev.relaycp.transfer.SourceTree;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code copy --pairs auto}: how many local relay pairs to start, chosen by the relaycp model
 * over p = 1..max (a copy always has at least one route) from the source's listing, the
 * clusters' datanode counts and the throughput history.
 *
 * <p>Local relays are processes on this machine: they cost nothing, boot in about {@value
 * #LOCAL_BOOT_SECONDS} s, and send at this machine's measured rate ({@code node/127.0.0.1} in
 * the history) or, unmeasured, at the source datanodes' rate. The model also counts a relay on
 * every source datanode, which the local provisioner does not start, so its times are a lower
 * bound; it ranks the choices of p, it does not promise their seconds.
 *
 * @param pairs how many pairs to start
 * @param plan the plan the choice came from
 * @param notes where each figure came from
 */
public record AutoPairs(int pairs, Plan plan, List<String> notes) {
  static final double LOCAL_BOOT_SECONDS = 2;
  static final String LOOPBACK = "127.0.0.1";

  public AutoPairs {
    requireNonNull(plan, "plan is null");
    notes = List.copyOf(requireNonNull(notes, "notes is null"));
  }

  /**
   * Spawned relays, when the pairs are spawned beside the datanode relays rather than started
   * here: the machine type they run on (a catalog row), or, for hosts a command starts, one
   * sending at the source datanodes' rate that boots in {@code bootSeconds} and costs {@code
   * dollarsPerHour}.
   */
  public record Spawning(Optional<MachineType> machine, double bootSeconds, double dollarsPerHour,
      boolean besideDatanodeRelays) {
    public Spawning {
      requireNonNull(machine, "machine is null");
    }
  }

  /**
   * What the choice depends on besides the clusters; each given once, by the copy command.
   * {@code overheads} are the copy's fixed costs, as {@link CopyOverheads#defaults} gives them
   * for the way the copy gets its datanode relays; {@code chunksInFlightPerRoute} and {@code
   * bytesInFlightPerRoute} its route window, as configured.
   */
  public record Request(URI source, URI destination, OptionalInt sourceDatanodes,
      OptionalInt destinationDatanodes, ThroughputHistory history, Constraints constraints,
      int maximumPairs, int blocksPerChunk, int streamsPerRelay, Optional<Spawning> spawning,
      OptionalInt compressFrameBytes, CopyOverheads overheads, int chunksInFlightPerRoute,
      DataSize bytesInFlightPerRoute) {
    public Request {
      requireNonNull(bytesInFlightPerRoute, "bytesInFlightPerRoute is null");
      requireNonNull(overheads, "overheads is null");
      requireNonNull(compressFrameBytes, "compressFrameBytes is null");
      requireNonNull(spawning, "spawning is null");
      requireNonNull(source, "source is null");
      requireNonNull(destination, "destination is null");
      requireNonNull(sourceDatanodes, "sourceDatanodes is null");
      requireNonNull(destinationDatanodes, "destinationDatanodes is null");
      requireNonNull(history, "history is null");
      requireNonNull(constraints, "constraints is null");
    }
  }

  /**
   * The fewest pairs a copy may start: none when spawned pairs join the datanode relays (which
   * copy on their own), else one, as a copy needs a route.
   */
  public static int fewestPairs(Optional<Spawning> spawning) {
    requireNonNull(spawning, "spawning is null");
    return spawning.map(Spawning::besideDatanodeRelays).orElse(false) ? 0 : 1;
  }

  /**
   * The pairs to start for the copy of {@code tree}, the source as the copy listed it: the
   * files it will send.
   */
  public static AutoPairs choose(FileSystemOpener opener, Request request, SourceTree tree) {
    requireNonNull(opener, "opener is null");
    requireNonNull(request, "request is null");
    requireNonNull(tree, "tree is null");
    ClusterSurvey survey = ClusterSurvey.ofListed(opener, tree, request.source(),
        request.destination(), request.sourceDatanodes(), request.destinationDatanodes());
    LiveInputs live = LiveInputs.of(survey, request.history(),
        new LiveInputs.RateFlag("relaycp plan --external", Site.DEFAULT_NODE_EXTERNAL, false),
        new LiveInputs.RateFlag("relaycp plan --internal", Site.DEFAULT_NODE_INTERNAL, false));
    List<String> notes = new ArrayList<>();
    notes.add(String.format(Locale.ROOT, "work: %d file(s), %d bytes, the copy's to send (not"
        + " those --update finds equal or an earlier run committed)", tree.files().size(),
        tree.totalBytes()));
    notes.addAll(live.notes());
    Optional<DataRate> measuredHere =
        LiveInputs.measured(List.of(LOOPBACK), Direction.EXTERNAL, request.history());
    DataRate relayRate = measuredHere.orElse(live.source().external());
    if (request.spawning().isEmpty()) {
      notes.add(String.format(Locale.ROOT, "local relays' rate %.2f MiB/s: %s",
          relayRate.mebibytesPerSecond(),
          measuredHere.isPresent() ? "measured (throughput history of " + LOOPBACK + ")"
              : "not measured, taken to be the source datanodes'"));
    }
    MachineType local = new MachineType("local", "-", "local-relay", 0, relayRate,
        DataRate.ofMebibytesPerSecond(Math.max(relayRate.mebibytesPerSecond(),
            live.source().internal().mebibytesPerSecond())),
        LOCAL_BOOT_SECONDS, 1, 0, "relay processes on this machine");
    DataSize chunk = DataSize.ofBytes(
        Math.multiplyExact(live.blockSize().bytes(), (long) request.blocksPerChunk()));
    DistcpSettings distcp = DistcpSettings.DEFAULT;
    double compressionRatio = 1;
    if (request.compressFrameBytes().isPresent()) {
      CompressionSample sample = CompressionSample.of(opener.open(request.source()),
          survey.tree(), request.compressFrameBytes().getAsInt());
      compressionRatio = sample.ratio();
      notes.add(String.format(Locale.ROOT, "--compress: %.2f file bytes per byte on the wire,"
          + " sampled from %d files (%d bytes)", compressionRatio, sample.files(),
          sample.bytes()));
    }
    PlanInput input = new PlanInput(live.workload(), live.source(), live.destination(), local,
        Pricing.DEFAULT,
        new RelaycpSettings(chunk, request.streamsPerRelay(), request.overheads())
            .withRouteWindow(request.chunksInFlightPerRoute(), request.bytesInFlightPerRoute())
            .withCompressionRatio(compressionRatio),
        new DistcpSettings(distcp.maxMaps(), distcp.slotsPerNode(), distcp.jobStartSeconds(),
            distcp.taskStartSeconds(), distcp.perFileSeconds(), distcp.blocksPerChunk(),
            live.blockSize()),
        ThesisSettings.DEFAULT);
    if (request.spawning().isPresent()) {
      Spawning spawning = request.spawning().get();
      MachineType spawned = spawning.machine().orElseGet(() -> new MachineType("exec", "-",
          "spawned-host", spawning.dollarsPerHour(), live.source().external(),
          live.source().internal(), spawning.bootSeconds(), 1, 60,
          "hosts --spawn-command starts: the source datanodes' rates, relaycp.spawn.*"));
      notes.add("spawned relays on " + spawned.provider() + "/" + spawned.name() + ": "
          + spawned.source());
      input = new PlanInput(input.workload(), input.source(), input.destination(), spawned,
          input.pricing(), input.relaycp(), input.distcp(), input.thesis());
      int fewest = fewestPairs(request.spawning());
      Plan plan = Planner.plan(input, Planner.model("relaycp"), fewest, request.maximumPairs(),
          request.constraints());
      return new AutoPairs(Math.max(fewest, plan.chosen().pairs()), plan.withNotes(notes),
          notes);
    }
    Plan plan = Planner.plan(input, Planner.model("relaycp"), 1, request.maximumPairs(),
        request.constraints());
    return new AutoPairs(Math.max(1, plan.chosen().pairs()), plan.withNotes(notes), notes);
  }
}
