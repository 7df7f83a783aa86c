package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Pins each thesis equation at the thesis's own parameters (Tables 4.3, 4.4, 4.5, 4.6). */
class ThesisModelTest {
  // Table 4.3, in the thesis's MB (= MiB): T_v = 90 s, v_s = 65, v_i = 90, v_e = 15 MB/s.
  private static final double SETUP = 90;
  private static final DataRate SPLIT = DataRate.ofMebibytesPerSecond(65);
  private static final DataRate INTERNAL = DataRate.ofMebibytesPerSecond(90);
  private static final DataRate EXTERNAL = DataRate.ofMebibytesPerSecond(15);
  private static final DataSize EIGHT_GB = DataSize.ofMebibytes(8192);
  private static final Pricing TABLE_4_4 = new Pricing(0.02, 0);

  @Test
  void sequentialCopyOfEightGigabytesTakes546Seconds() {
    // T_sq = 8192 / 15
    assertThat(ThesisModel.sequentialSeconds(EIGHT_GB, EXTERNAL)).isCloseTo(546.133, within(0.001));
  }

  @Test
  void pipedEquation34WithFourPairsTakes408Point6Seconds() {
    // 90 + 2 * 8192 / 90 + 8192 / (4 * 15) = 90 + 182.044 + 136.533
    assertThat(ThesisModel.pipedSeconds(EIGHT_GB, 4, SETUP, INTERNAL, EXTERNAL))
        .isCloseTo(408.578, within(0.001));
    assertThat(ThesisModel.pipedSeconds(EIGHT_GB, 8, SETUP, INTERNAL, EXTERNAL))
        .isCloseTo(340.311, within(0.001));
    // Table 5.7's shape: one pair is slower than the sequential copy.
    assertThat(ThesisModel.pipedSeconds(EIGHT_GB, 1, SETUP, INTERNAL, EXTERNAL))
        .isCloseTo(818.178, within(0.001))
        .isGreaterThan(ThesisModel.sequentialSeconds(EIGHT_GB, EXTERNAL));
  }

  @Test
  void basicEquation32WithFourPairs() {
    // 90 + 2 * 8192/65 + 2 * 8192/90 + 8192/60 = 90 + 252.062 + 182.044 + 136.533
    assertThat(ThesisModel.basicSeconds(EIGHT_GB, 4, SETUP, SPLIT, INTERNAL, EXTERNAL))
        .isCloseTo(660.640, within(0.001));
  }

  @Test
  void basicEquation32WithEightPairsBreaksEvenAtAbout16850Mebibytes() {
    // 90 + s (2/65 + 2/90 + 1/120) = s / 15  =>  s = 90 / (1/15 - 2/65 - 2/90 - 1/120)
    double breakEven = 90 / (1.0 / 15 - 2.0 / 65 - 2.0 / 90 - 1.0 / 120);
    assertThat(breakEven).isCloseTo(16848.1, within(0.1));
    DataSize below = DataSize.ofMebibytes(16_800);
    DataSize above = DataSize.ofMebibytes(16_900);
    assertThat(ThesisModel.basicSeconds(below, 8, SETUP, SPLIT, INTERNAL, EXTERNAL))
        .isGreaterThan(ThesisModel.sequentialSeconds(below, EXTERNAL));
    assertThat(ThesisModel.basicSeconds(above, 8, SETUP, SPLIT, INTERNAL, EXTERNAL))
        .isLessThan(ThesisModel.sequentialSeconds(above, EXTERNAL));
    DataSize atBreakEven = DataSize.ofMebibytes(breakEven);
    assertThat(ThesisModel.basicSeconds(atBreakEven, 8, SETUP, SPLIT, INTERNAL, EXTERNAL))
        .isCloseTo(ThesisModel.sequentialSeconds(atBreakEven, EXTERNAL), within(0.01));
  }

  @Test
  void basicWithTwoAndFourPairsNeverBeatsSequentialAsFigure43Shows() {
    // With p = 4 the per-MB cost 2/65 + 2/90 + 1/60 = 0.0696 exceeds 1/15 = 0.0667.
    for (int mebibytes = 1; mebibytes <= 1 << 20; mebibytes *= 2) {
      DataSize size = DataSize.ofMebibytes(mebibytes);
      for (int pairs : new int[] {2, 4}) {
        assertThat(ThesisModel.basicSeconds(size, pairs, SETUP, SPLIT, INTERNAL, EXTERNAL))
            .isGreaterThan(ThesisModel.sequentialSeconds(size, EXTERNAL));
      }
    }
  }

  @Test
  void pipelinedEquation33WithFourPairs() {
    // max(90, 8192/65) + 2048/90 + 2048/15 + 2048/90 + 8192/65
    //   = 126.031 + 22.756 + 136.533 + 22.756 + 126.031
    assertThat(ThesisModel.pipelinedSeconds(EIGHT_GB, 4, SETUP, SPLIT, INTERNAL, EXTERNAL))
        .isCloseTo(434.106, within(0.001));
    // A small copy: the VM setup (90 s) outlasts the split (650/65 = 10 s).
    assertThat(
            ThesisModel.pipelinedSeconds(
                DataSize.ofMebibytes(650), 2, SETUP, SPLIT, INTERNAL, EXTERNAL))
        .isCloseTo(90 + 325.0 / 90 + 325.0 / 15 + 325.0 / 90 + 10, within(0.001));
  }

