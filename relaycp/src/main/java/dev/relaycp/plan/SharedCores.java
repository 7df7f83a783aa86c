package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;

/**
 * Hosts that run on the same {@code cores}, as in the WAN lab, where every host of both sites
 * and every spawned relay is a namespace on one machine. There a spawned relay's JVM is not on
 * a VM of its own: it spends {@code spawnedCpuSeconds} of the copy's cores (its start, its
 * warm-up while its first files go through, its host's set-up, the driver's share of it), of
 * which it serves after {@code spawnedStartCpuSeconds}, and the file work does without that
 * CPU. On a cloud each spawned VM brings its own cores and its start is in its boot time:
 * {@link #NONE}.
 */
public record SharedCores(double cores, double spawnedCpuSeconds, double spawnedStartCpuSeconds) {
  /** Hosts with cores of their own. */
  public static final SharedCores NONE = new SharedCores(0, 0, 0);

  public SharedCores {
    if (!(cores >= 0) || Double.isInfinite(cores)) {
      throw new RelayCpException(INVALID_ARGUMENT, "shared cores " + cores
          + " must be a finite number of 0 or more (0: every host has cores of its own)");
    }
    if (!(spawnedCpuSeconds >= 0) || Double.isInfinite(spawnedCpuSeconds)) {
      throw new RelayCpException(INVALID_ARGUMENT, "a spawned relay's CPU seconds "
          + spawnedCpuSeconds + " must be a finite number of 0 or more");
    }
    if (!(spawnedStartCpuSeconds >= 0) || spawnedStartCpuSeconds > spawnedCpuSeconds) {
      throw new RelayCpException(INVALID_ARGUMENT, "a spawned relay's start of "
          + spawnedStartCpuSeconds + " CPU seconds must be 0 or more and within its "
          + spawnedCpuSeconds + " CPU seconds in all");
    }
  }
}
