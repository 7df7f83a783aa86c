package dev.relaycp.plan;

import static dev.relaycp.plan.Inputs.files;
import static dev.relaycp.plan.Inputs.input;
import static dev.relaycp.plan.Inputs.machine;
import static dev.relaycp.plan.Inputs.mebibytesPerSecond;
import static dev.relaycp.plan.Inputs.site;
import static dev.relaycp.plan.Inputs.withDistcp;
import static dev.relaycp.plan.Inputs.withPricing;
import static dev.relaycp.plan.Inputs.withRelaycp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class DistcpModelTest {
  private final DistcpModel model = new DistcpModel();

  /** A destination that never binds: one node (so no random placement) with a wide WAN. */
  private static Site wideDestination() {
    return site(1, 1000, 1000);
  }

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
  void mapsOnNodesWithoutTheBytesFetchThemOverTheHoldersLink() {
    // Three files of 1000 MiB, one map each on three nodes at 10 MiB/s: 100 s spread evenly.
    // All on dn1, whose link carries 15 MiB/s in all, its own map's WAN traffic included: 200 s.
    Site spread = site(3, 10, 15);
    PlanInput even = withDistcp(
        input(files(3, 1000), spread, wideDestination(), machine(10, 100, 20)),
        new DistcpSettings(20, 1, 0, 0, 0, 0, DataSize.ofMebibytes(128)));
    PlanInput one = withDistcp(
        input(files(3, 1000), spread.withPlacement(Placement.onOne(3, 1)), wideDestination(),
            machine(10, 100, 20)),
        new DistcpSettings(20, 1, 0, 0, 0, 0, DataSize.ofMebibytes(128)));

    assertThat(model.estimate(even, 0).seconds()).isCloseTo(100, within(1e-6));
    assertThat(model.estimate(one, 0).seconds()).isCloseTo(200, within(1e-6));
  }

  @Test
  void mapsBeyondTheConcurrentFilesShareThePerFileCost() {
    // 60 files of 1 KiB, 6 maps of 10 files on 3 nodes x 2 slots, 1 s per file for a lone map.
    // Three at full speed at once: the six maps go at half speed, 20 s; no limit: 10 s (plus the
    // bytes, 10 KiB at 1000 MiB/s shared by two maps, about 20 microseconds).
    PlanInput input =
        input(files(60, 1.0 / 1024), site(3, 1000, 1000), wideDestination(), machine(10, 100, 20));
    PlanInput shared =
        withDistcp(input, new DistcpSettings(6, 2, 0, 0, 1, 0, DataSize.ofMebibytes(128), 3));
    assertThat(DistcpModel.maps(shared.workload(), shared.distcp())).hasSize(6);
    assertThat(model.estimate(shared, 0).seconds()).isCloseTo(20, within(0.01));
    PlanInput unlimited =
        withDistcp(input, new DistcpSettings(6, 2, 0, 0, 1, 0, DataSize.ofMebibytes(128), 0));
    assertThat(model.estimate(unlimited, 0).seconds()).isCloseTo(10, within(0.01));
  }

  @Test
  void aFilesWaitForItsCloseHoldsNoSharedLane() {
    // The 6 maps of 10 files on 3 lanes again, each file 1 s of work and 1 s waiting for its
    // close. Counted as 2 s of work, the six share the lanes throughout: 10 x 2 x 6 / 3 = 40 s.
    // Kept apart, the six wait together (1 s) and then work together at half speed (2 s): 30 s.
    // With no limit on the lanes both are 10 x (1 + 1) = 20 s.
    PlanInput input =
        input(files(60, 1.0 / 1024), site(3, 1000, 1000), wideDestination(), machine(10, 100, 20));
    DistcpSettings lanes = new DistcpSettings(6, 2, 0, 0, 1, 0, DataSize.ofMebibytes(128), 3);
    DistcpSettings lumped = new DistcpSettings(6, 2, 0, 0, 2, 0, DataSize.ofMebibytes(128), 3);
    DistcpSettings apart = lanes.withCloseWaitSeconds(1);

    assertThat(model.estimate(withDistcp(input, lumped), 0).seconds()).isCloseTo(40, within(0.01));
    assertThat(model.estimate(withDistcp(input, apart), 0).seconds()).isCloseTo(30, within(0.01));
    DistcpSettings unlimited = new DistcpSettings(6, 2, 0, 0, 1, 0, DataSize.ofMebibytes(128), 0);
    assertThat(model.estimate(withDistcp(input, unlimited.withCloseWaitSeconds(1)), 0).seconds())
        .isCloseTo(20, within(0.01));
    assertThat(model.estimate(withDistcp(input, apart.withStrategy(
        DistcpSettings.Strategy.DYNAMIC)), 0).seconds()).isLessThan(40);
    assertThatThrownBy(() -> lanes.withCloseWaitSeconds(-1))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("-1.0 s");
  }

  @Test
  void onSharedCoresTheMapsCopyNoFasterThanTheFilesCpuAllows() {
    // 60 files, 6 maps of 10 on 3 nodes x 2 slots, 1 s a file, no lane limit, a 2 s task start:
    // 2 + 10 = 12 s. Each file costing 0.5 CPU-s of 2 shared cores: 2 + 60 x 0.5 / 2 = 17 s.
    // Below the simulation's time (0.1 CPU-s a file: 2 + 3 = 5 s) the bound changes nothing,
    // and on hosts with cores of their own neither does a file's CPU.
    PlanInput input =
        input(files(60, 1.0 / 1024), site(3, 1000, 1000), wideDestination(), machine(10, 100, 20));
    DistcpSettings distcp = new DistcpSettings(6, 2, 0, 2, 1, 0, DataSize.ofMebibytes(128), 0);
    PlanInput sharedCores = withRelaycp(input, input.relaycp().withSharedCores(
        SharedCores.of(2, 0, 0)));

    assertThat(model.estimate(withDistcp(sharedCores, distcp), 0).seconds())
        .isCloseTo(12, within(0.01));
    assertThat(model.estimate(withDistcp(sharedCores, distcp.withCpuSecondsPerFile(0.5)), 0)
        .seconds()).isCloseTo(17, within(1e-6));
    assertThat(model.estimate(withDistcp(sharedCores, distcp.withCpuSecondsPerFile(0.1)), 0)
        .seconds()).isCloseTo(12, within(0.01));
    assertThat(model.estimate(withDistcp(input, distcp.withCpuSecondsPerFile(0.5)), 0)
        .seconds()).isCloseTo(12, within(0.01));
    assertThatThrownBy(() -> distcp.withCpuSecondsPerFile(-0.1))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("CPU seconds a file -0.1");
  }

  @Test
  void theCoresTheJobKeepsBusyBesideItsFilesAreLeftOutOfTheFloor() {
    // As above, 60 files at 0.5 CPU-s each on 2 shared cores, but the job's application
    // master, client and YARN's daemons keep half a core busy: 2 + 60 x 0.5 / 1.5 = 22 s.
    // On hosts with cores of their own the background takes nothing from the maps.
    PlanInput input =
        input(files(60, 1.0 / 1024), site(3, 1000, 1000), wideDestination(), machine(10, 100, 20));
    DistcpSettings distcp = new DistcpSettings(6, 2, 0, 2, 1, 0, DataSize.ofMebibytes(128), 0)
        .withCpuSecondsPerFile(0.5);
    PlanInput sharedCores = withRelaycp(input, input.relaycp().withSharedCores(
        SharedCores.of(2, 0, 0)));

    assertThat(model.estimate(withDistcp(sharedCores, distcp.withBackgroundCores(0.5)), 0)
        .seconds()).isCloseTo(22, within(1e-6));
    assertThat(model.estimate(withDistcp(input, distcp.withBackgroundCores(0.5)), 0)
        .seconds()).isCloseTo(12, within(0.01));
    assertThatThrownBy(() -> withDistcp(sharedCores, distcp.withBackgroundCores(2)))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("background cores 2.0 leave none of the 2.0 shared cores");
    assertThatThrownBy(() -> distcp.withBackgroundCores(-1))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("background cores -1.0");
  }

  @Test
  void theDynamicStrategyPaysEachMapsStartOnceAndLeavesNoSlotWaitingForAWave() {
    // Three files of 100 MiB on two nodes of one slot at 10 MiB/s, -m 2, 5 s per task.
    // uniformsize: three maps of one file, the third in a second wave with its own start:
    // 5 + 10 + 5 + 10 = 30 s. dynamic: two maps take the three chunks of one file as they
    // finish: 5 + 10 + 10 = 25 s.
    PlanInput input = input(files(3, 100), site(2, 10, 1000), wideDestination(),
        machine(10, 100, 20));
    DistcpSettings uniform = new DistcpSettings(2, 1, 0, 5, 0, 0, DataSize.ofMebibytes(128));
    PlanInput uniformSize = withDistcp(input, uniform);
    PlanInput dynamic = withDistcp(input, uniform.withStrategy(DistcpSettings.Strategy.DYNAMIC));

    assertThat(DistcpModel.maps(uniformSize.workload(), uniform)).hasSize(3);
    assertThat(DistcpModel.dynamicChunks(dynamic.workload(), dynamic.distcp())).hasSize(3);
    assertThat(model.estimate(uniformSize, 0).seconds()).isCloseTo(30, within(1e-6));
    assertThat(model.estimate(dynamic, 0).seconds()).isCloseTo(25, within(1e-6));
  }

  @Test
  void theDynamicStrategyDealsTheListingOutOverSixteenOpenChunks() {
    // The lab's M as its expert DistCp copies it: -m 6 -blocksperchunk 1 over 4 files of eight
    // 32 MiB blocks listed before 3,000 small files. 3,032 entries, 17 chunks a map, 30 entries
    // a chunk, 102 chunks: dealt in turn over chunks 0-15, then 16-31, ..., and the last set
    // takes chunks 80-101. Each of the first 16 chunks gets two of the 32 pieces, where chunks
    // of consecutive entries would have put 30 in one map's first chunk, to copy one by one.
    DataSize block = DataSize.ofMebibytes(32);
    Workload mixed = Workload.of(new Workload.FileGroup(4, DataSize.ofMebibytes(256)),
        new Workload.FileGroup(3000, DataSize.ofBytes(65536)));
    DistcpSettings expert = new DistcpSettings(6, 2, 0, 0, 0, 1, block)
        .withStrategy(DistcpSettings.Strategy.DYNAMIC);

    List<List<StreamSimulation.Step>> chunks = DistcpModel.dynamicChunks(mixed, expert);

    assertThat(chunks).hasSize(102);
    for (int chunk = 0; chunk < chunks.size(); chunk++) {
      long pieces =
          chunks.get(chunk).stream().filter(step -> step.bytes() == block.bytes()).count();
      assertThat(pieces).as("pieces in chunk %d", chunk).isEqualTo(chunk < 16 ? 2 : 0);
    }
    assertThat(chunks.subList(0, 80)).allSatisfy(chunk -> assertThat(chunk).hasSize(30));
    assertThat(chunks.subList(80, 102).stream().mapToInt(List::size).sum()).isEqualTo(632);
  }

  @Test
  void theDynamicSplitRatioIsHadoops() {
    // DynamicInputFormat's defaults: 100 chunks ideal, at least 5 entries a chunk, else 2.
    assertThat(DistcpModel.splitRatio(1, 1000)).isEqualTo(1);
    assertThat(DistcpModel.splitRatio(20, 5000)).isEqualTo(5);
    assertThat(DistcpModel.splitRatio(6, 64)).isEqualTo(2);
    assertThat(DistcpModel.splitRatio(200, 100_000)).isEqualTo(2);
    assertThatThrownBy(() -> DistcpSettings.Strategy.fromOption("fastest"))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("uniformsize or dynamic");
  }

  @Test
  void concurrentFilesBelowOneIsRefused() {
    assertThatThrownBy(() -> new DistcpSettings(6, 2, 0, 0, 1, 0, DataSize.ofMebibytes(128), 0.5))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("concurrent files 0.5 must be 1 or more, or 0 for no limit");
  }

  @Test
  void blocksPerChunkSplitsAFileIntoMaps() {
    // 10 pieces of 100 MiB, 20 maps of at most 50 MiB: one piece per map, 2 slots: 5 waves of
    // 2 + 1 + 10 s, after the 10 s job start.
    PlanInput input =
        withDistcp(
            input(files(1, 1000), site(2, 10, 100), wideDestination(), machine(10, 100, 20)),
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
            input(files(40, 10), site(2, 10, 100), wideDestination(), machine(10, 100, 20)),
            new DistcpSettings(20, 1, 0, 0, 1, 0, DataSize.ofMebibytes(128)));
    assertThat(DistcpModel.maps(input.workload(), input.distcp())).hasSize(20);
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(40, within(1e-6));
  }

  @Test
  void theShuffledListingPutsSmallFilesBetweenHugeOnes() {
    // 2 x 1000 MiB and 100 x 1 MiB are one window of the listing: the huge files sit at 1/3 and
    // 2/3 of it and the k-th small file at k/101, so the maps (at most 105 MiB each) are cut as
    // 33 small, huge, 34 small, huge, 33 small, and start longest split first: 34, 33, 33, huge,
    // huge. Two nodes of one slot at 10 MiB/s: node 0 runs 34 MiB (3.4 s) and a huge file (to
    // 103.4 s); node 1 33 MiB (3.3 s), 33 MiB (to 6.6 s) and the other huge file (to 106.6 s).
    // relaycp's chunks even out: 2100 MiB at 2 x 10 MiB/s.
    Workload workload =
        Workload.of(
            new Workload.FileGroup(2, DataSize.ofMebibytes(1000)),
            new Workload.FileGroup(100, DataSize.ofMebibytes(1)));
    PlanInput input = input(workload, site(2, 10, 100), wideDestination(), machine(10, 100, 20));
    assertThat(DistcpModel.maps(input.workload(), input.distcp()))
        .extracting(map -> map.size() - 1)
        .containsExactly(34, 33, 33, 1, 1);
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(106.6, within(1e-6));
    PlanInput twoDestinations =
        input(workload, site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20));
    assertThat(new RelaycpModel().estimate(twoDestinations, 0).seconds()).isCloseTo(105, within(1e-6));
  }

  @Test
  void theLabsDatasetsGiveTheMapsDistcpMade() {
    // The WAN lab's DistCp logs ("number of splits") with -m 6: L = 8 x 256 MiB is 8 maps;
    // S = 5000 x 64 KiB is 6 maps of 833 files and one of 2; M = 4 x 256 MiB + 3000 x 64 KiB
    // is 9: the first window of 1000 has the 4 huge files at 1/5, 2/5, 3/5, 4/5 of it between
    // runs of 199, 199, 200 and 199 small files, and the last 199 share a map with the 2004
    // small files of the later windows (144 MB, under the 212 MB a map may take). They start
    // longest split first, as the lab's M did (2,286, 274, 237, 180 and 26 files, then the four
    // huge files: see mapsStartLongestSplitFirstAsTheLabsDistcpDid).
    DistcpSettings lab = new DistcpSettings(6, 2, 0, 0, 0, 0, DataSize.ofMebibytes(32));
    Workload large = Workload.of(new Workload.FileGroup(8, DataSize.ofMebibytes(256)));
    Workload small = Workload.of(new Workload.FileGroup(5000, DataSize.ofBytes(65536)));
    Workload mixed =
        Workload.of(
            new Workload.FileGroup(4, DataSize.ofMebibytes(256)),
            new Workload.FileGroup(3000, DataSize.ofBytes(65536)));
    assertThat(DistcpModel.maps(large, lab)).hasSize(8);
    assertThat(DistcpModel.maps(small, lab))
        .extracting(map -> map.size() - 1)
        .containsExactly(833, 833, 833, 833, 833, 833, 2);
    assertThat(DistcpModel.maps(mixed, lab))
        .extracting(map -> map.size() - 1)
        .containsExactly(2203, 200, 199, 199, 199, 1, 1, 1, 1);
  }

  @Test
  void mapsStartLongestSplitFirstAsTheLabsDistcpDid() throws IOException {
    // lab-M-distcp-maps.txt: each map of the lab's DistCp M (2026-11-23 pm) with its files;
    // container ids are in the order YARN started them.
    List<Long> labFiles;
    try (InputStream log = DistcpModelTest.class.getResourceAsStream("lab-M-distcp-maps.txt")) {
      labFiles = new String(log.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(line -> line.startsWith("container_"))
          .map(line -> line.split("\\s+"))
          .sorted(Comparator.comparing(fields -> fields[0]))
          .map(fields -> Long.parseLong(fields[2]))
          .toList();
    }
    DistcpSettings lab = new DistcpSettings(6, 2, 0, 0, 0, 0, DataSize.ofMebibytes(32));
    Workload mixed = Workload.of(
        new Workload.FileGroup(4, DataSize.ofMebibytes(256)),
        new Workload.FileGroup(3000, DataSize.ofBytes(65536)));

    List<Integer> modelFiles =
        DistcpModel.maps(mixed, lab).stream().map(map -> map.size() - 1).toList();

    assertThat(labFiles).containsExactly(2286L, 274L, 237L, 180L, 26L, 1L, 1L, 1L, 1L);
    assertThat(labFiles).isSortedAccordingTo(Comparator.reverseOrder());
    assertThat(modelFiles).hasSameSizeAs(labFiles).isSortedAccordingTo(Comparator.reverseOrder());
  }

  @Test
  void replicationAboveTheDestinationsDatanodesWritesOneCopyADatanode() {
    // Two destination datanodes with links of 12 MiB/s: at replication 2 each byte crosses
    // both, so they absorb 12 MiB/s, under the WAN's 20. HDFS cannot put a third copy on
    // two datanodes, so replication 3 costs the links no more.
    Site source = site(2, 10, 100);
    PlanInput twice = input(files(2, 600), source,
        new Site(2, mebibytesPerSecond(10), mebibytesPerSecond(12), 2), machine(10, 100, 20));
    PlanInput thrice = input(files(2, 600), source,
        new Site(2, mebibytesPerSecond(10), mebibytesPerSecond(12), 3), machine(10, 100, 20));
    PlanInput once = input(files(2, 600), source,
        new Site(2, mebibytesPerSecond(10), mebibytesPerSecond(12), 1), machine(10, 100, 20));

    assertThat(model.estimate(thrice, 0).seconds())
        .isCloseTo(model.estimate(twice, 0).seconds(), within(1e-6))
        .isGreaterThan(model.estimate(once, 0).seconds() + 10);
  }

  @Test
  void mapsWritingToRandomDatanodesCollide() {
    // Two source nodes of one slot at 10 MiB/s, two destination nodes. A map keeps the datanode
    // drawn for a block until the block is full, and two maps on one datanode take twice as long
    // to leave it: they share one 1/3 of the time more than independent draws would say
    // ((2, 0), (1, 1) and (0, 2) are equally likely), so the two move 2/3 x 10 + 1/3 x 20 =
    // 13.3 MiB/s and two 150 MiB files take 22.5 s (the simulated draws, within 2%).
    // Alone, a map has its datanode to itself: one 150 MiB file, 15 s.
    PlanInput two = input(files(2, 150), site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20));
    assertThat(model.estimate(two, 0).seconds()).isCloseTo(22.5, within(0.45));
    PlanInput one = input(files(1, 150), site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20));
    assertThat(model.estimate(one, 0).seconds()).isCloseTo(15, within(1e-6));
  }

  @Test
  void addedNodesJoinAfterBootAndPricedNodeHoursCount() {
    // 4 files of 100 MiB, each a map of its own, 1 node with 1 slot: 4 x 10 s alone. With one
    // pair booting in 10 s: node 0 runs map 1 (0-10 s); at 10 s node 0 takes map 2 and the new
    // node map 3 (the destination's WAN cap grows to 20 MiB/s over 2 nodes; with each map
    // keeping a random datanode for a block the two move 13.3 MiB/s, see
    // mapsWritingToRandomDatanodesCollide), both end at 10 + 15 s; map 4 ends 10 s later, alone.
    PlanInput input =
        withPricing(
            input(files(4, 100), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 10)),
            new Pricing(0.02, 0.36));
    Estimate none = model.estimate(input, 0);
    assertThat(none.seconds()).isCloseTo(40, within(1e-6));
    // Egress + one source node for 40 s at $0.36/h.
    assertThat(none.dollars()).isCloseTo(400.0 / 1024 * 0.02 + 0.36 * 40 / 3600, within(1e-9));
    Estimate one = model.estimate(input, 1);
    assertThat(one.seconds()).isCloseTo(35, within(0.3));
    assertThat(one.relaysStarted()).isEqualTo(2);
  }
}
