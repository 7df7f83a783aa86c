package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.util.OptionalDouble;

/**
 * How to choose p: the objective, an optional budget (dollars) and deadline (seconds), the knee
 * fraction of {@link Objective#BALANCED} (one more pair must save at least this fraction of the
 * time), and the relative spread (standard deviation over mean) of a VM's WAN rate that
 * pre-testing exploits (the thesis saw up to 15% between attempts without pre-testing, §6.1.3).
 */
public record Constraints(
    Objective objective,
    OptionalDouble budgetDollars,
    OptionalDouble deadlineSeconds,
    double kneeFraction,
    double externalSpread) {

  public static final double DEFAULT_KNEE_FRACTION = 0.05;
  public static final double DEFAULT_EXTERNAL_SPREAD = 0.10;

  public Constraints {
    requireNonNull(objective, "objective is null");
    requireNonNull(budgetDollars, "budgetDollars is null");
    requireNonNull(deadlineSeconds, "deadlineSeconds is null");
    if (budgetDollars.isPresent() && !(budgetDollars.getAsDouble() >= 0)) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "--budget " + budgetDollars.getAsDouble() + " is negative; give dollars of 0 or more");
    }
    if (deadlineSeconds.isPresent() && !(deadlineSeconds.getAsDouble() > 0)) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "--deadline " + deadlineSeconds.getAsDouble() + " s is not positive; give seconds above 0");
    }
    if (!(kneeFraction > 0 && kneeFraction < 1)) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "--knee " + kneeFraction + " is not between 0 and 1; e.g. 0.05 for 5%");
    }
    if (!(externalSpread >= 0 && externalSpread < 1)) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "--wan-spread " + externalSpread + " is not between 0 and 1; e.g. 0.10");
    }
  }

  public static Constraints of(Objective objective) {
    return new Constraints(
        objective, OptionalDouble.empty(), OptionalDouble.empty(), DEFAULT_KNEE_FRACTION, DEFAULT_EXTERNAL_SPREAD);
  }

  public Constraints withBudget(double dollars) {
    return new Constraints(objective, OptionalDouble.of(dollars), deadlineSeconds, kneeFraction, externalSpread);
  }

  public Constraints withDeadline(double seconds) {
    return new Constraints(objective, budgetDollars, OptionalDouble.of(seconds), kneeFraction, externalSpread);
  }
}
