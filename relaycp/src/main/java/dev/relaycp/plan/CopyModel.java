package dev.relaycp.plan;

/** A prediction of time and money for a copy, as a pure function of its input. */
public interface CopyModel {
  /** The name users give with {@code --model}. */
  String name();

  /** Seconds and dollars for copying {@code input} with {@code pairs} spawned relay pairs. */
  Estimate estimate(PlanInput input, int pairs);
}
