package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import dev.relaycp.plan.ThroughputHistory.Direction;
import dev.relaycp.transfer.RelayProbe.PairResult;
import dev.relaycp.transfer.RouteResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Throughput samples from what a copy or a probe saw, one per history key, and their recording.
 * Every relay host's WAN rate is keyed {@link ThroughputHistory#nodeKey} with {@link
 * Direction#EXTERNAL}, whether it read or wrote: a route's rate is what both its ends sustained.
 */
public final class ObservedRates {
  private static final Logger LOG = LoggerFactory.getLogger(ObservedRates.class);

  private ObservedRates() {}

  /**
   * One sample per relay host of a copy: the bytes of the routes it served over the longest busy
   * time among them (its routes ran at the same time, so together they are the host's rate).
   * Routes that carried nothing give no sample.
   */
  public static Map<String, DataRate> ofCopy(List<RouteResult> routes) {
    requireNonNull(routes, "routes is null");
    Map<String, long[]> bytesByHost = new TreeMap<>();
    Map<String, Double> busyByHost = new TreeMap<>();
    for (RouteResult route : routes) {
      if (route.bytes() == 0 || route.busySeconds() <= 0) {
        continue;
      }
      for (String host : hosts(route.reader().host(), route.writer().host())) {
        bytesByHost.computeIfAbsent(host, ignored -> new long[1])[0] += route.bytes();
        busyByHost.merge(host, route.busySeconds(), Math::max);
      }
    }
    Map<String, DataRate> samples = new TreeMap<>();
    bytesByHost.forEach((host, bytes) -> samples.put(
        ThroughputHistory.nodeKey(host, Direction.EXTERNAL),
        DataRate.ofBytesPerSecond(bytes[0] / busyByHost.get(host))));
    return samples;
  }

  /**
   * One sample per relay host of a probe, the mean of its measured pairs (each pair ran alone),
   * and, when the relays run on a catalog machine type, one for that type: the mean of all.
   */
  public static Map<String, DataRate> ofProbe(List<PairResult> pairs, Optional<MachineType> machine) {
    requireNonNull(pairs, "pairs is null");
    requireNonNull(machine, "machine is null");
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    for (PairResult pair : pairs) {
      if (!pair.measured()) {
        continue;
      }
      for (String host : hosts(pair.route().reader().host(), pair.route().writer().host())) {
        rates.computeIfAbsent(ThroughputHistory.nodeKey(host, Direction.EXTERNAL),
            ignored -> new ArrayList<>()).add(pair.bytesPerSecond());
      }
      machine.ifPresent(type -> rates.computeIfAbsent(
          ThroughputHistory.machineKey(type, Direction.EXTERNAL),
          ignored -> new ArrayList<>()).add(pair.bytesPerSecond()));
    }
    Map<String, DataRate> samples = new TreeMap<>();
    rates.forEach((key, values) -> samples.put(key, DataRate.ofBytesPerSecond(
        values.stream().mapToDouble(Double::doubleValue).average().orElseThrow())));
    return samples;
  }

  /**
   * Adds {@code samples} to the history in {@code file}. A failure to read or write it is
   * logged and reported on {@code err}, never thrown: the measurement itself succeeded.
   *
   * @return whether the samples were recorded
   */
  public static boolean record(Path file, Map<String, DataRate> samples, PrintWriter err) {
    if (samples.isEmpty()) {
      return false;
    }
    try {
      ThroughputHistoryFile.recordAll(file, samples, Instant.now());
      LOG.info("Recorded {} throughput samples in {}", samples.size(), file);
      return true;
    } catch (RelayCpException | IllegalArgumentException e) {
      LOG.warn("Could not record throughputs in {}", file, e);
      err.println("relaycp: warning: could not record the measured throughputs in " + file
          + ": " + e.getMessage());
      err.flush();
      return false;
    }
  }

  private static Set<String> hosts(String reader, String writer) {
    Set<String> hosts = new LinkedHashSet<>();
    hosts.add(reader);
    hosts.add(writer);
    return hosts;
  }
}
