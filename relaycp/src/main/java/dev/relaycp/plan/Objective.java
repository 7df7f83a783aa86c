package dev.relaycp.plan;

/** What the choice of p optimizes. */
public enum Objective {
  /** The least time whose dollars fit the budget. */
  FASTEST,
  /** The least money whose seconds meet the deadline. */
  CHEAPEST,
  /** The knee: the fewest pairs beyond which each added pair saves less than a set fraction. */
  BALANCED
}
