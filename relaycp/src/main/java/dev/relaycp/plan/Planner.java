package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/** Builds a {@link Plan}: one estimate per p, the choice of p, and the pre-testing advice. */
public final class Planner {
  /**
   * How much faster, in standard deviations, the better half of a normal population is on
   * average than the whole: φ(0) / 0.5 = 2 / sqrt(2π).
   */
  static final double BEST_HALF_GAIN_IN_DEVIATIONS = 2 / Math.sqrt(2 * Math.PI);

  private static final double TIE = 1e-9;

  /**
   * A row counts as faster than another only if it saves more than this fraction of the time:
   * smaller differences come from how chunks happen to fall, not from anything worth a VM.
   */
  static final double SIGNIFICANT_SAVING = 0.001;

  private static final Map<String, CopyModel> MODELS =
      Map.of("thesis", new ThesisModel(), "relaycp", new RelaycpModel(), "distcp", new DistcpModel());

  private Planner() {}

  /** The model called {@code name}: {@code thesis}, {@code relaycp} or {@code distcp}. */
  public static CopyModel model(String name) {
    requireNonNull(name, "name is null");
    CopyModel model = MODELS.get(name.toLowerCase(Locale.ROOT));
    if (model == null) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "unknown model '" + name + "'; use thesis, relaycp or distcp");
    }
    return model;
  }

  /** Estimates p = {@code minimumPairs} .. {@code maximumPairs} and chooses one. */
  public static Plan plan(
      PlanInput input, CopyModel model, int minimumPairs, int maximumPairs, Constraints constraints) {
    requireNonNull(input, "input is null");
    requireNonNull(model, "model is null");
    requireNonNull(constraints, "constraints is null");
    if (minimumPairs < 0 || maximumPairs < minimumPairs) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "--pairs " + minimumPairs + "-" + maximumPairs + " is not a range of 0 or more; e.g. 0-8");
    }
    double egress = input.pricing().egressDollars(input.workload().totalSize());
    if (constraints.budgetDollars().isPresent() && constraints.budgetDollars().getAsDouble() < egress) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          String.format(
              Locale.ROOT,
              "--budget $%.4f is below the egress cost $%.4f of moving %s; raise --budget to at least $%.4f",
              constraints.budgetDollars().getAsDouble(), egress, input.workload().totalSize(), egress));
    }
    double distcpSeconds = new DistcpModel().estimate(input, 0).seconds();
    double sequentialSeconds = input.sequentialSeconds();
    List<PlanRow> rows = new ArrayList<>();
    for (int pairs = minimumPairs; pairs <= maximumPairs; pairs++) {
      Estimate estimate = model.estimate(input, pairs);
      rows.add(
          new PlanRow(
              estimate,
              pairs == 0 ? "-" : input.machine().name(),
              distcpSeconds / estimate.seconds(),
              sequentialSeconds / estimate.seconds()));
    }
    Choice choice = choose(rows, constraints, whatRelaysCost(input, model));
    PretestAdvice pretest = pretest(input, model, choice.row().pairs(), constraints.externalSpread());
    return new Plan(
        model.name(), input.machine(), rows, choice.row(), choice.reason(), pretest,
        distcpSeconds, sequentialSeconds, List.of());
  }

  /** A chosen row and why. */
  record Choice(PlanRow row, String reason) {}

  /**
   * What a spawned pair costs the copy before it pays, in the words of the plan's reason: its
   * boot and the internal transfers everywhere, and where the relaycp model puts the hosts on
   * shared cores, the CPU each spawned relay takes from the copy's file work.
   */
  static String whatRelaysCost(PlanInput input, CopyModel model) {
    SharedCores cores = input.relaycp().sharedCores();
    if (model instanceof RelaycpModel && cores.cores() > 0 && cores.spawnedCpuSeconds() > 0) {
      String count =
          cores.cores() == Math.rint(cores.cores())
              ? String.valueOf((long) cores.cores())
              : String.format(Locale.ROOT, "%.2f", cores.cores());
      // The first spawned pair's relays: each warms up on the files its route copies, at most
      // its share were the files spread evenly over every route.
      double filesPerRoute = RelaycpModel.filesPerRoute(input.workload(), input.source(), 1);
      String bytes = cores.cpuSecondsPerByte() > 0
          ? String.format(Locale.ROOT, " (where its bytes cost %.0f CPU-s per GB)",
              cores.cpuSecondsPerByte() * 1e9)
          : "";
      return String.format(
          Locale.ROOT,
          "their boot time, up to %.1f CPU-s each spawned relay takes from the copy's work on the"
              + " %s cores all hosts share%s, and the internal transfers",
          cores.spawnedCpuSecondsFor(filesPerRoute), count, bytes);
    }
    return "their boot time and the internal transfers";
  }

  static Choice choose(List<PlanRow> rows, Constraints constraints, String whatRelaysCost) {
    Predicate<PlanRow> withinBudget =
        row -> constraints.budgetDollars().isEmpty()
            || row.dollars() <= constraints.budgetDollars().getAsDouble() + TIE;
    Predicate<PlanRow> withinDeadline =
        row -> constraints.deadlineSeconds().isEmpty()
            || row.seconds() <= constraints.deadlineSeconds().getAsDouble() + TIE;
    List<PlanRow> affordable = rows.stream().filter(withinBudget).toList();
    if (affordable.isEmpty()) {
      PlanRow cheapest = rows.stream().min(Comparator.comparingDouble(PlanRow::dollars)).orElseThrow();
      throw new RelayCpException(
          INVALID_ARGUMENT,
          String.format(
              Locale.ROOT,
              "--budget $%.4f buys no row: the cheapest, p = %d, costs $%.4f; raise --budget",
              constraints.budgetDollars().getAsDouble(), cheapest.pairs(), cheapest.dollars()));
    }
    List<PlanRow> candidates = affordable.stream().filter(withinDeadline).toList();
    if (candidates.isEmpty()) {
      PlanRow fastest = affordable.stream().min(Comparator.comparingDouble(PlanRow::seconds)).orElseThrow();
      throw new RelayCpException(
          INVALID_ARGUMENT,
          String.format(
              Locale.ROOT,
              "--deadline %.1f s is impossible: the fastest%s row, p = %d, takes %.1f s; raise"
                  + " --deadline to at least %.1f s, allow more --pairs%s",
              constraints.deadlineSeconds().getAsDouble(),
              constraints.budgetDollars().isPresent() ? " affordable" : "",
              fastest.pairs(), fastest.seconds(), Math.ceil(fastest.seconds() * 10) / 10,
              constraints.budgetDollars().isPresent() ? " or raise --budget" : " or a faster --vm-type"));
    }
    String limits = limits(constraints);
    PlanRow first = candidates.get(0);
    boolean relaysCannotPay =
        candidates.stream().noneMatch(row -> row.pairs() > first.pairs() && faster(row, first));
    String cannotPay =
        relaysCannotPay && candidates.size() > 1
            ? String.format(
                Locale.ROOT,
                "; no p above %d is faster: relays cannot pay back %s on this copy",
                first.pairs(), whatRelaysCost)
            : "";
    switch (constraints.objective()) {
      case FASTEST: {
        PlanRow best = candidates.get(0);
        for (PlanRow row : candidates) {
          if (faster(row, best)) {
            best = row;
          }
        }
        return new Choice(
            best,
            String.format(Locale.ROOT, "fastest%s: p = %d takes %.1f s for $%.4f", limits, best.pairs(),
                best.seconds(), best.dollars()) + cannotPay);
      }
      case CHEAPEST: {
        PlanRow best = candidates.get(0);
        for (PlanRow row : candidates) {
          if (row.dollars() < best.dollars() - TIE
              || (Math.abs(row.dollars() - best.dollars()) <= TIE && row.seconds() < best.seconds() - TIE)) {
            best = row;
          }
        }
        return new Choice(
            best,
            String.format(Locale.ROOT, "cheapest%s: p = %d costs $%.4f and takes %.1f s", limits,
                best.pairs(), best.dollars(), best.seconds()) + cannotPay);
      }
      case BALANCED:
      default:
        return knee(candidates, constraints.kneeFraction(), limits, cannotPay);
    }
  }

  /**
   * The fewest pairs p such that no candidate q > p saves at least {@code fraction} of p's time
   * per added pair. Checking every larger q, not only p + 1, steps over a dip such as the
   * thesis's p = 1 that is slower than p = 0 while p = 4 is much faster.
   */
  private static Choice knee(List<PlanRow> candidates, double fraction, String limits, String cannotPay) {
    for (PlanRow row : candidates) {
      PlanRow better = null;
      for (PlanRow later : candidates) {
        int added = later.pairs() - row.pairs();
        if (added > 0 && row.seconds() - later.seconds() >= fraction * added * row.seconds()) {
          better = later;
          break;
        }
      }
      if (better == null) {
        PlanRow next =
            candidates.stream().filter(later -> later.pairs() == row.pairs() + 1).findFirst().orElse(null);
        String beyond =
            next == null
                ? String.format(Locale.ROOT, "; p = %d is the largest allowed", row.pairs())
                : String.format(
                    Locale.ROOT,
                    "; no larger p saves %.0f%% of the time per added pair (p = %d: %.1f s, $%.4f)",
                    fraction * 100, next.pairs(), next.seconds(), next.dollars());
        return new Choice(
            row,
            String.format(Locale.ROOT, "balanced%s: p = %d takes %.1f s for $%.4f", limits,
                row.pairs(), row.seconds(), row.dollars()) + beyond + cannotPay);
      }
    }
    throw new IllegalStateException("the last candidate always qualifies");
  }

  private static boolean faster(PlanRow row, PlanRow than) {
    return row.seconds() < than.seconds() * (1 - SIGNIFICANT_SAVING);
  }

  private static String limits(Constraints constraints) {
    StringBuilder text = new StringBuilder();
    constraints.budgetDollars().ifPresent(
        budget -> text.append(String.format(Locale.ROOT, " within $%.4f", budget)));
    constraints.deadlineSeconds().ifPresent(
        deadline -> text.append(String.format(Locale.ROOT, " within %.1f s", deadline)));
    return text.toString();
  }

  /**
   * Pre-testing for p pairs: 2p VMs are spawned and probed for T_pt, and the better half kept,
   * whose mean WAN rate is higher by {@link #BEST_HALF_GAIN_IN_DEVIATIONS} standard deviations
   * when VM rates spread normally. For the thesis model this is eqs. 4.1-4.2 at that rate; for
   * the others the kept relays join T_pt later, and the discarded VMs are billed from request to
   * the end of the probe.
   */
  static PretestAdvice pretest(PlanInput input, CopyModel model, int pairs, double spread) {
    double pretestSeconds = input.thesis().pretestSeconds();
    if (pairs == 0) {
      Estimate none = model.estimate(input, 0);
      return new PretestAdvice(
          false, 0, pretestSeconds, none.seconds(), none.dollars(), none.seconds(), none.dollars(),
          "no relays are spawned at p = 0, so there is nothing to pre-test");
    }
    MachineType machine = input.machine();
    double gain = BEST_HALF_GAIN_IN_DEVIATIONS * spread;
    DataRate bestHalf = machine.external().times(1 + gain);
    Estimate without = model.estimate(input, pairs);
    double secondsWith;
    double dollarsWith;
    if (model instanceof ThesisModel) {
      double cpt = ThesisModel.cptSeconds(input, pairs, bestHalf);
      DataSize size = input.workload().totalSize();
      secondsWith = ThesisModel.pretestedSeconds(pretestSeconds, cpt);
      dollarsWith =
          ThesisModel.pretestedDollars(cpt, pretestSeconds, pairs, machine.dollarsPerHour(), size, input.pricing());
    } else {
      MachineType probed =
          new MachineType(
              machine.provider(), machine.region(), machine.name(), machine.dollarsPerHour(),
              bestHalf, machine.internal(), machine.bootSeconds() + pretestSeconds,
              machine.billingGranularitySeconds(), machine.billingMinimumSeconds(), machine.source());
      Estimate with = model.estimate(input.withMachine(probed), pairs);
      secondsWith = with.seconds();
      dollarsWith = with.dollars() + 2 * pairs * machine.dollarsFor(machine.bootSeconds() + pretestSeconds);
    }
    boolean pays = secondsWith < without.seconds() - TIE;
    String reason =
        pays
            ? String.format(
                Locale.ROOT,
                "pre-testing pays: spawning %d VMs, probing %.0f s and keeping the best %d pairs"
                    + " (about %.1f%% more WAN each at a %.0f%% spread) is predicted to finish in %.1f s"
                    + " instead of %.1f s, for $%.4f instead of $%.4f",
                4 * pairs, pretestSeconds, pairs, gain * 100, spread * 100, secondsWith,
                without.seconds(), dollarsWith, without.dollars())
            : String.format(
                Locale.ROOT,
                "pre-testing does not pay: the %.0f s probe costs more than the better half of %d VMs"
                    + " (about %.1f%% more WAN each at a %.0f%% spread) saves on this copy (%.1f s"
                    + " instead of %.1f s)",
                pretestSeconds, 4 * pairs, gain * 100, spread * 100, secondsWith, without.seconds());
    return new PretestAdvice(
        pays, pairs, pretestSeconds, without.seconds(), without.dollars(), secondsWith, dollarsWith, reason);
  }
}
