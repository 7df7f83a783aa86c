package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Equations 1-4 of seed 002 with h = 10 and a reference interval of one hour. */
class WeightedOnlineEstimateTest {
  private static final Duration HOUR = Duration.ofHours(1);
  private static final Instant START = Instant.parse("2024-01-01T00:00:00Z");

  /** Three samples of 100, an hour apart: a stable level with no deviation. */
  private static WeightedOnlineEstimate stableAtOneHundred() {
    WeightedOnlineEstimate estimate = WeightedOnlineEstimate.first(100, START, 10);
    for (int hour = 1; hour <= 2; hour++) {
      estimate = estimate.record(100, START.plus(HOUR.multipliedBy(hour)), HOUR);
    }
    return estimate;
  }

  @Test
  void aStableLevelHasFullWeightAndNoDeviation() {
    WeightedOnlineEstimate estimate = stableAtOneHundred();
    assertThat(estimate.mean()).isEqualTo(100);
    assertThat(estimate.deviation()).isZero();
    assertThat(estimate.samples()).isEqualTo(3);
    // Gaussian term 1 (the sample is the mean), time term 1 (an hour later).
    assertThat(estimate.weight(100, HOUR, HOUR)).isEqualTo(1);
    // Twice as often as the reference interval: time term 1/2.
    assertThat(estimate.weight(100, HOUR.dividedBy(2), HOUR)).isEqualTo(0.75);
  }

  @Test
  void anOutlierMovesTheMeanLessThanAPlainAverage() {
    WeightedOnlineEstimate stable = stableAtOneHundred();
    // σ = 0, so the Gaussian term of a sample of 10 is 0; time term 1: w = 1/2.
    assertThat(stable.weight(10, HOUR, HOUR)).isEqualTo(0.5);
    WeightedOnlineEstimate after = stable.record(10, START.plus(HOUR.multipliedBy(3)), HOUR);
    // μ = (9 * 100 + 0.5 * 100 + 0.5 * 10) / 10; a plain window mean would give 91.
    assertThat(after.mean()).isCloseTo(95.5, within(1e-12));
    // γ = (9 * 10^4 + 0.5 * 10^4 + 0.5 * 10^2) / 10 = 9505; σ² = 9505 − 95.5² = 384.75.
    assertThat(after.gamma()).isCloseTo(9505, within(1e-9));
    assertThat(after.deviation()).isCloseTo(Math.sqrt(384.75), within(1e-9));
    // The level returns: the next sample of 100 is trusted more than the outlier was.
    double weight = after.weight(100, HOUR, HOUR);
    assertThat(weight).isCloseTo((Math.exp(-4.5 * 4.5 / (2 * 384.75)) + 1) / 2, within(1e-12));
    assertThat(weight).isGreaterThan(0.5);
  }

  @Test
  void anOutlierRightAfterTheLastSampleIsIgnored() {
    WeightedOnlineEstimate stable = stableAtOneHundred();
    // Same instant as the last sample: time term 0, Gaussian term 0, w = 0.
    WeightedOnlineEstimate after = stable.record(10, START.plus(HOUR.multipliedBy(2)), HOUR);
    assertThat(after.mean()).isEqualTo(100);
    assertThat(after.deviation()).isZero();
    assertThat(after.samples()).isEqualTo(4);
  }

  @Test
  void aChangeOfLevelIsAcceptedFasterAsTheDeviationGrows() {
    WeightedOnlineEstimate estimate = stableAtOneHundred();
    double[] means = new double[40];
    double[] weights = new double[40];
    for (int sample = 0; sample < 40; sample++) {
      Instant at = START.plus(HOUR.multipliedBy(3 + sample));
      weights[sample] = estimate.weight(50, HOUR, HOUR);
      estimate = estimate.record(50, at, HOUR);
      means[sample] = estimate.mean();
    }
    // Worked from eqs. 1, 3 and 4: 97.5, then 95.1248, 92.8465 as σ opens up.
    assertThat(means[0]).isCloseTo(97.5, within(1e-9));
    assertThat(means[1]).isCloseTo(95.1248, within(1e-4));
    assertThat(means[2]).isCloseTo(92.8465, within(1e-4));
    // Each new sample at the new level is trusted more than the one before.
    for (int sample = 2; sample < 40; sample++) {
      assertThat(weights[sample]).isGreaterThan(weights[sample - 1]);
      assertThat(means[sample]).isLessThan(means[sample - 1]);
    }
    // Within 10% of the new level after 28 samples (a plain window of 10 would take 22).
    assertThat(means[26]).isGreaterThan(55);
    assertThat(means[27]).isCloseTo(54.9013, within(1e-4));
    assertThat(estimate.mean()).isBetween(50.0, 52.0);
  }

  @Test
  void historyRecordsPerKeyAndReplacesCatalogFigures() {
    MachineType micro =
        new MachineType("aws", "us-west-2", "t2.micro", 0.0116, DataRate.ofMegabitsPerSecond(107),
            DataRate.ofMegabitsPerSecond(718), 83, 1, 60, "Thesis Table 5.4");
    String key = ThroughputHistory.machineKey(micro, ThroughputHistory.Direction.EXTERNAL);
    assertThat(key).isEqualTo("machine/aws/t2.micro/external");
    ThroughputHistory history =
        ThroughputHistory.empty()
            .record(key, DataRate.ofMebibytesPerSecond(20), START)
            .record(key, DataRate.ofMebibytesPerSecond(20), START.plus(HOUR));
    assertThat(history.rate(key).orElseThrow().mebibytesPerSecond()).isCloseTo(20, within(1e-9));
    MachineType measured = history.applyTo(micro);
    assertThat(measured.external().mebibytesPerSecond()).isCloseTo(20, within(1e-9));
    assertThat(measured.internal()).isEqualTo(micro.internal());
    assertThat(measured.source()).startsWith("WAN 20.00 MiB/s ± 0.00 measured over 2 samples");
    assertThat(ThroughputHistory.empty().applyTo(micro)).isEqualTo(micro);
  }
}
