package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import dev.relaycp.plan.AutoPairs;
import dev.relaycp.transfer.SourceTree;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code --pairs auto}'s choice for one copy, made once, when the copy asks for its relays: from
 * the listing the copy made, which holds only what it will send (--update's equal files and
 * those an earlier run committed are left out), so that the plan is of the copy's own work and
 * the source is listed once. With nothing left to send the planner has nothing to weigh, and the
 * copy starts the fewest pairs it may.
 */
final class PairsChoice {
  private final Function<SourceTree, AutoPairs> planner;
  private final int fewest;
  private final Consumer<String> announce;
  private Chosen chosen;

  /** The pairs, and the plan they came from when there was one. */
  private record Chosen(int pairs, Optional<AutoPairs> plan) {}

  private PairsChoice(Function<SourceTree, AutoPairs> planner, int fewest,
      Consumer<String> announce) {
    this.planner = planner;
    this.fewest = fewest;
    this.announce = announce;
  }

  /**
   * A choice by {@code planner}, which chooses at least {@code fewest} pairs, the number started
   * when there is nothing to plan; {@code announce} hears one line saying what was chosen and
   * why.
   */
  static PairsChoice of(Function<SourceTree, AutoPairs> planner, int fewest,
      Consumer<String> announce) {
    requireNonNull(planner, "planner is null");
    requireNonNull(announce, "announce is null");
    if (fewest < 0) {
      throw new IllegalArgumentException("fewest must not be negative, got " + fewest);
    }
    return new PairsChoice(planner, fewest, announce);
  }

  /** The pairs to start for {@code tree}, chosen at the first call. */
  synchronized int pairs(SourceTree tree) {
    requireNonNull(tree, "tree is null");
    if (chosen == null) {
      if (tree.files().isEmpty()) {
        chosen = new Chosen(fewest, Optional.empty());
        announce.accept(String.format(Locale.ROOT,
            "nothing to send, so nothing to plan: starting %d pair(s)", fewest));
      } else {
        AutoPairs plan = planner.apply(tree);
        chosen = new Chosen(plan.pairs(), Optional.of(plan));
        announce.accept(String.format(Locale.ROOT, "starting %d pair(s): %s", chosen.pairs(),
            plan.plan().reason()));
      }
    }
    return chosen.pairs();
  }

  /** The plan the pairs came from; empty before the choice, or when nothing was to be sent. */
  synchronized Optional<AutoPairs> plan() {
    return chosen == null ? Optional.empty() : chosen.plan();
  }

  /** The JSON summary's {@code plan}; empty before the choice. */
  synchronized Optional<Map<String, Object>> summary() {
    if (chosen == null) {
      return Optional.empty();
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("pairs", chosen.pairs());
    summary.put("predictedSeconds",
        chosen.plan().map(plan -> plan.plan().chosen().seconds()).orElse(0.0));
    summary.put("reason", chosen.plan().map(plan -> plan.plan().reason())
        .orElse("nothing to send: every listed file was equal or committed already"));
    summary.put("notes", chosen.plan().map(AutoPairs::notes).orElse(List.of()));
    return Optional.of(summary);
  }
}
