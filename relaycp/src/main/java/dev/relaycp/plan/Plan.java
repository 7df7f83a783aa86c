package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The planner's answer: for each p, a model's predicted seconds and dollars; the row chosen and
 * why; whether pre-testing pays; the baselines the speedups are measured against; and which
 * figures came from measurements rather than the catalog or flags.
 */
public record Plan(
    String model,
    MachineType machine,
    List<PlanRow> rows,
    PlanRow chosen,
    String reason,
    PretestAdvice pretest,
    double distcpSeconds,
    double sequentialSeconds,
    List<String> notes) {
  public Plan {
    requireNonNull(model, "model is null");
    requireNonNull(machine, "machine is null");
    requireNonNull(chosen, "chosen is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(pretest, "pretest is null");
    rows = List.copyOf(requireNonNull(rows, "rows is null"));
    notes = List.copyOf(requireNonNull(notes, "notes is null"));
  }

  public Plan withNotes(List<String> newNotes) {
    return new Plan(model, machine, rows, chosen, reason, pretest, distcpSeconds, sequentialSeconds, newNotes);
  }
}
