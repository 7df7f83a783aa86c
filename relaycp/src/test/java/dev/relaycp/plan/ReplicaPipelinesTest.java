package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.relaycp.error.RelayCpException;
import org.junit.jupiter.api.Test;

class ReplicaPipelinesTest {
  private static final double MB = 1e6;
  private static final DataRate WAN = DataRate.ofBytesPerSecond(5 * MB);

  @Test
  void writersThatKeepEveryReplicaOnTheirOwnDatanodeAddNoLimit() {
    Site destination = new Site(3, WAN, DataRate.ofBytesPerSecond(10 * MB), 1);

    double rate = ReplicaPipelines.rate(hosts(3, destination, 0, machine(10)), 2);

    assertThat(rate).isInfinite();
  }

  @Test
  void linksWithRoomForEveryReplicaCarryAllTheWanBrings() {
    // The lab's replication-3 layout at v_i = 10 v_e: 3 datanode writers and 2 spawned ones
    // take 25 MB/s from the WAN; the datanodes' links in take 3 x 25 of their 150.
    Site destination = new Site(3, WAN, DataRate.ofBytesPerSecond(50 * MB), 3);

    double rate = ReplicaPipelines.rate(hosts(3, destination, 2, machine(50)), 2);

    assertThat(rate / MB).isCloseTo(25, within(0.01));
  }

  @Test
  void onePipelineARouteOverAFewDatanodesFallsShortOfAnEvenSpreadAndTwoDoNot() {
    // The lab's 2 + 4 datanodes, replication 3, v_i = 2 v_e, 2 spawned pairs: spread evenly,
    // the four links in take 3 bytes in for each byte copied, 40 / 3 = 13.33 MB/s. Six
    // pipelines on four datanodes cannot all share links evenly; twelve can.
    DataRate link = DataRate.ofBytesPerSecond(10 * MB);
    Site source = new Site(2, WAN, link, 1);
    Site destination = new Site(4, WAN, link, 3);
    double even = HostFlow.limit(new HostFlow.Hosts(source, destination, source.placement(), 2,
        machine(10), 1)).rate().bytesPerSecond();

    double one = ReplicaPipelines.rate(hosts(2, destination, 2, machine(10)), 1);
    double two = ReplicaPipelines.rate(hosts(2, destination, 2, machine(10)), 2);

    assertThat(even / MB).isCloseTo(40.0 / 3, within(0.01));
    assertThat(one / even).isBetween(0.85, 0.95);
    assertThat(two / even).isCloseTo(1.0, within(0.01));
  }

  @Test
  void spawnedWritersHandTheirFirstReplicasToTheLeastUsedDatanodes() {
    // Replication 1, v_i = 2 v_e: each datanode's link in takes its own writer's 5 MB/s from
    // the WAN and half a spawned writer's, when the spawned writers' replicas go to the datanodes
    // the fewest pipelines use; drawn at random, some links would take a whole one.
    Site destination = new Site(4, WAN, DataRate.ofBytesPerSecond(10 * MB), 1);

    double rate = ReplicaPipelines.rate(hosts(4, destination, 2, machine(10)), 1);

    assertThat(rate / MB).isCloseTo(30, within(0.01));
  }

  @Test
  void theSameWritersAlwaysGiveTheSameRate() {
    Site destination = new Site(4, WAN, DataRate.ofBytesPerSecond(10 * MB), 3);
    HostFlow.Hosts hosts = hosts(2, destination, 2, machine(10));

    assertThat(ReplicaPipelines.rate(hosts, 2)).isEqualTo(ReplicaPipelines.rate(hosts, 2));
  }

  @Test
  void badWritersAreRefusedNamingTheField() {
    Site destination = new Site(3, WAN, WAN, 3);
    Site source = new Site(3, WAN, WAN, 1);

    assertThatThrownBy(() -> ReplicaPipelines.rate(hosts(3, destination, 0, machine(5)), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("chunksPerRoute");
    assertThatThrownBy(() -> new Site(0, WAN, WAN, 1))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("node count 0");
    assertThatThrownBy(() -> new HostFlow.Hosts(source, destination, source.placement(), -1,
            machine(5), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spawnedPairs");
    assertThatThrownBy(() -> new HostFlow.Hosts(source, destination, source.placement(), 0,
            machine(5), 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("wanRatio");
    assertThatThrownBy(() -> ReplicaPipelines.rate(new HostFlow.Hosts(source, destination,
            source.placement(), 0, machine(5), Double.POSITIVE_INFINITY), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("wanRatio");
  }

  /** The hosts of a copy from {@code sourceNodes} datanodes, its bytes spread, without compression. */
  private static HostFlow.Hosts hosts(int sourceNodes, Site destination, int spawnedPairs,
      MachineType spawned) {
    Site source = new Site(sourceNodes, WAN, destination.internal(), 1);
    return new HostFlow.Hosts(source, destination, source.placement(), spawnedPairs, spawned, 1);
  }

  /** A spawned relay's machine with the lab's WAN cap and a link of {@code linkMb} MB/s. */
  private static MachineType machine(double linkMb) {
    return new MachineType("what-if", "any", "node-like", 0.1, WAN,
        DataRate.ofBytesPerSecond(linkMb * MB), 30, 1, 60, "test");
  }
}
