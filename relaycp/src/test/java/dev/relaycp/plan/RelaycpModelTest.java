package dev.relaycp.plan;

import static dev.relaycp.plan.Inputs.files;
import static dev.relaycp.plan.Inputs.input;
import static dev.relaycp.plan.Inputs.machine;
import static dev.relaycp.plan.Inputs.site;
import static dev.relaycp.plan.Inputs.withRelaycp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.relaycp.error.RelayCpException;

import org.junit.jupiter.api.Test;

class RelaycpModelTest {
  private final RelaycpModel model = new RelaycpModel();

  @Test
  void oneFileOnOneNodeMovesAtTheWanCap() {
    PlanInput input = input(files(1, 1000), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 20));
    Estimate estimate = model.estimate(input, 0);
    assertThat(estimate.seconds()).isCloseTo(100, within(1e-6));
    assertThat(estimate.relaysStarted()).isZero();
    assertThat(estimate.dollars()).isCloseTo(1000.0 / 1024 * 0.02, within(1e-9));
  }

  @Test
  void compressionMultipliesTheWanCapsButNotTheInternalNetwork() {
    // 1000 MiB on one node at 10 MiB/s over the WAN: 100 s. Three file bytes per wire byte:
    // 33.3 s. Ten per wire byte would be 10 s, but the source's internal network feeds 50 MiB/s.
    PlanInput plain = withRelaycp(
        input(files(1, 1000), site(1, 10, 50), site(1, 10, 100), machine(10, 100, 20)),
        new RelaycpSettings(DataSize.ofMebibytes(10), 1, CopyOverheads.NONE));
    PlanInput threefold = withRelaycp(plain, plain.relaycp().withCompressionRatio(3));
    PlanInput tenfold = withRelaycp(plain, plain.relaycp().withCompressionRatio(10));

    assertThat(model.estimate(plain, 0).seconds()).isCloseTo(100, within(1e-6));
    assertThat(model.estimate(threefold, 0).seconds()).isCloseTo(100.0 / 3, within(1e-6));
    assertThat(model.estimate(tenfold, 0).seconds()).isCloseTo(20, within(1e-6));
    assertThatThrownBy(() -> plain.relaycp().withCompressionRatio(0.5))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("compression ratio");
  }

  @Test
  void spawnedRelaysJoinAfterBootAndTheLastChunksLeaveATail() {
    // 0-20 s: the datanode relay alone at 10 MiB/s moves 200 MiB (20 chunks of 10 MiB).
    // Then three relays at 10 MiB/s each (the destination's WAN cap is 10 + 2 * 10): 80 chunks
    // of 1 s each over 3 relays take 27 rounds, not 80/3 = 26.7 s.
    PlanInput input =
        withRelaycp(
            input(files(1, 1000), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 20)),
            new RelaycpSettings(DataSize.ofMebibytes(10), 1, CopyOverheads.NONE));
    Estimate estimate = model.estimate(input, 2);
    assertThat(estimate.seconds()).isCloseTo(47, within(1e-6));
    assertThat(estimate.relaysStarted()).isEqualTo(4);
    // 4 VMs billed the 60 s minimum at a tenth of a cent a second, plus egress.
    assertThat(estimate.dollars()).isCloseTo(4 * 0.06 + 1000.0 / 1024 * 0.02, within(1e-9));
  }

  @Test
  void aFileThatIsOneChunkCannotUseMoreRelays() {
    PlanInput input =
        withRelaycp(
            input(files(1, 1000), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 0)),
            new RelaycpSettings(DataSize.ofMebibytes(1000), 1, CopyOverheads.NONE));
    assertThat(model.estimate(input, 4).seconds()).isCloseTo(100, within(1e-6));
  }

  @Test
  void manyEqualFilesPayTheirPerFileCostOnEachRelay() {
    // 100 files of 10 MiB over 2 relays: each file 0.5 s to open and close + 1 s of bytes,
    // 50 files per relay one after another.
    PlanInput input =
        withRelaycp(
            input(files(100, 10), site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20)),
            new RelaycpSettings(DataSize.ofMebibytes(100), 1, new CopyOverheads(0, 0, 0.5, 0, 0, 0)));
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(75, within(1e-6));
  }

  @Test
  void fixedOverheadsAddListingCommitAndTheVerificationOfFilesOfSeveralChunks() {
    CopyOverheads overheads = new CopyOverheads(3, 0.01, 0, 0, 0.02, 0.03);
    RelaycpSettings settings = new RelaycpSettings(DataSize.ofMebibytes(100), 1, overheads);
    PlanInput oneChunkEach = withRelaycp(
        input(files(100, 10), site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20)), settings);
    PlanInput twoChunksEach = withRelaycp(
        input(files(5, 200), site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20)), settings);
    // 3 + 100 * 0.01 before, 50 s of bytes, 100 * 0.02 of commits after: each file of one chunk
    // was verified while the copy ran.
    assertThat(model.estimate(oneChunkEach, 0).seconds()).isCloseTo(3 + 1 + 50 + 2, within(1e-6));
    // 3 + 5 * 0.01 before, ten chunks of 10 s over two relays, 5 * (0.02 + 0.03) after: a file
    // of several chunks is verified once its parts are completed, after the last byte.
    assertThat(model.estimate(twoChunksEach, 0).seconds())
        .isCloseTo(3 + 0.05 + 50 + 0.25, within(1e-6));
  }

  @Test
  void aFewHugeFilesAmongManySmallOnesSpreadAsChunks() {
    // 2 x 1000 MiB in 100 MiB chunks, then 100 x 1 MiB: 2100 MiB at 2 x 10 MiB/s, no tail
    // because the small files even out the end.
    Workload workload =
        Workload.of(
            new Workload.FileGroup(2, DataSize.ofMebibytes(1000)),
            new Workload.FileGroup(100, DataSize.ofMebibytes(1)));
    PlanInput input = input(workload, site(2, 10, 100), site(2, 10, 100), machine(10, 100, 20));
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(105, within(1e-6));
  }

  @Test
  void theSourceInternalNetworkCapsWhatRelaysCanSend() {
    // One datanode that can feed only 30 MiB/s: eight spawned relays cannot beat 30 MiB/s.
    PlanInput input =
        withRelaycp(
            input(files(1, 3000), site(1, 10, 30), site(1, 10, 1000), machine(10, 100, 0)),
            new RelaycpSettings(DataSize.ofMebibytes(10), 1, CopyOverheads.NONE));
    assertThat(model.estimate(input, 8).seconds()).isCloseTo(100, within(1e-6));
    assertThat(model.estimate(input, 2).seconds()).isCloseTo(100, within(1e-6));
    assertThat(model.estimate(input, 1).seconds()).isCloseTo(150, within(1e-6));
  }

  @Test
  void bytesOnOneDatanodeHoldEveryOtherRelayToThatDatanodesLink() {
    // 6000 MiB on dn1 of three, whose link carries 40 MiB/s in all: its own WAN traffic and
    // what every other relay fetches from it. Spread evenly, four spawned pairs and the three
    // datanode relays send 70 MiB/s.
    Site spread = site(3, 10, 40);
    Site onOne = spread.withPlacement(Placement.onOne(3, 1));
    RelaycpSettings settings = new RelaycpSettings(DataSize.ofMebibytes(100), 1,
        CopyOverheads.NONE);
    PlanInput even = withRelaycp(
        input(files(1, 6000), spread, site(3, 1000, 1000), machine(10, 100, 0)), settings);
    PlanInput one = withRelaycp(
        input(files(1, 6000), onOne, site(3, 1000, 1000), machine(10, 100, 0)), settings);

    assertThat(model.estimate(one, 4).seconds()).isCloseTo(150, within(3.0));
    assertThat(model.estimate(even, 4).seconds()).isCloseTo(6000.0 / 70, within(6.0));
    // Without spawned relays the two other datanode relays fetch 20 MiB/s of it, within reach.
    assertThat(model.estimate(one, 0).seconds())
        .isCloseTo(model.estimate(even, 0).seconds(), within(1e-6));
  }

  @Test
  void theDestinationAbsorbsLessWithReplication() {
    RelaycpSettings settings = new RelaycpSettings(DataSize.ofMebibytes(10), 1, CopyOverheads.NONE);
    PlanInput once = withRelaycp(input(files(1, 2000), site(1, 100, 1000),
        new Site(3, Inputs.mebibytesPerSecond(100), Inputs.mebibytesPerSecond(60), 1),
        machine(10, 100, 0)), settings);
    PlanInput thrice = withRelaycp(input(files(1, 2000), site(1, 100, 1000),
        new Site(3, Inputs.mebibytesPerSecond(100), Inputs.mebibytesPerSecond(60), 3),
        machine(10, 100, 0)), settings);
    // One copy: the source's 100 MiB/s WAN binds. Three: three links of 60 MiB/s carry every
    // byte three times, 60 MiB/s of new data.
    assertThat(model.estimate(once, 0).seconds()).isCloseTo(20, within(1e-6));
    assertThat(model.estimate(thrice, 0).seconds()).isCloseTo(2000.0 / 60, within(1e-6));
  }

  @Test
  void onePipelineARouteOverAFewDatanodesHoldsTheCopyBelowAnEvenSpread() {
    // The lab's 2 + 4 datanodes, replication 3, links twice the WAN, 2 spawned pairs: spread
    // evenly, the four links in carry 3 bytes for each byte copied, 40 / 3 MiB/s. Six routes
    // writing one 32 MiB chunk each cannot share the four links evenly; with two each they can.
    Site destination = new Site(4, Inputs.mebibytesPerSecond(5), Inputs.mebibytesPerSecond(10), 3);
    PlanInput input = input(files(8, 256), site(2, 5, 10), destination, machine(5, 10, 0));
    double evenSeconds = 2048 / (40.0 / 3);

    double one = model.estimate(withRelaycp(input, new RelaycpSettings(DataSize.ofMebibytes(32),
        16, 32, DataSize.ofMebibytes(32), CopyOverheads.NONE, 0, 1, 1, SharedCores.NONE)), 2).seconds();
    double two = model.estimate(withRelaycp(input, new RelaycpSettings(DataSize.ofMebibytes(32),
        16, 32, DataSize.ofMebibytes(64), CopyOverheads.NONE, 0, 1, 1, SharedCores.NONE)), 2).seconds();

    assertThat(one / evenSeconds).isBetween(1.05, 1.2);
    assertThat(two / evenSeconds).isBetween(1.0, 1.04);
  }

  @Test
  void relaysThatBootAfterTheCopyEndsAddOnlyTheirBill() {
    PlanInput input = input(files(1, 100), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 600));
    Estimate none = model.estimate(input, 0);
    Estimate late = model.estimate(input, 2);
    assertThat(none.seconds()).isCloseTo(10, within(1e-6));
    assertThat(late.seconds()).isCloseTo(none.seconds(), within(1e-9));
    // Four VMs billed their 60 s minimum although no byte went through them.
    assertThat(late.dollars() - none.dollars()).isCloseTo(4 * 0.06, within(1e-9));
  }

  @Test
  void aRoutesByteWindowLetsLateRelaysShareLargeChunks() {
    // 200 MiB in 20 chunks of 10 MiB, 16 streams but a 20 MiB window: a route holds 2 chunks.
    // The datanode relay moves 100 MiB by 10 s, when two spawned relays join; then as in
    // StreamSimulationTest: 2 s, 1 s, 1 s. Without pairs: 20 s.
    PlanInput input =
        withRelaycp(
            input(files(1, 200), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 10)),
            new RelaycpSettings(
                DataSize.ofMebibytes(10), 16, 32, DataSize.ofMebibytes(20), CopyOverheads.NONE, 0, 1,
                1, SharedCores.NONE));
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(20, within(1e-6));
    assertThat(model.estimate(input, 2).seconds()).isCloseTo(14, within(1e-6));
  }

  @Test
  void smallFilesOverlapTheirPerFileCostOnEachRoutesStreams() {
    // 64 files of 1 KiB over 2 relays, each with 16 streams (the window holds 32 chunks, 128 MiB)
    // starting 1/16 s apart, each file a 1 s per-file cost (the bytes take a fraction of a ms).
    // Stream j of each relay takes a file at j/16 and a second at 1 + j/16 while more than 2
    // wait: streams 0-14 do (60 files), the last 2 wait for a route to empty, when its stream
    // 14 ends its second file at 2.875 s: 3.875 s.
    PlanInput input = oneSecondFiles(64, 2, 16, 20);
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(3.875, within(0.01));
  }

  @Test
  void streamsBeyondTheConcurrentFilesShareTheirPerFileCost() {
    // 17 files of 1 KiB on 16 relays of one stream each, 1 s per file: 16 at once (the 17th
    // waits for a relay to empty), then the 17th: 2 s. With 8 concurrent files the 16 go at
    // half speed (2 s) and the 17th alone at full speed: 3 s.
    PlanInput input = oneSecondFiles(17, 16, 1, 20);
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(2, within(0.01));
    PlanInput shared = withRelaycp(input, input.relaycp().withConcurrentFiles(8));
    assertThat(model.estimate(shared, 0).seconds()).isCloseTo(3, within(0.01));
  }

  @Test
  void aRoutesStreamsStartApartSoThatSmallFilesFindTheLinkFree() {
    // 32 files of 0.5 MiB on one relay of 16 streams at 10 MiB/s, 1 s per file. The streams
    // start 1/16 s apart and a file's bytes take 0.05 s alone, so no two files share the link:
    // stream j ends its first file at j/16 + 1.05 and takes a second while more than one file
    // waits, which the last stream (at 15/16 + 1.05) does not find; the 32nd file waits for the
    // route to empty, when stream 14 ends its second at 14/16 + 2.1 = 2.975 s: 4.025 s. In
    // lock-step they would share the link: 1.8 s a round, 1.75 s for the next 15, and 1.05 s
    // for the last, 4.6 s.
    PlanInput input =
        withRelaycp(
            input(files(32, 0.5), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 20)),
            new RelaycpSettings(DataSize.ofMebibytes(32), 16, new CopyOverheads(0, 0, 1, 0, 0, 0)));
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(4.025, within(1e-6));
  }

  @Test
  void aSpawnedRelayPaysItsFileCostFactorTimesTheDatanodes() {
    // 16 files of 1 KiB, 1 s each, on a datanode relay and a spawned one, both of one stream
    // and ready at once. Alike: 8 files each, 8 s. At 3 times the cost the spawned relay ends a
    // file every 3 s and the datanode's every 1 s: 12 and 4 files, 12 s.
    PlanInput input = oneSecondFiles(16, 1, 1, 0);
    assertThat(model.estimate(input, 1).seconds()).isCloseTo(8, within(0.01));
    PlanInput slower = withRelaycp(input, input.relaycp().withSpawnedFileCostFactor(3));
    assertThat(model.estimate(slower, 1).seconds()).isCloseTo(12, within(0.01));
  }

  @Test
  void whereTheFileCostIsSharedACostlierSpawnedRelaySlowsTheCopy() {
    // 12 files of 1 KiB, 1 s each, one lane for the file cost (one core). The datanode relay
    // alone: 12 s. With a spawned relay at 3 times the cost, both share the lane at half speed:
    // the datanode's relay ends a file every 2 s, the spawned one every 6 s, 4 files in 6 s,
    // 18 s; more relays make it slower, as in the WAN lab where every relay shares two cores.
    PlanInput alone = oneSecondFiles(12, 1, 1, 0);
    PlanInput input =
        withRelaycp(alone, alone.relaycp().withConcurrentFiles(1).withSpawnedFileCostFactor(3));
    assertThat(model.estimate(input, 0).seconds()).isCloseTo(12, within(0.01));
    assertThat(model.estimate(input, 1).seconds()).isCloseTo(18, within(0.01));
  }

  @Test
  void onSharedCoresASpawnedPairsCpuIsTakenFromTheFileWork() {
    // 12 files of 1 s on one lane that is one core, as in a lab on one machine. A spawned pair
    // whose relays spend 2 CPU-s each (0.5 of it to start) does not add a lane: the lane does
    // the files' 12 s and the pair's 4 s, 16 s, where hosts with cores of their own take 12 s.
    // With the lanes not limited there is nothing to take the CPU from.
    PlanInput ownCores = withRelaycp(oneSecondFiles(12, 1, 1, 0),
        oneSecondFiles(12, 1, 1, 0).relaycp().withConcurrentFiles(1));
    PlanInput shared = withRelaycp(ownCores,
        ownCores.relaycp().withSharedCores(SharedCores.of(1, 2, 0.5)));
    assertThat(model.estimate(ownCores, 1).seconds()).isCloseTo(12, within(0.01));
    assertThat(model.estimate(shared, 0).seconds()).isCloseTo(12, within(0.01));
    assertThat(model.estimate(shared, 1).seconds()).isCloseTo(16, within(0.01));
    PlanInput unlimited = withRelaycp(shared, shared.relaycp().withConcurrentFiles(0));
    assertThat(model.estimate(unlimited, 1).seconds()).isCloseTo(6, within(0.01));
    // Measured over 12 files a route, the two relays' 1.5 CPU-s of warm-up each are paid on
    // the files the route carries, 0.25 s a file: the lane, never idle, does the files' 12 s,
    // the starts' 1 s and a quarter second for each of the 5 files the spawned route takes.
    PlanInput warmUpOnFiles = withRelaycp(shared, shared.relaycp().withSharedCores(
        SharedCores.of(1, 2, 0.5).withSpawnedCpuFiles(12)));
    assertThat(model.estimate(warmUpOnFiles, 1).seconds()).isCloseTo(13 + 5 * 0.25, within(0.01));
  }

  @Test
  void onSharedCoresASpawnedPairThatCarriesNoFilePaysOnlyItsStart() {
    // As above, the pair's host up only after the 12 files are done: its relays' starts, 1 s
    // on the lane, slow the copy; their warm-up, measured over 12 files a route, is never paid.
    // Without a measure of files, the whole 4 CPU-s are a load however few files the route gets.
    PlanInput late = oneSecondFiles(12, 1, 1, 100);
    PlanInput lateOnOneCore = withRelaycp(late, late.relaycp().withConcurrentFiles(1)
        .withSharedCores(SharedCores.of(1, 2, 0.5).withSpawnedCpuFiles(12)));
    assertThat(model.estimate(lateOnOneCore, 1).seconds()).isCloseTo(13, within(0.01));
    PlanInput allAsLoad = withRelaycp(lateOnOneCore,
        lateOnOneCore.relaycp().withSharedCores(SharedCores.of(1, 2, 0.5)));
    assertThat(model.estimate(allAsLoad, 1).seconds()).isCloseTo(16, within(0.01));
  }

  @Test
  void onSharedCoresTheBytesCpuHoldsACopyOfLargeFilesUnderWhatTheCoresCarry() {
    // 1000 MiB on one datanode at 10 MiB/s, two spawned pairs alike that join at once: 30 MiB/s
    // over the WAN, 34 s with the last chunks' tail. On one core that carries 15 MiB/s of
    // bytes, the spawned pairs bring links but no CPU: 1000 / 15 = 66.7 s; without them the
    // link is the bound, 100 s, as on cores of their own. Whether the file work's lanes are
    // the core (the bytes ask for their CPU there) or not limited (a cap), it comes out alike.
    PlanInput ownCores = withRelaycp(
        input(files(1, 1000), site(1, 10, 100), site(1, 10, 100), machine(10, 100, 0)),
        new RelaycpSettings(DataSize.ofMebibytes(10), 1, CopyOverheads.NONE));
    SharedCores oneCore = SharedCores.of(1, 0, 0).withCpuSecondsPerByte(1.0 / (15 * 1048576));
    PlanInput capped = withRelaycp(ownCores, ownCores.relaycp().withSharedCores(oneCore));
    PlanInput onLanes = withRelaycp(capped, capped.relaycp().withConcurrentFiles(1));

    assertThat(model.estimate(ownCores, 2).seconds()).isCloseTo(34, within(0.5));
    for (PlanInput shared : new PlanInput[] {capped, onLanes}) {
      assertThat(model.estimate(shared, 0).seconds()).isCloseTo(100, within(1e-6));
      assertThat(model.estimate(shared, 2).seconds()).isCloseTo(1000.0 / 15, within(1.0));
    }
  }

  @Test
  void aSpawnedRelaysWarmUpCountsInProportionToTheFilesARoute() {
    SharedCores cores = SharedCores.of(2, 12, 2).withSpawnedCpuFiles(600);
    assertThat(cores.spawnedCpuSecondsFor(300)).isCloseTo(7, within(1e-9));
    assertThat(cores.spawnedCpuSecondsFor(6000)).isCloseTo(12, within(1e-9));
    assertThat(cores.spawnedCpuSecondsFor(0)).isCloseTo(2, within(1e-9));
    assertThat(SharedCores.of(2, 12, 2).spawnedCpuSecondsFor(1)).isCloseTo(12, within(1e-9));
    assertThatThrownBy(() -> cores.withCpuSecondsPerByte(-1))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("CPU seconds a byte costs -1.0");
    assertThatThrownBy(() -> cores.withSpawnedCpuFiles(Double.POSITIVE_INFINITY))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("must be a finite number");
  }

  @Test
  void aSpawnedRelaysStartMustFitInItsCpu() {
    assertThatThrownBy(() -> SharedCores.of(2, 1, 3))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("start of 3.0 CPU seconds must be 0 or more and within its 1.0");
  }

  @Test
  void aSpawnedFileCostFactorOfZeroIsRefused() {
    assertThatThrownBy(() -> RelaycpSettings.DEFAULT.withSpawnedFileCostFactor(0))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("file cost factor 0.0");
  }

  /**
   * Files of 1 KiB, each costing 1 s on a stream (their bytes take a fraction of a ms), on
   * {@code relays} datanode relays of {@code streams} streams at 10 MiB/s, with spawned relays
   * alike that boot in {@code bootSeconds}.
   */
  private static PlanInput oneSecondFiles(long count, int relays, int streams, double bootSeconds) {
    return withRelaycp(
        input(files(count, 1.0 / 1024), site(relays, 10, 100), site(relays, 10, 100),
            machine(10, 100, bootSeconds)),
        new RelaycpSettings(DataSize.ofMebibytes(32), streams, new CopyOverheads(0, 0, 1, 0, 0, 0)));
  }
}
