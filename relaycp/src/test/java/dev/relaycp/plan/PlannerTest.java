package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import org.junit.jupiter.api.Test;

class PlannerTest {
  /** The thesis's hypothetical of Table 4.3: every node and VM alike, t2.medium's price. */
  private static PlanInput thesisCase(double mebibytes, double internalMebibytesPerSecond) {
    DataRate external = DataRate.ofMebibytesPerSecond(15);
    DataRate internal = DataRate.ofMebibytesPerSecond(internalMebibytesPerSecond);
    MachineType machine =
        new MachineType("what-if", "-", "what-if", 0.0464, external, internal, 90, 1, 0, "flags");
    return new PlanInput(
        Workload.equalFiles(DataSize.ofMebibytes(mebibytes), 1),
        Site.of(1, external, internal),
        Site.of(1, external, internal),
        machine,
        new Pricing(0.02, 0),
        RelaycpSettings.DEFAULT,
        DistcpSettings.DEFAULT,
        ThesisSettings.DEFAULT);
  }

  private static Plan thesisPlan(double mebibytes, Constraints constraints) {
    return Planner.plan(thesisCase(mebibytes, 90), new ThesisModel(), 0, 8, constraints);
  }

  @Test
  void rowsFollowEquation34AndSpeedupsUseTheBaselines() {
    Plan plan = thesisPlan(8192, Constraints.of(Objective.BALANCED));
    assertThat(plan.rows()).hasSize(9);
    assertThat(plan.rows().get(0).seconds()).isCloseTo(546.133, within(0.001));
    assertThat(plan.rows().get(0).dollars()).isCloseTo(0.16, within(1e-12));
    assertThat(plan.rows().get(0).speedupVersusSequential()).isCloseTo(1.0, within(1e-12));
    assertThat(plan.rows().get(4).seconds()).isCloseTo(408.578, within(0.001));
    assertThat(plan.rows().get(4).estimate().relaysStarted()).isEqualTo(8);
    assertThat(plan.rows().get(4).speedupVersusSequential()).isCloseTo(546.133 / 408.578, within(1e-4));
    assertThat(plan.rows().get(4).speedupVersusDistcp())
        .isCloseTo(plan.distcpSeconds() / 408.578, within(1e-4));
    assertThat(plan.rows().get(8).seconds()).isCloseTo(340.311, within(0.001));
  }

  @Test
  void balancedStopsWhereOneMorePairSavesLessThanFivePercent() {
    // p = 5 takes 381.3 s; p = 6 would save 18.2 s, less than 5% of 381.3 s, and no larger p
    // saves 5% per added pair; p = 4 -> 5 still saves 27.3 s (6.7%).
    Plan plan = thesisPlan(8192, Constraints.of(Objective.BALANCED));
    assertThat(plan.chosen().pairs()).isEqualTo(5);
    assertThat(plan.reason()).startsWith("balanced: p = 5 takes 381.3 s");
  }

  @Test
  void fastestAndCheapestWithoutLimits() {
    assertThat(thesisPlan(8192, Constraints.of(Objective.FASTEST)).chosen().pairs()).isEqualTo(8);
    assertThat(thesisPlan(8192, Constraints.of(Objective.CHEAPEST)).chosen().pairs()).isZero();
  }

  @Test
  void fastestHonoursTheBudget() {
    // p = 3 costs $0.1951, p = 4 $0.2021 (eq. 3.7 at $0.0464/h).
    Plan plan = thesisPlan(8192, Constraints.of(Objective.FASTEST).withBudget(0.20));
    assertThat(plan.chosen().pairs()).isEqualTo(3);
    assertThat(plan.chosen().dollars()).isCloseTo(0.1951, within(1e-4)).isLessThanOrEqualTo(0.20);
    assertThat(plan.rows().get(4).dollars()).isCloseTo(0.2021, within(1e-4));
    assertThat(plan.reason()).startsWith("fastest within $0.2000: p = 3");
  }

  @Test
  void cheapestHonoursTheDeadline() {
    // Rows within 400 s are p = 5..8; p = 5 is the cheapest of them.
    Plan plan = thesisPlan(8192, Constraints.of(Objective.CHEAPEST).withDeadline(400));
    assertThat(plan.chosen().pairs()).isEqualTo(5);
    assertThat(plan.chosen().seconds()).isLessThanOrEqualTo(400);
  }

  @Test
  void balancedHonoursBothLimits() {
    Plan plan = thesisPlan(8192, Constraints.of(Objective.BALANCED).withBudget(0.20).withDeadline(500));
    // Within $0.20: p <= 3; within 500 s: p >= 3.
    assertThat(plan.chosen().pairs()).isEqualTo(3);
  }

