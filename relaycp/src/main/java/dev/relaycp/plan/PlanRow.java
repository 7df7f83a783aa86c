package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

/**
 * One row of a plan: a model's estimate for p pairs on {@code machineType}, and its speedup
 * over DistCp on the same clusters and over a one-node copy (greater than 1 is faster).
 */
public record PlanRow(
    Estimate estimate, String machineType, double speedupVersusDistcp, double speedupVersusSequential) {
  public PlanRow {
    requireNonNull(estimate, "estimate is null");
    requireNonNull(machineType, "machineType is null");
  }

  public int pairs() {
    return estimate.pairs();
  }

  public double seconds() {
    return estimate.seconds();
  }

  public double dollars() {
    return estimate.dollars();
  }
}
