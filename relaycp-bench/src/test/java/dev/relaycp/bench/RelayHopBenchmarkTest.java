package dev.relaycp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RelayHopBenchmarkTest {
  @Test
  void everyByteCrossesTheHopOnOneConnectionAcrossTransfers() throws Exception {
    // Far more than the 2 MiB the sender may queue, so back-pressure has to wake it again.
    try (RelayHopBenchmark.Hop hop = RelayHopBenchmark.Hop.open(65_536)) {
      assertThat(hop.transfer(48L << 20)).isEqualTo(48L << 20);
      assertThat(hop.transfer(1_000_001)).isEqualTo(1_000_001);
    }
  }

  @Test
  void aRunReportsItsBytesAndFrames() throws Exception {
    RelayHopBenchmark.Result result = RelayHopBenchmark.run(10L << 20, 262_144);

    assertThat(result.bytes()).isEqualTo(10L << 20);
    assertThat(result.frameBytes()).isEqualTo(262_144);
    assertThat(result.seconds()).isPositive();
  }

  @Test
  void badSizesAreRefused() {
    assertThatThrownBy(() -> RelayHopBenchmark.Hop.open(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("frameBytes must be 1 or more, got 0");
  }
}
