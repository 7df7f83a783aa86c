package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;

/**
 * Hosts that run on the same {@code cores}, as in the WAN lab, where every host of both sites
 * and every spawned relay is a namespace on one machine. There the copy's work is CPU on those
 * cores, and more relays do not bring more of it:
 *
 * <ul>
 *   <li>Every byte copied costs {@code cpuSecondsPerByte} of them, summed over every process
 *       that touches it (the relays' TLS, checksums and copies, the datanodes' reads and
 *       writes, the driver); the bytes ask for that CPU beside the file work.
 *   <li>A spawned relay's JVM is not on a VM of its own: it spends {@code spawnedCpuSeconds} of
 *       the copy's cores, of which it serves after {@code spawnedStartCpuSeconds} (its JVM's
 *       start). The rest is its warm-up (its interpreter and JIT on the per-file work, the
 *       driver's share of a new route), measured over {@code spawnedCpuFiles} files a route and
 *       paid on a spawned route's first that many files: a route that carries fewer (it joined
 *       late, or the copy is a few large files) warms up that much less. 0: every copy pays all
 *       of it.
 * </ul>
 *
 * On a cloud each host and each spawned VM brings its own cores and a VM's start is in its boot
 * time: {@link #NONE}.
 */
public record SharedCores(double cores, double spawnedCpuSeconds, double spawnedStartCpuSeconds,
    double spawnedCpuFiles, double cpuSecondsPerByte) {
  /** Hosts with cores of their own. */
  public static final SharedCores NONE = of(0, 0, 0);

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
    if (!(spawnedCpuFiles >= 0) || Double.isInfinite(spawnedCpuFiles)) {
      throw new RelayCpException(INVALID_ARGUMENT, "the files a route " + spawnedCpuFiles
          + " over which a spawned relay's CPU was measured must be a finite number of 0 or"
          + " more (0: every copy pays all of it)");
    }
    if (!(cpuSecondsPerByte >= 0) || Double.isInfinite(cpuSecondsPerByte)) {
      throw new RelayCpException(INVALID_ARGUMENT, "the CPU seconds a byte costs "
          + cpuSecondsPerByte + " must be a finite number of 0 or more");
    }
  }

  /**
   * Hosts on {@code cores} whose spawned relays each cost {@code spawnedCpuSeconds}, {@code
   * spawnedStartCpuSeconds} of them before they serve, whatever the copy; bytes cost no CPU.
   */
  public static SharedCores of(double cores, double spawnedCpuSeconds,
      double spawnedStartCpuSeconds) {
    return new SharedCores(cores, spawnedCpuSeconds, spawnedStartCpuSeconds, 0, 0);
  }

  /** These cores with every byte costing {@code seconds} of their CPU. */
  public SharedCores withCpuSecondsPerByte(double seconds) {
    return new SharedCores(cores, spawnedCpuSeconds, spawnedStartCpuSeconds, spawnedCpuFiles,
        seconds);
  }

  /** These cores with the spawned relays' warm-up measured over {@code files} files a route. */
  public SharedCores withSpawnedCpuFiles(double files) {
    return new SharedCores(cores, spawnedCpuSeconds, spawnedStartCpuSeconds, files,
        cpuSecondsPerByte);
  }

  /**
   * The CPU seconds one spawned relay costs a copy whose route carries {@code filesPerRoute}
   * files: its start, and its warm-up in proportion to those files, up to all of it.
   */
  double spawnedCpuSecondsFor(double filesPerRoute) {
    double warmUp = spawnedCpuSeconds - spawnedStartCpuSeconds;
    double share = spawnedCpuFiles == 0 ? 1 : Math.min(1, filesPerRoute / spawnedCpuFiles);
    return spawnedStartCpuSeconds + warmUp * share;
  }
}
