package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.AutoPairs;
import dev.relaycp.plan.Constraints;
import dev.relaycp.plan.CopyOverheads;
import dev.relaycp.plan.DataSize;
import dev.relaycp.plan.ThroughputHistory;
import dev.relaycp.transfer.CopySettings;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code --pairs N|auto} and what steers the planner's choice, with their checks. */
public final class PairsOptions {

  @Option(names = "--pairs", paramLabel = "auto|N",
      description = "Start relay pairs on this machine for this copy: N of them, or 'auto' for"
          + " as many as the planner chooses (relaycp model; see --objective). With a spawn"
          + " backend, 'auto' chooses the spawned pairs.")
  String pairs;

  @Mixin ObjectiveOptions objective = new ObjectiveOptions();

  @Mixin DatanodeOptions datanodes = new DatanodeOptions();

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
    if (!auto() && (objective.given() || datanodes.given())) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--objective, --budget, --deadline, --src-datanodes and --dst-datanodes steer"
              + " --pairs auto; add --pairs auto or drop them");
    }
    objective.objective();
    datanodes.source();
    datanodes.destination();
    RelayKeys.COPY_MAX_AUTO_PAIRS.from(configuration);
  }

  /**
   * With --pairs auto, the planner's choice, made when the copy has listed its source (read
   * through {@code opener}); for spawned pairs when {@code spawning}, with the start of relay
   * containers when {@code yarnRelays}. {@code announce} hears what was chosen.
   */
  Optional<PairsChoice> choice(CopySettings settings, Configuration configuration,
      FileSystemOpener opener, ThroughputHistory history,
      Optional<AutoPairs.Spawning> spawning, boolean yarnRelays, Consumer<String> announce) {
    if (!auto()) {
      return Optional.empty();
    }
    Constraints constraints = objective.constraints(Constraints.DEFAULT_KNEE_FRACTION,
        Constraints.DEFAULT_EXTERNAL_SPREAD);
    AutoPairs.Request request = new AutoPairs.Request(settings.source(), settings.destination(),
        datanodes.source(), datanodes.destination(), history, constraints,
        RelayKeys.COPY_MAX_AUTO_PAIRS.intFrom(configuration),
        settings.blocksPerChunk(), RelayKeys.PARALLEL_STREAMS.intFrom(configuration),
        spawning, settings.compress()
            ? OptionalInt.of(RelayKeys.DATA_FRAME_BYTES.intFrom(configuration))
            : OptionalInt.empty(),
        CopyOverheads.defaults(yarnRelays), settings.chunksInFlightPerRoute(),
        DataSize.ofBytes(settings.bytesInFlightPerRoute()));
    return Optional.of(PairsChoice.of(tree -> AutoPairs.choose(opener, request, tree),
        AutoPairs.fewestPairs(spawning), announce));
  }
}
