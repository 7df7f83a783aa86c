package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INTERNAL_ERROR;

import dev.relaycp.error.RelayCpException;

/**
 * One model's prediction for {@code pairs} relay pairs: {@code relaysStarted} VMs spawned for
 * it, the seconds from start to a verified copy, and the dollars (VMs and egress).
 */
public record Estimate(int pairs, int relaysStarted, double seconds, double dollars) {
  public Estimate {
    if (pairs < 0 || relaysStarted < 0) {
      throw new RelayCpException(
          INTERNAL_ERROR, "estimate for " + pairs + " pairs with " + relaysStarted + " relays");
    }
    if (!(seconds >= 0) || !(dollars >= 0)) {
      throw new RelayCpException(
          INTERNAL_ERROR,
          "estimate for " + pairs + " pairs has " + seconds + " s and " + dollars + " $");
    }
  }
}
