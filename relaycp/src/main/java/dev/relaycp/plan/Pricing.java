package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;

/**
 * What the user pays besides spawned VMs. Egress is priced per GiB (2^30 bytes), as AWS bills
 * data transfer and as the thesis counts (8 GB = 8192 MB, $0.16 at $0.02/GB).
 * {@code clusterNodeDollarsPerHour} prices the clusters' own nodes while a copy keeps them busy;
 * 0 means the user does not count them.
 */
public record Pricing(double egressDollarsPerGibibyte, double clusterNodeDollarsPerHour) {
  /** Egress of thesis Table 4.4, with the clusters' own nodes not counted. */
  public static final Pricing DEFAULT = new Pricing(0.02, 0);

  public Pricing {
    if (!(egressDollarsPerGibibyte >= 0) || Double.isInfinite(egressDollarsPerGibibyte)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "egress price " + egressDollarsPerGibibyte + " $/GB is not a finite amount of 0 or more");
    }
    if (!(clusterNodeDollarsPerHour >= 0) || Double.isInfinite(clusterNodeDollarsPerHour)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "node price " + clusterNodeDollarsPerHour + " $/h is not a finite amount of 0 or more");
    }
  }

  /** Egress for moving {@code size} once across the WAN (eq. 3.5 of the thesis). */
  public double egressDollars(DataSize size) {
    return size.gibibytes() * egressDollarsPerGibibyte;
  }
}
