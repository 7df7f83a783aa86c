package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RemoteWriterPipelinesTest {
  @Test
  void oneDatanodeIsSharedFairly() {
    // Four pipelines into one datanode of 2: 0.5 each, which every source can give.
    double[] rates = RemoteWriterPipelines.nodeRates(
        new double[] {1, 1, 10}, new int[] {1, 1, 2}, 1, 2, 1);
    assertThat(rates[0]).isCloseTo(0.5, within(1e-9));
    assertThat(rates[1]).isCloseTo(0.5, within(1e-9));
    assertThat(rates[2]).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void writersBoundOnlyByTheirDatanodesLeaveSomeIdleAsAClosedNetworkDoes() {
    // N pipelines on m datanodes, each busy one moving its whole cap: uniform occupancy over the
    // splits of N into m, so m N / (N + m - 1) in all. 8 on 2: 16/9; 6 on 3: 2.25. Every
    // pipeline holds every datanode, so the namenode passes none over for its load.
    assertThat(total(RemoteWriterPipelines.nodeRates(caps(8, 100), writers(8, 1), 2, 1, 2)))
        .isCloseTo(16.0 / 9, within(0.035));
    assertThat(total(RemoteWriterPipelines.nodeRates(caps(6, 100), writers(6, 1), 3, 1, 3)))
        .isCloseTo(2.25, within(0.045));
  }

  @Test
  void fourSourcesOfTwoWritersOnTwoDatanodesMoveLessThanIndependentDrawsSay() {
    // The WAN lab's 4 + 2 layout: eight maps on four nodes of v_e, two datanodes of v_e. Drawn
    // independently at every instant a datanode would idle 1/256 of the time and the two carry
    // about 0.98 of 2 v_e; held for a block, the draws leave one idle about 1/9 of the time.
    double[] rates = RemoteWriterPipelines.nodeRates(caps(4, 1), writers(4, 2), 2, 1, 1);
    assertThat(total(rates)).isBetween(1.70, 1.82);
    for (double rate : rates) {
      assertThat(rate).isCloseTo(total(rates) / 4, within(0.03));
    }
    assertThat(RemoteWriterPipelines.nodeRates(caps(4, 1), writers(4, 2), 2, 1, 1))
        .isEqualTo(rates);
  }

  @Test
  void replicasOnEveryDatanodeLeaveTheNamenodeNoLoadToPassOver() {
    // Three nodes of two maps writing to three datanodes. At replication 1 the namenode passes
    // over a datanode with more than twice the average pipelines (5 or 6 of 6), so the crowded
    // splits are rarer; at replication 3 every pipeline counts on every datanode, none is
    // passed over, and the occupancy is as if drawn from all.
    double once = total(RemoteWriterPipelines.nodeRates(caps(3, 1), writers(3, 2), 3, 1, 1));
    double thrice = total(RemoteWriterPipelines.nodeRates(caps(3, 1), writers(3, 2), 3, 1, 3));
    assertThat(once).isGreaterThan(thrice * 1.05);
    assertThat(thrice).isBetween(2.05, 2.25);
  }

  @Test
  void nodesWithoutWritersMoveNothing() {
    assertThat(RemoteWriterPipelines.nodeRates(new double[] {1, 1}, new int[] {0, 0}, 3, 1, 1))
        .containsExactly(0, 0);
    double[] rates =
        RemoteWriterPipelines.nodeRates(new double[] {1, 1}, new int[] {0, 2}, 1, 5, 1);
    assertThat(rates[0]).isZero();
    assertThat(rates[1]).isCloseTo(1, within(1e-9));
  }

  @Test
  void inconsistentInputIsRefused() {
    assertThatThrownBy(
            () -> RemoteWriterPipelines.nodeRates(new double[] {1}, new int[] {1, 1}, 1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> RemoteWriterPipelines.nodeRates(new double[] {1}, new int[] {1}, 0, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> RemoteWriterPipelines.nodeRates(new double[] {0}, new int[] {1}, 1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> RemoteWriterPipelines.nodeRates(new double[] {1}, new int[] {1}, 1, 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static double[] caps(int length, double value) {
    double[] values = new double[length];
    Arrays.fill(values, value);
    return values;
  }

  private static int[] writers(int length, int value) {
    int[] values = new int[length];
    Arrays.fill(values, value);
    return values;
  }

  private static double total(double[] rates) {
    return Arrays.stream(rates).sum();
  }
}
