package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a copy's spawned hosts and its WAN bytes actually cost, beside what the plan predicted:
 * each host billed per second with a minimum (EC2's on-demand billing: per second, 60 s at
 * least), at its machine type's price, plus the bytes that crossed the WAN at the egress price.
 */
public record SpawnBill(List<HostCharge> hosts, double hostDollars, long egressBytes,
    double egressDollars) {
  /** EC2 bills Linux instances per second, never less than this. */
  public static final double MINIMUM_BILLED_SECONDS = 60;

  /**
   * One host's charge.
   *
   * @param runSeconds from its request to its release
   * @param billedSeconds what the provider bills for that
   */
  public record HostCharge(String site, String machineType, double dollarsPerHour,
      double runSeconds, double billedSeconds, double dollars) {
    public HostCharge {
      requireNonNull(site, "site is null");
      requireNonNull(machineType, "machineType is null");
    }
  }

  /** A host that ran {@code runSeconds} as {@code machineType} at {@code dollarsPerHour}. */
  public record HostRun(String site, String machineType, double dollarsPerHour,
      double runSeconds) {
    public HostRun {
      requireNonNull(site, "site is null");
      requireNonNull(machineType, "machineType is null");
      if (!(dollarsPerHour >= 0) || !(runSeconds >= 0)) {
        throw new IllegalArgumentException("price and run time must be 0 or more, got "
            + dollarsPerHour + " $/h and " + runSeconds + " s");
      }
    }
  }

  public SpawnBill {
    hosts = List.copyOf(requireNonNull(hosts, "hosts is null"));
  }

  /** The bill for {@code runs} and {@code egressBytes} at {@code pricing}'s egress price. */
  public static SpawnBill of(List<HostRun> runs, long egressBytes, Pricing pricing) {
    requireNonNull(runs, "runs is null");
    requireNonNull(pricing, "pricing is null");
    List<HostCharge> charges = runs.stream().map(run -> {
      double billed = Math.max(MINIMUM_BILLED_SECONDS, Math.ceil(run.runSeconds() - 1e-9));
      return new HostCharge(run.site(), run.machineType(), run.dollarsPerHour(),
          run.runSeconds(), billed, billed * run.dollarsPerHour() / 3600);
    }).toList();
    double hostDollars = charges.stream().mapToDouble(HostCharge::dollars).sum();
    return new SpawnBill(charges, hostDollars, egressBytes,
        pricing.egressDollars(DataSize.ofBytes(egressBytes)));
  }

  public double dollars() {
    return hostDollars + egressDollars;
  }
}