  @Test
  void hdfsEquation51AddsExportAndImport() {
    double cpt = ThesisModel.pipedSeconds(EIGHT_GB, 4, SETUP, INTERNAL, EXTERNAL);
    // 8192/65 before and after
    assertThat(ThesisModel.hdfsSeconds(EIGHT_GB, cpt, SPLIT, SPLIT))
        .isCloseTo(408.578 + 2 * 126.031, within(0.001));
  }

  @Test
  void costEquations35To37AtTable44Prices() {
    // C_sq = 8 GB * $0.02/GB
    assertThat(ThesisModel.sequentialDollars(EIGHT_GB, TABLE_4_4)).isCloseTo(0.16, within(1e-12));
    // C_CPT = 408.578 s * 8 VMs * $0.0464/h / 3600 + 0.16 (t2.medium, Table 4.1)
    double cpt = ThesisModel.pipedSeconds(EIGHT_GB, 4, SETUP, INTERNAL, EXTERNAL);
    assertThat(ThesisModel.cptDollars(cpt, 4, 0.0464, EIGHT_GB, TABLE_4_4))
        .isCloseTo(0.16 + 408.578 * 8 * 0.0464 / 3600, within(1e-6))
        .isCloseTo(0.20213, within(1e-5));
    // Eq. 3.7 can never undercut eq. 3.5.
    assertThat(ThesisModel.cptDollars(cpt, 4, 0.0464, EIGHT_GB, TABLE_4_4))
        .isGreaterThan(ThesisModel.sequentialDollars(EIGHT_GB, TABLE_4_4));
  }

  @Test
  void pretestEquations41And42() {
    double cpt = ThesisModel.pipedSeconds(EIGHT_GB, 4, SETUP, INTERNAL, EXTERNAL);
    assertThat(ThesisModel.pretestedSeconds(60, cpt)).isCloseTo(468.578, within(0.001));
    // n C_v (T_CPT + 2 T_pt) + C_sq = 8 * 0.0464/3600 * (408.578 + 120) + 0.16
    assertThat(ThesisModel.pretestedDollars(cpt, 60, 4, 0.0464, EIGHT_GB, TABLE_4_4))
        .isCloseTo(8 * 0.0464 / 3600 * (cpt + 120) + 0.16, within(1e-12))
        .isCloseTo(0.21450, within(1e-5));
  }

  @Test
  void h1TwoXlargeOfTables45And46() {
    // T_v = 90 s, v_i = 315, v_e = 30 MB/s at $0.468/h
    DataRate internal = DataRate.ofMebibytesPerSecond(315);
    DataRate external = DataRate.ofMebibytesPerSecond(30);
    double seconds = ThesisModel.pipedSeconds(EIGHT_GB, 4, 90, internal, external);
    assertThat(seconds).isCloseTo(90 + 2 * 8192 / 315.0 + 8192 / 120.0, within(1e-9))
        .isCloseTo(210.279, within(0.001));
    assertThat(ThesisModel.cptDollars(seconds, 4, 0.468, EIGHT_GB, TABLE_4_4))
        .isCloseTo(0.16 + 210.279 * 8 * 0.468 / 3600, within(1e-5));
  }

  @Test
  void estimateReportsTheChosenVariantAndTheSequentialCopyAtZeroPairs() {
    MachineType machine =
        new MachineType("what-if", "-", "what-if", 0.0464, EXTERNAL, INTERNAL, SETUP, 1, 0, "Table 4.3");
    PlanInput input =
        new PlanInput(
            Workload.equalFiles(EIGHT_GB, 1), Site.of(1, EXTERNAL, INTERNAL), Site.of(1, EXTERNAL, INTERNAL),
            machine, TABLE_4_4, RelaycpSettings.DEFAULT, DistcpSettings.DEFAULT, ThesisSettings.DEFAULT);
    ThesisModel model = new ThesisModel();
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(546.133, within(0.001));
    assertThat(model.estimate(input, 4).seconds()).isCloseTo(408.578, within(0.001));
    PlanInput basic = withVariant(input, ThesisVariant.BASIC);
    assertThat(model.estimate(basic, 4).seconds()).isCloseTo(660.640, within(0.001));
    PlanInput pipelined = withVariant(input, ThesisVariant.PIPELINED);
    assertThat(model.estimate(pipelined, 4).seconds()).isCloseTo(434.106, within(0.001));
    PlanInput hdfs = withVariant(input, ThesisVariant.HDFS);
    assertThat(model.estimate(hdfs, 4).seconds()).isCloseTo(408.578 + 2 * 126.031, within(0.001));
    assertThat(model.estimate(hdfs, 4).dollars())
        .isCloseTo(0.16 + (408.578 + 2 * 126.031) * 8 * 0.0464 / 3600, within(1e-5));
  }

  private static PlanInput withVariant(PlanInput input, ThesisVariant variant) {
    return new PlanInput(
        input.workload(), input.source(), input.destination(), input.machine(), input.pricing(),
        input.relaycp(), input.distcp(), input.thesis().withVariant(variant));
  }
}
