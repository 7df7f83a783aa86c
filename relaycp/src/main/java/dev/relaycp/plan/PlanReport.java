package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INTERNAL_ERROR;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.relaycp.error.RelayCpException;
import java.util.List;
import java.util.Locale;

/**
 * A plan as the {@code plan} command shows it: a table for people, or JSON for scripts whose
 * field names are part of relaycp's interface. Figures in the JSON are rounded as in the table
 * (seconds to 0.1, dollars to 0.0001, speedups to 0.001).
 *
 * @param plan the plan
 * @param input what it was made from
 */
public record PlanReport(Plan plan, PlanInput input) {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public PlanReport {
    requireNonNull(plan, "plan is null");
    requireNonNull(input, "input is null");
  }

  /** The table, one line each for the inputs, the rows, the choice, pre-testing and notes. */
  public String table() {
    StringBuilder text = new StringBuilder();
    line(text, "model %s: %s in %d file(s); %d source and %d destination node(s)",
        plan.model(), input.workload().totalSize(), input.workload().fileCount(),
        input.source().nodes(), input.destination().nodes());
    line(text, "spawned relays: %s", plan.machine());
    line(text, "baselines: DistCp %.1f s, one-node copy %.1f s",
        plan.distcpSeconds(), plan.sequentialSeconds());
    line(text, "%3s %5s  %-12s %6s %10s %10s %9s %11s",
        "", "pairs", "VM type", "relays", "seconds", "dollars", "vs DistCp", "vs one node");
    for (PlanRow row : plan.rows()) {
      line(text, "%3s %5d  %-12s %6d %10.1f %10.4f %8.2fx %10.2fx",
          row.pairs() == plan.chosen().pairs() ? "*" : "", row.pairs(), row.machineType(),
          row.estimate().relaysStarted(), row.seconds(), row.dollars(), row.speedupVersusDistcp(),
          row.speedupVersusSequential());
    }
    line(text, "chosen: p = %d (%s)", plan.chosen().pairs(), plan.reason());
    line(text, "%s", plan.pretest().reason());
    for (String note : plan.notes()) {
      line(text, "note: %s", note);
    }
    return text.toString();
  }

  /** The JSON document, indented. */
  public String json() {
    PlanRow chosen = plan.chosen();
    PretestAdvice pretest = plan.pretest();
    MachineType machine = plan.machine();
    Document document = new Document(
        plan.model(),
        input.workload().totalSize().bytes(),
        input.workload().fileCount(),
        new Machine(machine.provider(), machine.name(), machine.dollarsPerHour(),
            round(machine.external().mebibytesPerSecond(), 3),
            round(machine.internal().mebibytesPerSecond(), 3), machine.bootSeconds(),
            machine.source()),
        round(plan.distcpSeconds(), 1),
        round(plan.sequentialSeconds(), 1),
        plan.rows().stream().map(PlanReport::row).toList(),
        new Chosen(chosen.pairs(), chosen.machineType(), chosen.estimate().relaysStarted(),
            round(chosen.seconds(), 1), round(chosen.dollars(), 4),
            round(chosen.speedupVersusDistcp(), 3), round(chosen.speedupVersusSequential(), 3),
            plan.reason()),
        new Pretest(pretest.pays(), pretest.pairs(), pretest.pretestSeconds(),
            round(pretest.secondsWithout(), 1), round(pretest.dollarsWithout(), 4),
            round(pretest.secondsWith(), 1), round(pretest.dollarsWith(), 4), pretest.reason()),
        plan.notes());
    try {
      return MAPPER.writeValueAsString(document);
    } catch (JsonProcessingException e) {
      throw new RelayCpException(INTERNAL_ERROR, "cannot write the plan as JSON: " + e.getMessage(), e);
    }
  }

  private static Row row(PlanRow row) {
    return new Row(row.pairs(), row.machineType(), row.estimate().relaysStarted(),
        round(row.seconds(), 1), round(row.dollars(), 4), round(row.speedupVersusDistcp(), 3),
        round(row.speedupVersusSequential(), 3));
  }

  private static void line(StringBuilder text, String format, Object... values) {
    text.append(String.format(Locale.ROOT, format, values)).append(System.lineSeparator());
  }

  private static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }

  /** The JSON document; its components' names and order are the fields'. */
  record Document(String model, long bytes, long files, Machine machine, double distcpSeconds,
      double sequentialSeconds, List<Row> rows, Chosen chosen, Pretest pretest,
      List<String> notes) {}

  record Machine(String provider, String vmType, double dollarsPerHour,
      double externalMebibytesPerSecond, double internalMebibytesPerSecond, double bootSeconds,
      String source) {}

  record Row(int pairs, String vmType, int relaysStarted, double seconds, double dollars,
      double speedupVsDistcp, double speedupVsSequential) {}

  /** A row with the reason it was chosen. */
  record Chosen(int pairs, String vmType, int relaysStarted, double seconds, double dollars,
      double speedupVsDistcp, double speedupVsSequential, String reason) {}

  record Pretest(boolean pays, int pairs, double pretestSeconds, double secondsWithout,
      double dollarsWithout, double secondsWith, double dollarsWith, String reason) {}
}
