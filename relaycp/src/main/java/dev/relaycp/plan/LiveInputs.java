package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.plan.ThroughputHistory.Direction;
import dev.relaycp.transfer.BlockPlacement;
import dev.relaycp.transfer.ClusterSurvey;
import dev.relaycp.transfer.SourceFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The planner's view of a live copy: the surveyed source's file sizes, and each site's datanode
 * count and per-node rates. A rate comes from the flag when the user gave it, else from the
 * throughput history (the mean over the site's datanodes that were measured), else from the
 * flag's default. The notes say, for every figure, where it came from.
 *
 * @param workload the source's files in listing order
 * @param source the source site
 * @param destination the destination site
 * @param blockSize the largest block size among the source's files
 * @param notes one line per figure, saying which are measured and which are not
 */
public record LiveInputs(
    Workload workload, Site source, Site destination, DataSize blockSize, List<String> notes) {

  /** A rate flag's value, and whether the user gave it (else it is the default). */
  public record RateFlag(String name, DataRate value, boolean given) {
    public RateFlag {
      requireNonNull(name, "name is null");
      requireNonNull(value, "value is null");
    }
  }

  public LiveInputs {
    requireNonNull(workload, "workload is null");
    requireNonNull(source, "source is null");
    requireNonNull(destination, "destination is null");
    requireNonNull(blockSize, "blockSize is null");
    notes = List.copyOf(requireNonNull(notes, "notes is null"));
  }

  public static LiveInputs of(ClusterSurvey survey, ThroughputHistory history, RateFlag external,
      RateFlag internal) {
    requireNonNull(survey, "survey is null");
    requireNonNull(history, "history is null");
    List<SourceFile> files = survey.tree().files();
    if (files.isEmpty()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "the source has no files, so there is nothing to plan; check SRC");
    }
    Workload workload = Workload.ofSizes(
        files.stream().map(file -> DataSize.ofBytes(file.length())).toList());
    DataSize blockSize = DataSize.ofBytes(
        files.stream().mapToLong(SourceFile::blockSize).max().orElseThrow());
    List<String> notes = new ArrayList<>();
    Site source = site("source", survey.source(), history, external, internal, notes);
    source = placed(source, files, notes);
    Site destination = site("destination", survey.destination(), history, external, internal,
        notes);
    return new LiveInputs(workload, source, destination, blockSize, notes);
  }

  /**
   * The source with its bytes where the listing's block locations put them; spread evenly when
   * the locations name no datanode or more than the site counts.
   */
  private static Site placed(Site source, List<SourceFile> files, List<String> notes) {
    Map<List<String>, Long> bytes = new LinkedHashMap<>();
    for (SourceFile file : files) {
      for (BlockPlacement block : file.blocks()) {
        List<String> holders = block.hosts().stream().sorted().toList();
        bytes.merge(holders, block.length(), Long::sum);
      }
    }
    Optional<Placement> placement = Placement.ofHolders(bytes, source.nodes());
    if (placement.isEmpty()) {
      notes.add("source bytes: taken as spread evenly over its datanodes (the block locations"
          + " name none, or more datanodes than counted)");
      return source;
    }
    Map<Integer, Double> perNode = new TreeMap<>();
    for (Placement.Group group : placement.get().groups()) {
      for (int holder : group.holders()) {
        perNode.merge(holder, group.share(), Double::sum);
      }
    }
    double most = perNode.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    notes.add(String.format(Locale.ROOT, "source bytes: on %d of %d datanode(s), by the"
        + " listing's block locations; the fullest holds a replica of %.0f%% of them",
        perNode.size(), source.nodes(), 100 * most));
    return source.withPlacement(placement.get());
  }

  private static Site site(String name, ClusterSurvey.Site surveyed, ThroughputHistory history,
      RateFlag external, RateFlag internal, List<String> notes) {
    notes.add(String.format(Locale.ROOT, "%s: %d datanode(s), from %s", name,
        surveyed.datanodes(), surveyed.basis()));
    DataRate wan = rate(name, "WAN", surveyed, Direction.EXTERNAL, history, external, notes);
    DataRate inside = rate(name, "internal", surveyed, Direction.INTERNAL, history, internal,
        notes);
    return new Site(surveyed.datanodes(), wan, inside, surveyed.replication());
  }

  private static DataRate rate(String site, String what, ClusterSurvey.Site surveyed,
      Direction direction, ThroughputHistory history, RateFlag flag, List<String> notes) {
    if (flag.given()) {
      notes.add(String.format(Locale.ROOT, "%s datanodes' %s rate %.2f MiB/s: given by %s",
          site, what, flag.value().mebibytesPerSecond(), flag.name()));
      return flag.value();
    }
    Optional<DataRate> measured = measured(surveyed.hosts(), direction, history);
    if (measured.isPresent()) {
      notes.add(String.format(Locale.ROOT,
          "%s datanodes' %s rate %.2f MiB/s: measured (throughput history of %s)", site, what,
          measured.get().mebibytesPerSecond(), measuredHosts(surveyed.hosts(), direction,
              history)));
      return measured.get();
    }
    notes.add(String.format(Locale.ROOT,
        "%s datanodes' %s rate %.2f MiB/s: not measured, the default of %s (thesis Table 4.3)",
        site, what, flag.value().mebibytesPerSecond(), flag.name()));
    return flag.value();
  }

  /** The mean of the measured rates of {@code hosts}; a host listed by name and address once. */
  public static Optional<DataRate> measured(List<String> hosts, Direction direction,
      ThroughputHistory history) {
    List<String> keys = hosts.stream()
        .map(host -> ThroughputHistory.nodeKey(host, direction))
        .distinct()
        .filter(key -> history.rate(key).isPresent())
        .toList();
    if (keys.isEmpty()) {
      return Optional.empty();
    }
    double sum = keys.stream().mapToDouble(key -> history.rate(key).orElseThrow().bytesPerSecond())
        .sum();
    return Optional.of(DataRate.ofBytesPerSecond(sum / keys.size()));
  }

  private static String measuredHosts(List<String> hosts, Direction direction,
      ThroughputHistory history) {
    return String.join(", ", hosts.stream()
        .filter(host -> history.rate(ThroughputHistory.nodeKey(host, direction)).isPresent())
        .distinct()
        .toList());
  }
}
