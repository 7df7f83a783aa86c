package dev.relaycp.plan;

import static dev.relaycp.plan.Inputs.files;
import static dev.relaycp.plan.Inputs.input;
import static dev.relaycp.plan.Inputs.machine;
import static dev.relaycp.plan.Inputs.site;
import static dev.relaycp.plan.Inputs.withDistcp;
import static dev.relaycp.plan.Inputs.withPricing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DistcpModelTest {
  private final DistcpModel model = new DistcpModel();

  @Test
  void oneFileIsOneMapOnOneNode() {
    // job 10 s + task 2 s + file 1 s + 1000 MiB at 10 MiB/s; the second node idles.
    PlanInput input =
        withDistcp(
            input(files(1, 1000), site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20)),
            new DistcpSettings(20, 1, 10, 2, 1, 0, DataSize.ofMebibytes(128)));
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(113, within(1e-6));
  }

  @Test
  void blocksPerChunkSplitsAFileIntoMaps() {
    // 10 pieces of 100 MiB, 20 maps of at most 50 MiB: one piece per map, 2 slots: 5 waves of
    // 2 + 1 + 10 s, after the 10 s job start.
    PlanInput input =
        withDistcp(
            input(files(1, 1000), site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20)),
            new DistcpSettings(20, 1, 10, 2, 1, 1, DataSize.ofMebibytes(100)));
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(75, within(1e-6));
  }

  @Test
  void fewerSlotsThanFilesRunInWaves() {
    // 8 maps of one 100 MiB file on 2 slots sharing one node's 10 MiB/s: each wave is
    // 5 s task start + 1 s file + 100 MiB at 5 MiB/s = 26 s; 4 waves after a 10 s job start.
    PlanInput input =
        withDistcp(
            input(files(8, 100), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 20)),
            new DistcpSettings(20, 2, 10, 5, 1, 0, DataSize.ofMebibytes(128)));
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(114, within(1e-6));
    // One slot: 8 maps of 5 + 1 + 10 s one after another.
    PlanInput oneSlot =
        withDistcp(input, new DistcpSettings(20, 1, 10, 5, 1, 0, DataSize.ofMebibytes(128)));
    assertThat(model.estimate(oneSlot, 0).seconds()).isCloseTo(138, within(1e-6));
  }

  @Test
  void manyEqualFilesShareMapsOfEqualBytes() {
    // 40 files of 10 MiB, 20 maps of 20 MiB: two files per map, per-file cost 1 s; 2 nodes with
    // 1 slot: 10 waves of (1 + 1 + 2 x 1 s).
    PlanInput input =
        withDistcp(
            input(files(40, 10), site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20)),
            new DistcpSettings(20, 1, 0, 0, 1, 0, DataSize.ofMebibytes(128)));
    assertThat(DistcpModel.maps(input.workload(), input.distcp())).hasSize(20);
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(40, within(1e-6));
  }

  @Test
  void aHugeFileHoldsItsMapWhileSmallFilesWait() {
    // 2 x 1000 MiB and 100 x 1 MiB over 20 maps of 105 MiB: each huge file is a map, the small
    // files share a third map that waits for a slot: 100 s + 10 s. relaycp's chunks take 105 s.
    Workload workload =
        Workload.of(
            new Workload.FileGroup(2, DataSize.ofMebibytes(1000)),
            new Workload.FileGroup(100, DataSize.ofMebibytes(1)));
    PlanInput input = input(workload, site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20));
    assertThat(DistcpModel.maps(input.workload(), input.distcp())).hasSize(3);
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(110, within(1e-6));
    assertThat(new RelaycpModel().estimate(input, 0).seconds()).isCloseTo(105, within(1e-6));
  }

  @Test
  void addedNodesJoinAfterBootAndPricedNodeHoursCount() {
    // 4 files of 100 MiB, each a map of its own, 1 node with 1 slot: 4 x 10 s alone. With one
    // pair booting in 10 s: node 0 runs map 1 (0-10 s); at 10 s node 0 takes map 2 and the new
    // node map 3 (the destination's WAN cap grows to 20 MiB/s), both end at 20 s; map 4 ends
    // at 30 s.
    PlanInput input =
        withPricing(
            input(files(4, 100), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 10)),
            new Pricing(0.02, 0.36));
    Estimate none = model.estimate(input, 0);
    assertThat(none.seconds()).isCloseTo(40, within(1e-6));
    // Egress + one source node for 40 s at $0.36/h.
    assertThat(none.dollars()).isCloseTo(400.0 / 1024 * 0.02 + 0.36 * 40 / 3600, within(1e-9));
    Estimate one = model.estimate(input, 1);
    assertThat(one.seconds()).isCloseTo(30, within(1e-6));
    assertThat(one.relaysStarted()).isEqualTo(2);
  }
}
