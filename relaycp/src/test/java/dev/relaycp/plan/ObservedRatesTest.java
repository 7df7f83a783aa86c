package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.plan.ThroughputHistory.Direction;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.transfer.RelayProbe.PairResult;
import dev.relaycp.transfer.Route;
import dev.relaycp.transfer.RouteResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ObservedRatesTest {
  static RelayAddress relay(String host) {
    return RelayAddress.of(host, 7070);
  }

  @Test
  void aCopysHostRateIsItsRoutesBytesOverTheirLongestBusyTime() {
    List<RouteResult> routes = List.of(
        new RouteResult(0, relay("a1"), relay("b1"), 600, 6, 10, false, 0),
        new RouteResult(1, relay("a1"), relay("b2"), 400, 4, 20, false, 0),
        // Carried nothing: no sample, not even a zero.
        new RouteResult(2, relay("a3"), relay("b3"), 0, 0, 0, true, 0),
        // Reader and writer on one host: one sample for it.
        new RouteResult(3, relay("c"), relay("c"), 300, 3, 3, false, 0));

    Map<String, DataRate> samples = ObservedRates.ofCopy(routes);

    assertThat(samples).containsOnlyKeys(
        "node/a1/external", "node/b1/external", "node/b2/external", "node/c/external");
    assertThat(samples.get("node/a1/external").bytesPerSecond()).isEqualTo(50.0);
    assertThat(samples.get("node/b1/external").bytesPerSecond()).isEqualTo(60.0);
    assertThat(samples.get("node/b2/external").bytesPerSecond()).isEqualTo(20.0);
    assertThat(samples.get("node/c/external").bytesPerSecond()).isEqualTo(100.0);
  }

  @Test
  void aProbesHostRateIsTheMeanOfItsPairsAndTheMachineTypeGetsAllOfThem() {
    MachineType type = new MachineType("aws", "us-east-1", "t2.micro", 0.0116,
        DataRate.ofMebibytesPerSecond(10), DataRate.ofMebibytesPerSecond(10), 60, 1, 60, "test");
    List<PairResult> pairs = List.of(
        new PairResult(new Route(0, relay("a1"), relay("b1")), 1000, 10, Optional.empty()),
        new PairResult(new Route(1, relay("a1"), relay("b2")), 1000, 5, Optional.empty()),
        new PairResult(new Route(2, relay("a3"), relay("b3")), 1000, 0,
            Optional.of("relay unreachable")));

    Map<String, DataRate> samples = ObservedRates.ofProbe(pairs, Optional.of(type));

    assertThat(samples).containsOnlyKeys("node/a1/external", "node/b1/external",
        "node/b2/external", ThroughputHistory.machineKey(type, Direction.EXTERNAL));
    assertThat(samples.get("node/a1/external").bytesPerSecond()).isEqualTo(150.0);
    assertThat(samples.get("node/b2/external").bytesPerSecond()).isEqualTo(200.0);
    assertThat(samples.get("machine/aws/t2.micro/external").bytesPerSecond()).isEqualTo(150.0);
  }
}
