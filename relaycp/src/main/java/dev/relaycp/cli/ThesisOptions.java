package dev.relaycp.cli;

import dev.relaycp.plan.DataRate;
import dev.relaycp.plan.ThesisSettings;
import dev.relaycp.plan.ThesisVariant;
import java.util.Locale;
import picocli.CommandLine.Option;

/** {@code plan --model thesis}'s inputs. */
public final class ThesisOptions {
  @Option(names = "--thesis-variant", paramLabel = "VARIANT",
      description = "For --model thesis: basic (eq. 3.2), pipelined (3.3), piped (3.4) or hdfs (5.1)"
          + " (default: ${DEFAULT-VALUE}).")
  String variant = ThesisSettings.DEFAULT.variant().name().toLowerCase(Locale.ROOT);

  @Option(names = "--split-rate", paramLabel = "RATE",
      description = "Thesis model: split and merge throughput v_s, also export and import for hdfs"
          + " (default: ${DEFAULT-VALUE}).")
  String splitRate = ThesisSettings.DEFAULT.splitRate().toString();

  @Option(names = "--pretest-seconds", paramLabel = "SECONDS",
      description = "Time to probe spawned VMs when pre-testing (default: ${DEFAULT-VALUE}, thesis §6.1.3).")
  double pretestSeconds = ThesisSettings.DEFAULT.pretestSeconds();

  public ThesisSettings settings() {
    DataRate rate = DataRate.parse(splitRate);
    return new ThesisSettings(ThesisVariant.parse(variant), rate, pretestSeconds, rate, rate);
  }
}
