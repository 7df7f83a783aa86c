package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Measured throughputs kept between runs, one {@link WeightedOnlineEstimate} (in bytes per
 * second) per key. Keys name what was measured: {@link #machineKey} for a machine type's WAN or
 * internal rate, {@link #nodeKey} for one node's. Immutable: {@link #record} returns the history
 * with the sample added; {@link ThroughputHistoryFile} stores it.
 */
public record ThroughputHistory(
    Map<String, WeightedOnlineEstimate> estimates, int historyLength, Duration referenceInterval) {

  /** Ten samples of memory, and a sample an hour or more after the last fully trusted in time. */
  public static final int DEFAULT_HISTORY_LENGTH = 10;
  public static final Duration DEFAULT_REFERENCE_INTERVAL = Duration.ofHours(1);

  /** Which throughput of a machine or node a key names. */
  public enum Direction {
    EXTERNAL,
    INTERNAL
  }

  public ThroughputHistory {
    requireNonNull(estimates, "estimates is null");
    requireNonNull(referenceInterval, "referenceInterval is null");
    estimates = Map.copyOf(estimates);
    if (historyLength < 1 || referenceInterval.isNegative() || referenceInterval.isZero()) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "history length " + historyLength + " and reference interval " + referenceInterval
              + " must be positive");
    }
  }

  public static ThroughputHistory empty() {
    return new ThroughputHistory(Map.of(), DEFAULT_HISTORY_LENGTH, DEFAULT_REFERENCE_INTERVAL);
  }

  public static String machineKey(MachineType machine, Direction direction) {
    return "machine/" + machine.provider() + "/" + machine.name() + "/" + direction.name().toLowerCase(Locale.ROOT);
  }

  public static String nodeKey(String host, Direction direction) {
    requireNonNull(host, "host is null");
    return "node/" + host + "/" + direction.name().toLowerCase(Locale.ROOT);
  }

  /** The history with {@code sample} of {@code key}, measured at {@code at}, smoothed in. */
  public ThroughputHistory record(String key, DataRate sample, Instant at) {
    requireNonNull(key, "key is null");
    requireNonNull(sample, "sample is null");
    requireNonNull(at, "at is null");
    Map<String, WeightedOnlineEstimate> updated = new TreeMap<>(estimates);
    WeightedOnlineEstimate previous = estimates.get(key);
    updated.put(
        key,
        previous == null
            ? WeightedOnlineEstimate.first(sample.bytesPerSecond(), at, historyLength)
            : previous.record(sample.bytesPerSecond(), at, referenceInterval));
    return new ThroughputHistory(updated, historyLength, referenceInterval);
  }

  public Optional<WeightedOnlineEstimate> estimate(String key) {
    return Optional.ofNullable(estimates.get(requireNonNull(key, "key is null")));
  }

  /** The smoothed rate of {@code key}, if it was ever measured. */
  public Optional<DataRate> rate(String key) {
    return estimate(key).map(estimate -> DataRate.ofBytesPerSecond(estimate.mean()));
  }

  /**
   * {@code machine} with its WAN and internal rates replaced by measured ones where the history
   * has them, its source saying which; unchanged if neither was measured.
   */
  public MachineType applyTo(MachineType machine) {
    requireNonNull(machine, "machine is null");
    Optional<WeightedOnlineEstimate> external = estimate(machineKey(machine, Direction.EXTERNAL));
    Optional<WeightedOnlineEstimate> internal = estimate(machineKey(machine, Direction.INTERNAL));
    if (external.isEmpty() && internal.isEmpty()) {
      return machine;
    }
    StringBuilder source = new StringBuilder();
    external.ifPresent(estimate -> source.append(describe("WAN", estimate)));
    internal.ifPresent(
        estimate -> source.append(source.length() > 0 ? "; " : "").append(describe("internal", estimate)));
    source.append("; otherwise ").append(machine.source());
    return new MachineType(
        machine.provider(), machine.region(), machine.name(), machine.dollarsPerHour(),
        external.map(estimate -> DataRate.ofBytesPerSecond(estimate.mean())).orElse(machine.external()),
        internal.map(estimate -> DataRate.ofBytesPerSecond(estimate.mean())).orElse(machine.internal()),
        machine.bootSeconds(), machine.billingGranularitySeconds(), machine.billingMinimumSeconds(),
        source.toString());
  }

  private static String describe(String what, WeightedOnlineEstimate estimate) {
    return String.format(
        Locale.ROOT, "%s %.2f MiB/s ± %.2f measured over %d samples", what,
        estimate.mean() / DataSize.MEBIBYTE, estimate.deviation() / DataSize.MEBIBYTE, estimate.samples());
  }
}
