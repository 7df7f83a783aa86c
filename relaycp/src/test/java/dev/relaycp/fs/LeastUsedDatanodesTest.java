package dev.relaycp.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LeastUsedDatanodesTest {

  @Test
  void theFirstReplicaGoesToTheLeastUsedOfTheWritersOwnDatanodes() {
    // Datanodes 0 and 1 share the writer's host; 0 already carries a pipeline.
    LeastUsedDatanodes datanodes = LeastUsedDatanodes.over(4, new SplittableRandom(1));
    datanodes.open(node -> node == 0, 1);

    int[] nodes = datanodes.open(node -> node <= 1, 2);

    assertThat(nodes[0]).isEqualTo(1);
    assertThat(nodes[1]).isIn(2, 3);
    assertThat(datanodes.openPipelines()).containsExactly(1, 1,
        nodes[1] == 2 ? 1 : 0, nodes[1] == 3 ? 1 : 0);
  }

  @Test
  void aWriterOffTheDatanodesGetsTheLeastUsedAndTiesFallEitherWay() {
    Set<Integer> firsts = new HashSet<>();
    for (long seed = 0; seed < 40; seed++) {
      LeastUsedDatanodes datanodes = LeastUsedDatanodes.over(3, new SplittableRandom(seed));
      datanodes.open(node -> node == 1, 1);

      int[] nodes = datanodes.open(node -> false, 2);

      assertThat(nodes).containsExactlyInAnyOrder(0, 2);
      firsts.add(nodes[0]);
    }
    assertThat(firsts).containsExactlyInAnyOrder(0, 2);
  }

  @Test
  void moreReplicasThanDatanodesTakeEachOnce() {
    LeastUsedDatanodes datanodes = LeastUsedDatanodes.over(2, new SplittableRandom(3));

    assertThat(datanodes.open(node -> node == 1, 3)).containsExactly(1, 0);
    assertThat(datanodes.openPipelines()).containsExactly(1, 1);
  }

  @Test
  void closingFreesTheDatanodesAndClosingWhatIsNotOpenIsRefused() {
    LeastUsedDatanodes datanodes = LeastUsedDatanodes.over(3, new SplittableRandom(5));
    int[] nodes = datanodes.open(node -> false, 2);

    datanodes.close(nodes);

    assertThat(datanodes.openPipelines()).containsExactly(0, 0, 0);
    assertThatThrownBy(() -> datanodes.close(nodes))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has no open pipeline");
    assertThatThrownBy(() -> LeastUsedDatanodes.over(0, new SplittableRandom(1)))
        .hasMessageContaining("at least one datanode");
  }
}
