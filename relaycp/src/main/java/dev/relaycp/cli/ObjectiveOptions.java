package dev.relaycp.cli;

import dev.relaycp.plan.Constraints;
import dev.relaycp.plan.Objective;
import java.util.OptionalDouble;
import picocli.CommandLine.Option;

/** {@code --objective}, {@code --budget} and {@code --deadline}: what the choice of p seeks. */
public final class ObjectiveOptions {
  @Option(names = "--objective", paramLabel = "OBJECTIVE",
      description = "fastest (within --budget), cheapest (within --deadline) or balanced: the"
          + " knee (default).")
  String objective;

  @Option(names = "--budget", paramLabel = "DOLLARS", description = "Most dollars to spend.")
  Double budget;

  @Option(names = "--deadline", paramLabel = "SECONDS",
      description = "Most seconds the copy may take.")
  Double deadline;

  /** Whether any of these options was given. */
  public boolean given() {
    return objective != null || budget != null || deadline != null;
  }

  /** The objective, balanced when not given; an unknown one is INVALID_ARGUMENT. */
  public Objective objective() {
    return objective == null ? Objective.BALANCED : Objective.parse(objective);
  }

  /** The constraints these options give, with the knee and spread of the WAN rate. */
  public Constraints constraints(double kneeFraction, double externalSpread) {
    return new Constraints(objective(),
        budget == null ? OptionalDouble.empty() : OptionalDouble.of(budget),
        deadline == null ? OptionalDouble.empty() : OptionalDouble.of(deadline),
        kneeFraction, externalSpread);
  }
}
