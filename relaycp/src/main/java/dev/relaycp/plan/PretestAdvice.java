package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

/**
 * Whether pre-testing (thesis §4.3.2: spawn 2p VMs, probe them for {@code pretestSeconds}, keep
 * the best p pairs) is predicted to pay for the chosen p, with the predictions either way and
 * the reason.
 */
public record PretestAdvice(
    boolean pays,
    int pairs,
    double pretestSeconds,
    double secondsWithout,
    double dollarsWithout,
    double secondsWith,
    double dollarsWith,
    String reason) {
  public PretestAdvice {
    requireNonNull(reason, "reason is null");
  }
}
