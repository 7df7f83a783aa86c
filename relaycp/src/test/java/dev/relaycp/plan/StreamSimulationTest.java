package dev.relaycp.plan;

import static dev.relaycp.plan.StreamSimulation.SharedCpu.onLanes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamSimulationTest {
  @Test
  void aByteWindowLeavesTasksForNodesThatJoinLate() {
    // 20 tasks of 10 bytes; node 0 (10 B/s) from 0 s, two more from 10 s. Window 20 bytes: node 0
    // holds 2 tasks at 5 B/s, 10 done by 10 s. At 10 s the three nodes take 2 each (2 s); at
    // 12 s 4 are left and a second task is taken only while more than 3 wait: 3 tasks, 1 s; the
    // last 1 s more: 14 s. With 16 workers and no window node 0 takes 16 at once (10 B at
    // 10/16 B/s: 16 s) and the late nodes only the last 4.
    List<List<StreamSimulation.Step>> tasks =
        Collections.nCopies(20, List.of(new StreamSimulation.Step(0, 10)));
    List<StreamSimulation.CapChange> caps = List.of(new StreamSimulation.CapChange(0, 1000));
    List<StreamSimulation.Node> windowed =
        List.of(
            new StreamSimulation.Node(10, 0, 16, 20),
            new StreamSimulation.Node(10, 10, 16, 20),
            new StreamSimulation.Node(10, 10, 16, 20));
    assertThat(StreamSimulation.run(windowed, tasks, caps, null, true)).isCloseTo(14, within(1e-6));
    List<StreamSimulation.Node> unbounded =
        List.of(
            new StreamSimulation.Node(10, 0, 16),
            new StreamSimulation.Node(10, 10, 16),
            new StreamSimulation.Node(10, 10, 16));
    assertThat(StreamSimulation.run(unbounded, tasks, caps)).isCloseTo(16, within(1e-6));
  }

  @Test
  void sharedDelaysSplitTheLanesWhileUnsharedOnesDoNot() {
    // Four workers, each 1 s unshared then 2 s shared. Two lanes: the unshared second runs side
    // by side (1 s), then four workers split two lanes, half speed: 4 s more. No limit: 3 s.
    List<List<StreamSimulation.Step>> tasks =
        Collections.nCopies(
            4, List.of(new StreamSimulation.Step(1, 0), new StreamSimulation.Step(2, 0, true)));
    List<StreamSimulation.Node> node = List.of(new StreamSimulation.Node(10, 0, 4));
    List<StreamSimulation.CapChange> caps = List.of(new StreamSimulation.CapChange(0, 10));
    assertThat(StreamSimulation.run(node, tasks, caps, null, false, onLanes(2))).isCloseTo(5, within(1e-9));
    assertThat(StreamSimulation.run(node, tasks, caps, null, false,
        onLanes(Double.POSITIVE_INFINITY)))
        .isCloseTo(3, within(1e-9));
  }

  @Test
  void aWorkerLeftAloneInASharedDelayGoesAtFullSpeed() {
    // One lane, shared delays of 1 s and 3 s: both at half speed until the first is done at 2 s,
    // when the other has 2 s left and the lane to itself: 4 s.
    List<List<StreamSimulation.Step>> tasks =
        List.of(
            List.of(new StreamSimulation.Step(1, 0, true)),
            List.of(new StreamSimulation.Step(3, 0, true)));
    List<StreamSimulation.Node> node = List.of(new StreamSimulation.Node(10, 0, 2));
    List<StreamSimulation.CapChange> caps = List.of(new StreamSimulation.CapChange(0, 10));
    assertThat(StreamSimulation.run(node, tasks, caps, null, false, onLanes(1))).isCloseTo(4, within(1e-9));
  }

  @Test
  void aLoadOnTheSharedLanesTakesItsShareFromTheSharedDelays() {
    // One lane; one worker with four shared delays of 1 s (4 s alone) and a load of 2 lane-s
    // asking one lane: each goes at half speed until the load is done at 4 s, when the worker
    // has two delays left: 6 s. A load still going when the tasks end does not count.
    List<List<StreamSimulation.Step>> tasks =
        Collections.nCopies(4, List.of(new StreamSimulation.Step(1, 0, true)));
    List<StreamSimulation.Node> node = List.of(new StreamSimulation.Node(10, 0, 1));
    List<StreamSimulation.CapChange> caps = List.of(new StreamSimulation.CapChange(0, 10));
    assertThat(StreamSimulation.run(node, tasks, caps, null, false,
        onLanes(1).withLoads(List.of(new StreamSimulation.SharedLoad(0, 2, 1))))).isCloseTo(6, within(1e-9));
    assertThat(StreamSimulation.run(node, tasks, caps, null, false,
        onLanes(1).withLoads(List.of(new StreamSimulation.SharedLoad(0, 100, 1))))).isCloseTo(8, within(1e-9));
  }

  @Test
  void bytesOnSharedLanesAskForTheirCpuBesideTheLoads() {
    // One lane; 100 bytes at 10 B/s ask 10 x 0.2 = 2 lanes, so they get half: 5 B/s, 20 s.
    // With a load of 5 lane-s asking one lane, 3 are asked: a third each, the load done at
    // 15 s with 50 bytes moved, the rest at 5 B/s: 25 s. Bytes that cost no lanes, or lanes
    // without limit: 10 s.
    List<List<StreamSimulation.Step>> tasks = List.of(List.of(new StreamSimulation.Step(0, 100)));
    List<StreamSimulation.Node> node = List.of(new StreamSimulation.Node(10, 0, 1));
    List<StreamSimulation.CapChange> caps = List.of(new StreamSimulation.CapChange(0, 1000));
    assertThat(StreamSimulation.run(node, tasks, caps, null, false,
        onLanes(1).withLaneSecondsPerByte(0.2)))
        .isCloseTo(20, within(1e-9));
    assertThat(StreamSimulation.run(node, tasks, caps, null, false,
        onLanes(1).withLoads(List.of(new StreamSimulation.SharedLoad(0, 5, 1)))
            .withLaneSecondsPerByte(0.2))).isCloseTo(25, within(1e-9));
    assertThat(StreamSimulation.run(node, tasks, caps, null, false,
        onLanes(1).withLaneSecondsPerByte(0)))
        .isCloseTo(10, within(1e-9));
    assertThat(StreamSimulation.run(node, tasks, caps, null, false,
        onLanes(Double.POSITIVE_INFINITY).withLaneSecondsPerByte(0.2))).isCloseTo(10, within(1e-9));
  }

  @Test
  void aGatedNodeTakesTasksOnceItsLoadHasDoneItsGate() {
    // One lane, six shared delays of 1 s, two nodes of one worker; node 1 waits for a load of
    // 2 lane-s (one lane asked) to do 1 lane-s. Node 0 and the load halve the lane: the gate
    // opens at 2 s, node 0's first delay done. Then three share it: both workers' delays and
    // the load end at 5 s; two delays side by side end at 7 s, the last alone at 8 s: the
    // lane never idles, 6 + 2 lane-s. Without the gate and the load: 6 s.
    List<List<StreamSimulation.Step>> tasks =
        Collections.nCopies(6, List.of(new StreamSimulation.Step(1, 0, true)));
    List<StreamSimulation.Node> nodes =
        List.of(new StreamSimulation.Node(10, 0, 1), new StreamSimulation.Node(10, 0, 1));
    List<StreamSimulation.CapChange> caps = List.of(new StreamSimulation.CapChange(0, 20));
    assertThat(StreamSimulation.run(nodes, tasks, caps, null, false,
        onLanes(1).withLoads(List.of(new StreamSimulation.SharedLoad(0, 2, 1, 1, 1))))).isCloseTo(8, within(1e-9));
    assertThat(StreamSimulation.run(nodes, tasks, caps, null, false, onLanes(1)))
        .isCloseTo(6, within(1e-9));
  }

  @Test
  void aNodeTakesTasksOnceBothItsGateIsOpenAndItIsReady() {
    // One node, one task of 10 bytes at 10 B/s. Ready at 3 s with its gate open at 1 s: 4 s.
    // Ready at once with a load of 4 lane-s alone on its lane gating it at its end: 5 s.
    List<List<StreamSimulation.Step>> task = List.of(List.of(new StreamSimulation.Step(0, 10)));
    List<StreamSimulation.CapChange> caps = List.of(new StreamSimulation.CapChange(0, 20));
    assertThat(StreamSimulation.run(List.of(new StreamSimulation.Node(10, 3, 1)), task, caps, null,
        false, onLanes(1).withLoads(List.of(new StreamSimulation.SharedLoad(0, 1, 1, 0, 1)))))
        .isCloseTo(4, within(1e-9));
    assertThat(StreamSimulation.run(List.of(new StreamSimulation.Node(10, 0, 1)), task, caps, null,
        false, onLanes(1).withLoads(List.of(new StreamSimulation.SharedLoad(0, 4, 1, 0, 4)))))
        .isCloseTo(5, within(1e-9));
  }

  @Test
  void staggeredWorkersMoveTheirBytesWithoutWaitingForEachOther() {
    // 16 workers on a 10 B/s node, 160 tasks of 1 s then 0.5 bytes (0.05 s alone). Started
    // together they stay in lock-step: 1 s, then 16 x 0.5 bytes sharing the node (0.8 s), ten
    // rounds: 18 s. Started 1/16 s apart, each one's bytes are done before the next one's
    // start: 1.05 s a task, and the last worker ends its tenth at 15/16 + 10.5 = 11.4375 s.
    List<List<StreamSimulation.Step>> tasks = new ArrayList<>();
    for (int task = 0; task < 160; task++) {
      tasks.add(List.of(new StreamSimulation.Step(1, 0.5)));
    }
    List<StreamSimulation.CapChange> caps = List.of(new StreamSimulation.CapChange(0, 10));
    List<StreamSimulation.Node> together =
        List.of(new StreamSimulation.Node(10, 0, 16, Double.POSITIVE_INFINITY, 0));
    List<StreamSimulation.Node> staggered =
        List.of(new StreamSimulation.Node(10, 0, 16, Double.POSITIVE_INFINITY, 1.0 / 16));

    assertThat(StreamSimulation.run(together, tasks, caps)).isCloseTo(18, within(1e-6));
    assertThat(StreamSimulation.run(staggered, tasks, caps)).isCloseTo(11.4375, within(1e-6));
  }

  @Test
  void aNodesWarmUpIsPaidOnTheFirstTasksItTakes() {
    // One worker, five shared delays of 1 s, 2 lane-s of warm-up over its first 2 tasks: those
    // take 2 s each, the other three 1 s, 7 s. Unshared delays (a task that is bytes alone)
    // pay none of it; a warm-up over more tasks than the node takes is paid in part.
    List<List<StreamSimulation.Step>> tasks =
        Collections.nCopies(5, List.of(new StreamSimulation.Step(1, 0, true)));
    List<StreamSimulation.CapChange> caps = List.of(new StreamSimulation.CapChange(0, 10));
    StreamSimulation.Node cold = new StreamSimulation.Node(10, 0, 1).withWarmUp(2, 2);
    assertThat(StreamSimulation.run(List.of(cold), tasks, caps, null, false, onLanes(1)))
        .isCloseTo(7, within(1e-9));
    assertThat(StreamSimulation.run(List.of(new StreamSimulation.Node(10, 0, 1).withWarmUp(10, 10)),
        tasks, caps, null, false, onLanes(1))).isCloseTo(10, within(1e-9));
    List<List<StreamSimulation.Step>> unshared =
        Collections.nCopies(5, List.of(new StreamSimulation.Step(1, 0, false)));
    assertThat(StreamSimulation.run(List.of(cold), unshared, caps, null, false, onLanes(1)))
        .isCloseTo(5, within(1e-9));
    assertThatThrownBy(() -> new StreamSimulation.Node(10, 0, 1).withWarmUp(1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("warm-up 1.0 lane-s over 0 tasks");
  }

  @Test
  void sharedCoresNeedLanesAndAFiniteCostPerByte() {
    assertThatThrownBy(() -> onLanes(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shared lanes 0.0 must be positive");
    assertThatThrownBy(() -> onLanes(1).withLaneSecondsPerByte(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lane-seconds per byte Infinity must be finite and 0 or more");
    assertThatThrownBy(() -> onLanes(1).withLoads(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("loads is null");
  }
}
