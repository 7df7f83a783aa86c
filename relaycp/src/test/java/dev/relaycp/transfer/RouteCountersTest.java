package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.relay.RelayAddress;
import org.junit.jupiter.api.Test;

class RouteCountersTest {
  private long now = 7_500_000_000L;
  private final Route route =
      new Route(3, RelayAddress.of("dn1", 7070), RelayAddress.of("dn9", 7070));
  /** A route that joined 2.5 s after its copy started. */
  private final RouteCounters counters = new RouteCounters(route, () -> now, 5_000_000_000L);

  @Test
  void busyTimeRunsOnlyWhileAChunkIsOut() {
    now += 1_000_000_000L;
    counters.sent();
    now += 2_000_000_000L;
    counters.sent();
    now += 1_000_000_000L;
    counters.delivered(300, 100);
    now += 1_000_000_000L;
    counters.delivered(100, 100);
    // Idle for ten seconds: not busy time.
    now += 10_000_000_000L;
    counters.sent();
    now += 1_000_000_000L;
    counters.returned();

    RouteResult result = counters.result();
    assertThat(result.routeId()).isEqualTo(3);
    assertThat(result.reader()).isEqualTo(RelayAddress.of("dn1", 7070));
    assertThat(result.bytes()).isEqualTo(400);
    assertThat(result.wireBytes()).as("the first chunk crossed compressed").isEqualTo(200);
    assertThat(result.chunks()).isEqualTo(2);
    assertThat(result.busySeconds()).isEqualTo(5.0);
    assertThat(result.bytesPerSecond()).isEqualTo(80.0);
    assertThat(result.dropped()).isFalse();
    assertThat(result.joinedSeconds()).isEqualTo(2.5);
  }

  @Test
  void aRouteThatCarriedNothingHasNoRate() {
    counters.dropped();

    RouteResult result = counters.result();
    assertThat(result.bytesPerSecond()).isZero();
    assertThat(result.dropped()).isTrue();
  }
}
