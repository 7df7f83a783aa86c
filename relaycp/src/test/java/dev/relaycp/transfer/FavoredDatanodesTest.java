package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.fs.DatanodeAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FavoredDatanodesTest {
  private static final List<DatanodeAddress> FOUR = addresses(
      "10.0.2.11:9866", "10.0.2.12:9866", "10.0.2.13:9866", "10.0.2.14:9866");

  @Test
  void aWriterOnADatanodeKeepsTheFirstReplicaAndTheOthersGoToTheLeastUsed() {
    FavoredDatanodes favored = FavoredDatanodes.over(FOUR, 1);

    List<String> first = names(favored.open(1, "10.0.2.12", 3));
    List<String> second = names(favored.open(2, "10.0.2.12", 3));

    assertThat(first).hasSize(3).doesNotHaveDuplicates().startsWith("10.0.2.12:9866");
    assertThat(second).hasSize(3).doesNotHaveDuplicates().startsWith("10.0.2.12:9866");
    // Two of 11, 13 and 14 took the first chunk's further replicas; the one left is used least.
    List<String> unused = names(FOUR);
    unused.removeAll(first);
    assertThat(second.get(1)).isEqualTo(unused.get(0));
  }

  @Test
  void openPipelinesSpreadEvenlyOverTheDatanodes() {
    // 12 pipelines of 3 replicas from writers off the datanodes (spawned relays): 9 on each of
    // 4 datanodes, where a draw at random would put more on some.
    FavoredDatanodes favored = FavoredDatanodes.over(FOUR, 7);

    for (int chunk = 0; chunk < 12; chunk++) {
      favored.open(chunk, "10.0.9." + (chunk % 2), 3);
    }

    assertThat(favored.openPipelines()).containsExactly(9, 9, 9, 9);
  }

  @Test
  void writersOnEveryDatanodeAndOffThemStillSpreadWithinOnePipeline() {
    String[] writers = {"10.0.2.11", "10.0.2.12", "10.0.2.13", "10.0.2.14", "10.0.9.1",
        "10.0.9.2"};
    for (long seed = 0; seed < 50; seed++) {
      FavoredDatanodes favored = FavoredDatanodes.over(FOUR, seed);

      for (int chunk = 0; chunk < 12; chunk++) {
        favored.open(chunk, writers[chunk % writers.length], 3);
      }

      int[] open = favored.openPipelines();
      assertThat(Arrays.stream(open).sum()).isEqualTo(36);
      assertThat(Arrays.stream(open).max().getAsInt() - Arrays.stream(open).min().getAsInt())
          .as("open pipelines per datanode from seed %d: %s", seed, Arrays.toString(open))
          .isLessThanOrEqualTo(1);
    }
  }

  @Test
  void aClosedPipelineFreesItsDatanodesForTheNextChunk() {
    FavoredDatanodes favored = FavoredDatanodes.over(FOUR, 3);
    List<String> first = names(favored.open(1, "10.0.9.1", 2));
    favored.open(2, "10.0.9.1", 2);

    favored.close(1);
    List<String> third = names(favored.open(3, "10.0.9.1", 2));

    assertThat(third).containsExactlyInAnyOrderElementsOf(first);
    assertThat(favored.openPipelines()).containsExactly(1, 1, 1, 1);
  }

  @Test
  void reopeningAChunkClosesItsEarlierPipelineAndClosingTwiceIsHarmless() {
    FavoredDatanodes favored = FavoredDatanodes.over(FOUR, 5);
    favored.open(1, "10.0.2.11", 3);

    favored.open(1, "10.0.2.11", 3);
    favored.close(1);
    favored.close(1);

    assertThat(favored.openPipelines()).containsExactly(0, 0, 0, 0);
  }

  @Test
  void moreReplicasThanDatanodesUseEachDatanodeOnce() {
    FavoredDatanodes favored = FavoredDatanodes.over(FOUR.subList(0, 2), 1);

    assertThat(names(favored.open(1, "10.0.2.14", 3)))
        .containsExactlyInAnyOrder("10.0.2.11:9866", "10.0.2.12:9866");
  }

  @Test
  void datanodesSharingTheWritersAddressGiveItTheLeastUsedOfThemFirst() {
    // An embedded cluster's datanodes all listen on 127.0.0.1, each on a port of its own.
    FavoredDatanodes favored = FavoredDatanodes.over(
        addresses("127.0.0.1:40001", "127.0.0.1:40002", "127.0.0.1:40003"), 9);

    List<String> first = names(favored.open(1, "127.0.0.1", 1));
    List<String> second = names(favored.open(2, "127.0.0.1", 1));
    List<String> third = names(favored.open(3, "127.0.0.1", 1));

    assertThat(List.of(first.get(0), second.get(0), third.get(0))).doesNotHaveDuplicates();
  }

  @Test
  void badArgumentsAreRefusedNamingTheProblem() {
    assertThatThrownBy(() -> FavoredDatanodes.over(List.of(), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one datanode");
    assertThatThrownBy(() -> FavoredDatanodes.over(FOUR, 1).open(1, "10.0.2.11", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("replication must be 1 or more, got 0");
  }

  private static List<DatanodeAddress> addresses(String... hostsAndPorts) {
    return Arrays.stream(hostsAndPorts).map(DatanodeAddress::parse).toList();
  }

  private static List<String> names(List<DatanodeAddress> addresses) {
    return new ArrayList<>(addresses.stream().map(DatanodeAddress::toString).toList());
  }
}
