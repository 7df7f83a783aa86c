package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.time.Duration;
import java.time.Instant;

/**
 * A running mean and deviation of a measured quantity (a throughput), weighted per sample as
 * in equations 1-4 of the environment-aware cloud data management paper of seed 002, which keep a
 * sliding window of {@code historyLength} samples' worth of memory without storing them:
 *
 * <pre>
 *   μ_i = ((h − 1) μ_{i−1} + (1 − w) μ_{i−1} + w S) / h              (1)
 *   σ_i = sqrt(γ_i − μ_i²)                                            (2)
 *   γ_i = ((h − 1) γ_{i−1} + (1 − w) γ_{i−1} + w S²) / h              (3)
 *   w   = (exp(−(μ − S)² / (2σ²)) + (1 − t_f / T)) / 2                (4)
 * </pre>
 *
 * Equation 3 is printed in the paper with w and 1 − w swapped; its own derivation (γ is the
 * running mean of S², so that σ² = γ − μ²) needs the same weights as equation 1, and the
 * printed form makes γ − μ² negative after one low outlier (μ = 100, σ = 0, S = 10, w = 0, h = 10
 * gives γ = 9010 &lt; μ² = 10000). With equal weights γ ≥ μ² always holds. In equation 4, μ and σ
 * are the estimate before the sample; with σ = 0 the Gaussian term is 1 for a sample equal to
 * the mean and 0 otherwise. The paper defines t_f as the sample's time frequency against a
 * reference interval T, with rarer samples trusted more; here t_f / T = max(0, 1 − elapsed / T)
 * where elapsed is the time since the previous sample, so
 * the time term is min(1, elapsed / T). Equation 2 clamps γ − μ² at 0 against rounding.
 */
public record WeightedOnlineEstimate(
    double mean, double gamma, long samples, Instant lastSampleAt, int historyLength) {

  public WeightedOnlineEstimate {
    requireNonNull(lastSampleAt, "lastSampleAt is null");
    if (historyLength < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "history length " + historyLength + " is below 1; give 1 or more");
    }
    if (samples < 1 || !Double.isFinite(mean) || !Double.isFinite(gamma)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "estimate with " + samples + " samples, mean " + mean + " and gamma " + gamma + " is not valid");
    }
  }

  /** The estimate after its first sample: that sample, with no deviation. */
  public static WeightedOnlineEstimate first(double sample, Instant at, int historyLength) {
    return new WeightedOnlineEstimate(sample, sample * sample, 1, at, historyLength);
  }

  /** Equation 2. */
  public double deviation() {
    return Math.sqrt(Math.max(0, gamma - mean * mean));
  }

  /** Equation 4: how much {@code sample}, taken {@code elapsed} after the last one, is trusted. */
  public double weight(double sample, Duration elapsed, Duration referenceInterval) {
    double deviation = deviation();
    double gaussian;
    if (deviation == 0) {
      gaussian = sample == mean ? 1 : 0;
    } else {
      double distance = mean - sample;
      gaussian = Math.exp(-(distance * distance) / (2 * deviation * deviation));
    }
    double reference = Math.max(1, referenceInterval.toMillis());
    double timeTerm = Math.min(1, Math.max(0, elapsed.toMillis()) / reference);
    return (gaussian + timeTerm) / 2;
  }

  /** The estimate after {@code sample} taken at {@code at}: equations 1, 3 and 4. */
  public WeightedOnlineEstimate record(double sample, Instant at, Duration referenceInterval) {
    requireNonNull(at, "at is null");
    requireNonNull(referenceInterval, "referenceInterval is null");
    if (!Double.isFinite(sample)) {
      throw new RelayCpException(INVALID_ARGUMENT, "sample " + sample + " is not a finite number");
    }
    double weight = weight(sample, Duration.between(lastSampleAt, at), referenceInterval);
    double window = historyLength;
    double newMean = ((window - 1) * mean + (1 - weight) * mean + weight * sample) / window;
    double newGamma =
        ((window - 1) * gamma + (1 - weight) * gamma + weight * sample * sample) / window;
    Instant latest = at.isAfter(lastSampleAt) ? at : lastSampleAt;
    return new WeightedOnlineEstimate(newMean, newGamma, samples + 1, latest, historyLength);
  }
}
