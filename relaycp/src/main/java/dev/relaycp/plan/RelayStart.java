package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;

/**
 * The datanode relays' start, from the listing's end until they serve: nothing for relays that
 * already run (started by hand, {@link #NONE}); for relays a provisioner starts for the copy
 * (YARN containers), {@code launchSeconds} that wait on no CPU of the copy's hosts (the
 * application's submission, the containers' allocation and launch, the first handshakes) and
 * then {@code cpuSeconds} of CPU each relay's JVM spends before it serves.
 *
 * <p>On hosts with cores of their own each relay starts on its node's core, in {@code
 * cpuSeconds}. On {@link SharedCores} the relays of both sites start at once on the shared
 * cores, beside the spawned relays' JVMs, which start at the copy's request, so from the same
 * moment: the cores are shared evenly among the JVMs starting, each on at most one core, and
 * every spawned pair delays the datanode routes. In the WAN lab the relays phase of L, M and S
 * grew from 7.7-11.7 s at k = 0 to 15.6-26.4 s at k = 6
 * ({@code bench/results/lab-2026-11-28-full-yarn-overlap}, {@code
 * lab-2026-11-27-dynamic-archive}).
 */
public record RelayStart(double launchSeconds, double cpuSeconds) {
  /** Relays that already run when the copy starts. */
  public static final RelayStart NONE = new RelayStart(0, 0);

  public RelayStart {
    if (!(launchSeconds >= 0) || Double.isInfinite(launchSeconds)) {
      throw new RelayCpException(INVALID_ARGUMENT, "the relays' launch of " + launchSeconds
          + " s must be a finite time of 0 or more (0: relays that already run)");
    }
    if (!(cpuSeconds >= 0) || Double.isInfinite(cpuSeconds)) {
      throw new RelayCpException(INVALID_ARGUMENT, "a relay's start of " + cpuSeconds
          + " CPU seconds must be a finite number of 0 or more (0: relays that already run)");
    }
  }

  /**
   * The relays phase: seconds from the listing's end until the datanode relays serve, and the
   * CPU seconds each spawned relay has spent on its own start by then (on shared cores; 0
   * elsewhere, where a spawned VM starts its relay on its own cores within its boot).
   */
  public record Phase(double seconds, double spawnedStartCpuDone) {}

  /**
   * The relays phase of {@code datanodeRelays} relays (both sites) starting beside {@code
   * spawnedRelays} spawned relays' JVMs on {@code cores}.
   */
  public Phase phase(int datanodeRelays, int spawnedRelays, SharedCores cores) {
    requireNonNull(cores, "cores is null");
    if (datanodeRelays < 0 || spawnedRelays < 0) {
      throw new IllegalArgumentException(
          datanodeRelays + " datanode relays and " + spawnedRelays + " spawned relays");
    }
    if (cores.cores() == 0) {
      return new Phase(launchSeconds + cpuSeconds, 0);
    }
    double spawnedLeft = spawnedRelays == 0 ? 0 : cores.spawnedStartCpuSeconds();
    double datanodeLeft = datanodeRelays == 0 ? 0 : cpuSeconds;
    double now = 0;
    // Processor sharing between two groups of equal JVMs: until the launch only the spawned
    // ones run, then both; each group's JVMs progress alike, so a few steps settle it.
    while (datanodeLeft > 0 || now < launchSeconds) {
      boolean launched = now >= launchSeconds;
      int running = (spawnedLeft > 0 ? spawnedRelays : 0) + (launched ? datanodeRelays : 0);
      if (running == 0) {
        now = launchSeconds;
        continue;
      }
      double rate = Math.min(1, cores.cores() / running);
      double step = launched ? datanodeLeft / rate : launchSeconds - now;
      if (spawnedLeft > 0) {
        step = Math.min(step, spawnedLeft / rate);
        spawnedLeft = settled(spawnedLeft - rate * step);
      }
      if (launched) {
        datanodeLeft = settled(datanodeLeft - rate * step);
      }
      now += step;
    }
    double done = spawnedRelays == 0 ? 0 : cores.spawnedStartCpuSeconds() - spawnedLeft;
    return new Phase(now, done);
  }

  /** CPU seconds left, with what rounding leaves of a finished start taken as none. */
  private static double settled(double left) {
    return left < 1e-9 ? 0 : left;
  }
}
