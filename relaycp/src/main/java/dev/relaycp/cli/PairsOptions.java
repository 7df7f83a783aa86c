package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.Constraints;
import dev.relaycp.plan.Objective;
import dev.relaycp.plan.ThroughputHistoryFile;
import dev.relaycp.transfer.CopySettings;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/** {@code --pairs N|auto} and what steers the planner's choice, with their checks. */
public final class PairsOptions {
  static final String MAX_AUTO_PAIRS = "relaycp.copy.max-auto-pairs";
  private static final int DEFAULT_MAX_AUTO_PAIRS = 8;

  @Option(names = "--pairs", paramLabel = "auto|N",
      description = "Start relay pairs on this machine for this copy: N of them, or 'auto' for"
          + " as many as the planner chooses (relaycp model; see --objective). With a spawn"
          + " backend, 'auto' chooses the spawned pairs.")
  String pairs;

  @Option(names = "--objective", paramLabel = "OBJECTIVE",
      description = "With --pairs auto: fastest (within --budget), cheapest (within --deadline)"
          + " or balanced (default).")
  String objective;

  @Option(names = "--budget", paramLabel = "DOLLARS",
      description = "With --pairs auto: most dollars to spend.")
  Double budget;

  @Option(names = "--deadline", paramLabel = "SECONDS",
      description = "With --pairs auto: most seconds the copy may take.")
  Double deadline;

  @Option(names = "--src-datanodes", paramLabel = "N",
      description = "With --pairs auto: the source's datanodes, if the NameNode does not report them.")
  Integer sourceDatanodes;

  @Option(names = "--dst-datanodes", paramLabel = "N",
      description = "With --pairs auto: the destination's datanodes, if the NameNode does not"
          + " report them to this user (the report needs the HDFS superuser).")
  Integer destinationDatanodes;

  boolean auto() {
    return "auto".equalsIgnoreCase(pairs);
  }

  /** The N of --pairs N, or 0 when absent or not a number. */
  int fixed() {
    if (pairs == null) {
      return 0;
    }
    try {
      return Integer.parseInt(pairs.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  void check(Configuration configuration) {
    if (pairs != null && !auto() && fixed() < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--pairs '" + pairs + "' is neither auto nor a number of 1 or more; e.g. --pairs 2");
    }
    if (!auto() && (objective != null || budget != null || deadline != null
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
    if (configuration.getInt(MAX_AUTO_PAIRS, DEFAULT_MAX_AUTO_PAIRS) < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          MAX_AUTO_PAIRS + " must be 1 or more; fix it in relaycp-site.xml or -D");
    }
  }

  /** With --pairs auto, the planner's choice; for spawned pairs when {@code spawning}. */
  Optional<AutoPairs> choose(CopySettings settings, Configuration configuration,
      Path historyFile, Optional<AutoPairs.Spawning> spawning) {
    if (!auto()) {
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
            destinationDatanodes == null ? OptionalInt.empty()
                : OptionalInt.of(destinationDatanodes),
            ThroughputHistoryFile.loadIfPresent(historyFile), constraints,
            configuration.getInt(MAX_AUTO_PAIRS, DEFAULT_MAX_AUTO_PAIRS),
            settings.blocksPerChunk(), RelayKeys.PARALLEL_STREAMS.intFrom(configuration),
            spawning)));
  }

  /** The JSON summary's {@code plan}. */
  static Map<String, Object> summary(AutoPairs choice) {
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
}
