package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers of relay pairs a plan considers, {@code first} to {@code last}; the planner checks
 * that they are in order and not negative.
 *
 * @param first the fewest pairs
 * @param last the most pairs
 */
public record PairRange(int first, int last) {
  private static final Pattern TEXT = Pattern.compile("\\s*(\\d+)\\s*(?:-\\s*(\\d+)\\s*)?");

  /** Parses {@code P} (one number) or {@code P0-P1} as {@code --pairs} takes them. */
  public static PairRange parse(String text) {
    Matcher matcher = TEXT.matcher(text);
    if (!matcher.matches()) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "cannot read --pairs '" + text + "'; give a number or a range such as 0-8");
    }
    int first = Integer.parseInt(matcher.group(1));
    int last = matcher.group(2) == null ? first : Integer.parseInt(matcher.group(2));
    return new PairRange(first, last);
  }
}
