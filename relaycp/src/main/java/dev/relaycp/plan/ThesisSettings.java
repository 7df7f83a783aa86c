package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;

/**
 * The thesis model's own inputs: the variant, the split (and merge) throughput {@code v_s} of
 * eqs. 3.2-3.3, the pre-testing time {@code T_pt} of eqs. 4.1-4.2 (the thesis used 60 s, §6.1.3),
 * and the HDFS export and import throughputs behind {@code T_E} and {@code T_I} of eq. 5.1.
 */
public record ThesisSettings(
    ThesisVariant variant,
    DataRate splitRate,
    double pretestSeconds,
    DataRate exportRate,
    DataRate importRate) {

  /** Table 4.3's split throughput; export and import assumed to run at the same disk speed. */
  public static final ThesisSettings DEFAULT =
      new ThesisSettings(
          ThesisVariant.PIPED,
          DataRate.ofMebibytesPerSecond(65),
          60,
          DataRate.ofMebibytesPerSecond(65),
          DataRate.ofMebibytesPerSecond(65));

  public ThesisSettings {
    requireNonNull(variant, "variant is null");
    requireNonNull(splitRate, "splitRate is null");
    requireNonNull(exportRate, "exportRate is null");
    requireNonNull(importRate, "importRate is null");
    if (!(pretestSeconds >= 0) || Double.isInfinite(pretestSeconds)) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "pre-test time " + pretestSeconds + " s is not a finite time of 0 or more");
    }
  }

  public ThesisSettings withVariant(ThesisVariant newVariant) {
    return new ThesisSettings(newVariant, splitRate, pretestSeconds, exportRate, importRate);
  }
}
