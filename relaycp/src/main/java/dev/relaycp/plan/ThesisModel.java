package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;

/**
 * The CPT thesis's equations (Boey, 2019, chapters 3-5), reproduced as printed. Sizes and
 * rates are in any consistent unit: the thesis's "MB" is a mebibyte (8 GB = 8192 MB), which
 * {@link DataSize} and {@link DataRate} keep exact. All intermediate nodes are assumed alike
 * and paired one to one, as the thesis assumes.
 *
 * <p>As an estimate for a {@link PlanInput}: {@code p = 0} is the sequential copy (T_sq = s / v_e
 * of the nodes, C_sq = s · C_eg); {@code p > 0} uses the spawned machine type's boot time
 * (T_v), external rate (v_e) and price (C_v), and for v_i the lesser of the nodes' and the
 * machine's internal rate (Table 4.2: a transfer between two types runs at the smaller).
 */
public record ThesisModel() implements CopyModel {
  @Override
  public String name() {
    return "thesis";
  }

  /** §4.2: T_sq = s / v_e. */
  public static double sequentialSeconds(DataSize size, DataRate external) {
    return external.secondsFor(size);
  }

  /** Eq. 3.2 (basic CPT): T_v + s/v_s + s/v_i + (s/p)/v_e + s/v_i + s/v_s. */
  public static double basicSeconds(
      DataSize size, int pairs, double setupSeconds, DataRate split, DataRate internal, DataRate external) {
    requirePairs(pairs);
    double s = size.bytes();
    return setupSeconds
        + s / split.bytesPerSecond()
        + s / internal.bytesPerSecond()
        + (s / pairs) / external.bytesPerSecond()
        + s / internal.bytesPerSecond()
        + s / split.bytesPerSecond();
  }

  /** Eq. 3.3 (pipelined): max(T_v, s/v_s) + (s/p)/v_i + (s/p)/v_e + (s/p)/v_i + s/v_s. */
  public static double pipelinedSeconds(
      DataSize size, int pairs, double setupSeconds, DataRate split, DataRate internal, DataRate external) {
    requirePairs(pairs);
    double s = size.bytes();
    return Math.max(setupSeconds, s / split.bytesPerSecond())
        + (s / pairs) / internal.bytesPerSecond()
        + (s / pairs) / external.bytesPerSecond()
        + (s / pairs) / internal.bytesPerSecond()
        + s / split.bytesPerSecond();
  }

  /** Eq. 3.4 (pipelined, network data piping): T_v + 2s/v_i + (s/p)/v_e. */
  public static double pipedSeconds(
      DataSize size, int pairs, double setupSeconds, DataRate internal, DataRate external) {
    requirePairs(pairs);
    double s = size.bytes();
    return setupSeconds + 2 * s / internal.bytesPerSecond() + (s / pairs) / external.bytesPerSecond();
  }

  /** Eq. 5.1 (HDFS): T_E + T_CPT + T_I, with T_E = s / export rate and T_I = s / import rate. */
  public static double hdfsSeconds(
      DataSize size, double cptSeconds, DataRate exportRate, DataRate importRate) {
    return exportRate.secondsFor(size) + cptSeconds + importRate.secondsFor(size);
  }

  /** Eq. 4.1: T_CPT+ = T_pt + T_CPT. */
  public static double pretestedSeconds(double pretestSeconds, double cptSeconds) {
    return pretestSeconds + cptSeconds;
  }

  /** Eq. 3.5: C_sq = s · C_eg. */
  public static double sequentialDollars(DataSize size, Pricing pricing) {
    return pricing.egressDollars(size);
  }

  /** Eqs. 3.6-3.7: C_CPT = T_CPT · n · C_v + C_sq with n = 2p, C_v billed per second. */
  public static double cptDollars(
      double cptSeconds, int pairs, double dollarsPerHour, DataSize size, Pricing pricing) {
    return cptSeconds * 2 * pairs * dollarsPerHour / 3600 + sequentialDollars(size, pricing);
  }

  /** Eq. 4.2: C_CPT+ = n · C_v · (T_CPT + 2 T_pt) + C_sq with n = 2p. */
  public static double pretestedDollars(
      double cptSeconds, double pretestSeconds, int pairs, double dollarsPerHour, DataSize size,
      Pricing pricing) {
    return 2 * pairs * dollarsPerHour / 3600 * (cptSeconds + 2 * pretestSeconds)
        + sequentialDollars(size, pricing);
  }

  @Override
  public Estimate estimate(PlanInput input, int pairs) {
    DataSize size = input.workload().totalSize();
    if (pairs == 0) {
      return new Estimate(
          0, 0, input.sequentialSeconds(), sequentialDollars(size, input.pricing()));
    }
    double seconds = cptSeconds(input, pairs, input.machine().external());
    return new Estimate(
        pairs,
        2 * pairs,
        seconds,
        cptDollars(seconds, pairs, input.machine().dollarsPerHour(), size, input.pricing()));
  }

  /**
   * T_CPT for the input's variant at WAN rate {@code external} per intermediate node: the
   * pre-testing advice evaluates it again at the rate the better half of the VMs reach.
   */
  public static double cptSeconds(PlanInput input, int pairs, DataRate external) {
    DataSize size = input.workload().totalSize();
    MachineType machine = input.machine();
    ThesisSettings settings = input.thesis();
    DataRate internal =
        DataRate.min(
            DataRate.min(input.source().internal(), input.destination().internal()),
            machine.internal());
    double setup = machine.bootSeconds();
    switch (settings.variant()) {
      case BASIC:
        return basicSeconds(size, pairs, setup, settings.splitRate(), internal, external);
      case PIPELINED:
        return pipelinedSeconds(size, pairs, setup, settings.splitRate(), internal, external);
      case PIPED:
        return pipedSeconds(size, pairs, setup, internal, external);
      case HDFS:
        return hdfsSeconds(
            size,
            pipedSeconds(size, pairs, setup, internal, external),
            settings.exportRate(),
            settings.importRate());
      default:
        throw new IllegalStateException("unknown variant " + settings.variant());
    }
  }

  private static void requirePairs(int pairs) {
    if (pairs < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "the thesis's CPT equations need at least 1 pair, got " + pairs + "; use p = 0 for T_sq");
    }
  }
}
