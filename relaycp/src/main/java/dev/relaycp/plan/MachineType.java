package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.util.Locale;

/**
 * A kind of VM that can be spawned as a relay: one row of the relay catalog. Throughputs are
 * per VM; {@code bootSeconds} runs from the request to a relay that accepts streams. A VM is
 * billed per started {@code billingGranularitySeconds}, and never for less than {@code
 * billingMinimumSeconds}. {@code source} says where the figures came from.
 */
public record MachineType(
    String provider,
    String region,
    String name,
    double dollarsPerHour,
    DataRate external,
    DataRate internal,
    double bootSeconds,
    double billingGranularitySeconds,
    double billingMinimumSeconds,
    String source) {

  public MachineType {
    requireNonNull(provider, "provider is null");
    requireNonNull(region, "region is null");
    requireNonNull(name, "name is null");
    requireNonNull(external, "external is null");
    requireNonNull(internal, "internal is null");
    requireNonNull(source, "source is null");
    if (name.isBlank()) {
      throw new RelayCpException(INVALID_ARGUMENT, "a machine type has a blank name; name it");
    }
    if (!(dollarsPerHour >= 0) || Double.isInfinite(dollarsPerHour)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "price " + dollarsPerHour + " $/h of " + name + " is not a finite amount of 0 or more");
    }
    if (!(bootSeconds >= 0) || Double.isInfinite(bootSeconds)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "boot time " + bootSeconds + " s of " + name + " is not a finite time of 0 or more");
    }
    if (!(billingGranularitySeconds >= 0) || !(billingMinimumSeconds >= 0)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "billing granularity "
              + billingGranularitySeconds
              + " s or minimum "
              + billingMinimumSeconds
              + " s of "
              + name
              + " is negative; give 0 or more");
    }
  }

  /**
   * The seconds one VM is billed for when it runs {@code runSeconds}: rounded up to the
   * granularity (0 means billed continuously), then raised to the minimum.
   */
  public double billedSeconds(double runSeconds) {
    double billed = runSeconds;
    if (billingGranularitySeconds > 0) {
      billed = Math.ceil(runSeconds / billingGranularitySeconds - 1e-9) * billingGranularitySeconds;
    }
    return Math.max(billed, billingMinimumSeconds);
  }

  /** Dollars for one VM that runs {@code runSeconds}. */
  public double dollarsFor(double runSeconds) {
    return billedSeconds(runSeconds) * dollarsPerHour / 3600;
  }

  /** The rate a relay on this VM can forward: it receives on the internal side, sends on the WAN. */
  public DataRate relayRate() {
    return DataRate.min(external, internal);
  }

  /** WAN MiB/s bought per dollar per hour; infinite for a free machine. */
  public double externalMebibytesPerSecondPerDollarHour() {
    return dollarsPerHour == 0
        ? Double.POSITIVE_INFINITY
        : external.mebibytesPerSecond() / dollarsPerHour;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT, "%s/%s/%s (%.4f $/h, WAN %s, internal %s, boot %.0f s)",
        provider, region, name, dollarsPerHour, external, internal, bootSeconds);
  }
}