  @Test
  void anImpossibleDeadlineIsAnErrorNamingTheFastestTime() {
    assertThatThrownBy(() -> thesisPlan(8192, Constraints.of(Objective.CHEAPEST).withDeadline(300)))
        .isInstanceOf(RelayCpException.class)
        .hasMessage(
            "--deadline 300.0 s is impossible: the fastest row, p = 8, takes 340.3 s; raise"
                + " --deadline to at least 340.4 s, allow more --pairs or a faster --vm-type")
        .extracting(e -> ((RelayCpException) e).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void aBudgetBelowTheEgressCostIsAnError() {
    assertThatThrownBy(() -> thesisPlan(8192, Constraints.of(Objective.FASTEST).withBudget(0.10)))
        .isInstanceOf(RelayCpException.class)
        .hasMessage(
            "--budget $0.1000 is below the egress cost $0.1600 of moving 8.00 GiB; raise --budget to"
                + " at least $0.1600");
  }

  @Test
  void smallCopiesChooseNoRelays() {
    // 100 MiB: 6.7 s alone; any pair pays 90 s of boot first.
    for (Objective objective : Objective.values()) {
      Plan plan = thesisPlan(100, Constraints.of(objective));
      assertThat(plan.chosen().pairs()).as(objective.name()).isZero();
      assertThat(plan.reason()).contains("relays cannot pay");
    }
    Plan relaycp =
        Planner.plan(thesisCase(100, 90), new RelaycpModel(), 0, 8, Constraints.of(Objective.FASTEST));
    assertThat(relaycp.chosen().pairs()).isZero();
  }

  @Test
  void aLowInternalToExternalRatioChoosesNoRelays() {
    // Thesis §4.2.3: with v_i = 20 and v_e = 15 MiB/s eq. 3.4 spends 2s/v_i = 819 s inside the
    // sites, more than the 546 s of the sequential copy, for any p.
    Plan thesis = Planner.plan(thesisCase(8192, 20), new ThesisModel(), 0, 8, Constraints.of(Objective.FASTEST));
    assertThat(thesis.chosen().pairs()).isZero();
    // relaycp: a datanode whose NIC carries 15 MiB/s in all cannot feed any relay beyond its own.
    Plan relaycp = Planner.plan(thesisCase(8192, 15), new RelaycpModel(), 0, 8, Constraints.of(Objective.FASTEST));
    assertThat(relaycp.chosen().pairs()).isZero();
    assertThat(relaycp.reason()).contains("relays cannot pay");
  }

  @Test
  void pretestingDoesNotPayOnEightGigabytesButPaysOnATebibyte() {
    // p = 4, 10% spread: the best half is 7.98% faster; eq. 3.4 at 16.2 MiB/s gives 398.5 s,
    // plus 60 s of probing (eq. 4.1) is 458.5 s against 408.6 s.
    PretestAdvice small = Planner.pretest(thesisCase(8192, 90), new ThesisModel(), 4, 0.10);
    assertThat(small.pays()).isFalse();
    assertThat(small.secondsWith()).isCloseTo(60 + 272.044 + 8192 / (4 * 15 * (1 + 0.0797885)), within(0.001));
    assertThat(small.reason()).startsWith("pre-testing does not pay");
    // 1 TiB with p = 8: the saved 646 s of WAN time outweigh the 60 s probe.
    PretestAdvice large = Planner.pretest(thesisCase(1 << 20, 90), new ThesisModel(), 8, 0.10);
    assertThat(large.pays()).isTrue();
    assertThat(large.secondsWithout() - large.secondsWith())
        .isCloseTo((1 << 20) / 120.0 * (1 - 1 / 1.0797885) - 60, within(0.01));
    // Eq. 4.2: n C_v (T_CPT + 2 T_pt) + C_sq.
    double cpt = large.secondsWith() - 60;
    assertThat(large.dollarsWith()).isCloseTo(16 * 0.0464 / 3600 * (cpt + 120) + 1024 * 0.02, within(1e-9));
  }

  @Test
  void unknownModelAndBadPairRangeAreErrors() {
    assertThatThrownBy(() -> Planner.model("magic")).hasMessage("unknown model 'magic'; use thesis, relaycp or distcp");
    assertThatThrownBy(() -> Planner.plan(thesisCase(100, 90), new ThesisModel(), 3, 2, Constraints.of(Objective.FASTEST)))
        .hasMessageStartingWith("--pairs 3-2 is not a range");
  }

  @Test
  void whatSpawnedRelaysCannotPayBackNamesTheSharedCoresCpuOnlyForTheRelaycpModel() {
    // 3,000 files on 3 datanodes: 750 a route with the first pair, more than the 600 its
    // relays' warm-up was measured over, so all of their 12 CPU-s.
    PlanInput ownCores = Inputs.input(Inputs.files(3000, 0.0625), Inputs.site(3, 10, 100),
        Inputs.site(3, 10, 100), Inputs.machine(10, 100, 20));
    SharedCores twoCores = SharedCores.of(2, 12, 2).withSpawnedCpuFiles(600);
    PlanInput shared = Inputs.withRelaycp(ownCores, ownCores.relaycp().withSharedCores(twoCores));
    PlanInput withBytes = Inputs.withRelaycp(ownCores, ownCores.relaycp().withSharedCores(
        twoCores.withCpuSecondsPerByte(95.5e-9)));

    assertThat(Planner.whatRelaysCost(ownCores, new RelaycpModel()))
        .isEqualTo("their boot time and the internal transfers");
    assertThat(Planner.whatRelaysCost(shared, new DistcpModel()))
        .isEqualTo("their boot time and the internal transfers");
    assertThat(Planner.whatRelaysCost(shared, new RelaycpModel()))
        .isEqualTo("their boot time, up to 12.0 CPU-s each spawned relay takes from the copy's work"
            + " on the 2 cores all hosts share, and the internal transfers");
    assertThat(Planner.whatRelaysCost(withBytes, new RelaycpModel()))
        .isEqualTo("their boot time, up to 12.0 CPU-s each spawned relay takes from the copy's work"
            + " on the 2 cores all hosts share (where its bytes cost 96 CPU-s per GB), and the"
            + " internal transfers");
  }
}
