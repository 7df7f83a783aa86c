package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;
import java.util.Locale;

/** What the choice of p optimizes. */
public enum Objective {
  /** The least time whose dollars fit the budget. */
  FASTEST,
  /** The least money whose seconds meet the deadline. */
  CHEAPEST,
  /** The knee: the fewest pairs beyond which each added pair saves less than a set fraction. */
  BALANCED;

  /** The objective named by {@code text} in any case; another name is INVALID_ARGUMENT. */
  public static Objective parse(String text) {
    try {
      return valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "unknown --objective '" + text + "'; use fastest, cheapest or balanced");
    }
  }
}
