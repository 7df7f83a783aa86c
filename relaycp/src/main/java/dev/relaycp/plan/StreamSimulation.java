package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A fluid simulation of workers pulling tasks from one queue, shared by the relaycp model
 * (streams on relays pulling chunks) and the DistCp model (map slots on nodes running maps).
 *
 * <p>Each node has a rate cap shared equally by its workers that are moving bytes; the sum of
 * all workers' rates is further held under a site-wide cap that may rise at given times (when
 * spawned relays join). A task is a list of steps done in order, each a fixed delay (start-up,
 * opening a file) followed by bytes. An idle worker on a ready node takes the next task; ties
 * go to workers in the order slot 0 of every node, then slot 1 of every node, so that the
 * first wave spreads over the nodes as YARN and the relaycp scheduler do. Between events every
 * rate is constant, so the simulation is exact for this model.
 *
 * <p>Two options follow the tools' own rules. With {@code holdBack}, a node that already has a
 * task takes another only while more tasks wait than there are nodes (as a relaycp route does),
 * so nodes that become ready late still find work. With {@link Destinations}, each worker's
 * bytes land on one of that many receiving nodes chosen at random for each block (DistCp's maps
 * write as remote HDFS clients, so the destination's namenode picks each block's datanode); the
 * workers on a node then move together at that node's long-run rate under those draws, see
 * {@link RemoteWriterPipelines}. With a number of shared lanes, a step's delay may be marked
 * shared: work on machinery every worker uses (a namenode, the cluster's cores), of which that
 * many workers can do at full speed at once; when more are in a shared delay, they split the
 * lanes equally.
 * {@link SharedLoad}s are work on those lanes that no worker does (a JVM starting on the same
 * cores): each asks for its number of lanes. Where the lanes are cores that bytes cost too,
 * the bytes moving ask for {@code laneSecondsPerByte} lanes per byte a second. When the workers
 * in a shared delay, the loads and the bytes ask for more lanes than there are, every one gets
 * the same fraction of what it asks.
 */
final class StreamSimulation {
  private static final double BYTES_EPSILON = 1e-3;
  private static final double SECONDS_EPSILON = 1e-9;

  /**
   * A node: its cap, when it can start (seconds from the simulation's start), its workers, and
   * the bytes its tasks may come to: a node holding a task takes another only while the tasks
   * it holds come to fewer bytes than {@code windowBytes}. Its worker in slot j starts {@code j
   * x staggerSeconds} after the node is ready: identical workers started together would move
   * their bytes in lock-step, each at a share of the cap, where real streams drift apart and
   * mostly find the link to themselves. Its workers take {@code fixedFactor} times each step's
   * fixed delay: a node slower at that work (a colder or smaller machine) than the one the
   * delays were measured on. The first {@code warmUpTasks} tasks it takes that open with a
   * shared delay each add {@code warmUpLaneSeconds / warmUpTasks} to that delay: a fresh JVM's
   * warm-up (its interpreter and JIT on the per-file work), paid on the files it carries, so a
   * node that carries few files pays little of it.
   */
  record Node(
      double capBytesPerSecond,
      double readySeconds,
      int workers,
      double windowBytes,
      double staggerSeconds,
      double fixedFactor,
      double warmUpLaneSeconds,
      int warmUpTasks) {
    Node {
      if (!(capBytesPerSecond > 0) || !(readySeconds >= 0) || workers < 1 || !(windowBytes > 0)
          || !(staggerSeconds >= 0) || !(fixedFactor > 0) || Double.isInfinite(fixedFactor)
          || !(warmUpLaneSeconds >= 0) || Double.isInfinite(warmUpLaneSeconds)
          || warmUpTasks < 0 || (warmUpLaneSeconds > 0 && warmUpTasks == 0)) {
        throw new IllegalArgumentException(
            "node cap " + capBytesPerSecond + ", ready " + readySeconds + ", workers " + workers
                + ", window " + windowBytes + ", stagger " + staggerSeconds + ", fixed factor "
                + fixedFactor + ", warm-up " + warmUpLaneSeconds + " lane-s over "
                + warmUpTasks + " tasks");
      }
    }

    Node(double capBytesPerSecond, double readySeconds, int workers, double windowBytes,
        double staggerSeconds, double fixedFactor) {
      this(capBytesPerSecond, readySeconds, workers, windowBytes, staggerSeconds, fixedFactor,
          0, 0);
    }

    Node(double capBytesPerSecond, double readySeconds, int workers, double windowBytes,
        double staggerSeconds) {
      this(capBytesPerSecond, readySeconds, workers, windowBytes, staggerSeconds, 1);
    }

    Node(double capBytesPerSecond, double readySeconds, int workers, double windowBytes) {
      this(capBytesPerSecond, readySeconds, workers, windowBytes, 0);
    }

    Node(double capBytesPerSecond, double readySeconds, int workers) {
      this(capBytesPerSecond, readySeconds, workers, Double.POSITIVE_INFINITY, 0);
    }

    /** When the worker in {@code slot} may take its first task. */
    double readySeconds(int slot) {
      return readySeconds + slot * staggerSeconds;
    }

    /** This node with {@code laneSeconds} of warm-up paid over its first {@code tasks} tasks. */
    Node withWarmUp(double laneSeconds, int tasks) {
      return new Node(capBytesPerSecond, readySeconds, workers, windowBytes, staggerSeconds,
          fixedFactor, laneSeconds, tasks);
    }
  }

  /**
   * One step of a task: a delay, then bytes. A {@code shared} delay is work on the shared lanes:
   * {@code fixedSeconds} is its length for a worker that has a lane to itself.
   */
  record Step(double fixedSeconds, double bytes, boolean shared) {
    Step(double fixedSeconds, double bytes) {
      this(fixedSeconds, bytes, false);
    }
  }

  /**
   * Work on the shared lanes besides the tasks: from {@code fromSeconds}, {@code laneSeconds}
   * of it (the time it takes on one lane to itself), on at most {@code lanes} lanes at once.
   * When {@code gatedNode} is a node's index (-1: none), that node's workers start only once
   * this load has done {@code gateLaneSeconds} of its work (a relay serves once its JVM has
   * started), and not before the node's own ready time.
   */
  record SharedLoad(double fromSeconds, double laneSeconds, double lanes, int gatedNode,
      double gateLaneSeconds) {
    SharedLoad {
      if (!(fromSeconds >= 0) || !(laneSeconds >= 0) || !(lanes > 0)
          || Double.isInfinite(fromSeconds) || Double.isInfinite(laneSeconds)
          || Double.isInfinite(lanes) || gatedNode < -1
          || !(gateLaneSeconds >= 0 && gateLaneSeconds <= laneSeconds)) {
        throw new IllegalArgumentException(
            "shared load from " + fromSeconds + " s of " + laneSeconds + " lane-s on " + lanes
                + " lanes, gating node " + gatedNode + " at " + gateLaneSeconds + " lane-s");
      }
    }

    SharedLoad(double fromSeconds, double laneSeconds, double lanes) {
      this(fromSeconds, laneSeconds, lanes, -1, 0);
    }
  }

  /** From {@code fromSeconds} on, the sum of all rates is at most {@code capBytesPerSecond}. */
  record CapChange(double fromSeconds, double capBytesPerSecond) {}

  /**
   * The shared cores the workers' shared delays run on: {@code lanes} lanes (infinite: every
   * shared delay at full speed), other work on them ({@code loads}), and the lane time each byte
   * moved costs ({@code laneSecondsPerByte}; 0: bytes cost none, and with infinite lanes it
   * changes nothing).
   */
  record SharedCpu(double lanes, List<SharedLoad> loads, double laneSecondsPerByte) {
    /** No shared cores: every shared delay at full speed, bytes free. */
    static final SharedCpu UNLIMITED = onLanes(Double.POSITIVE_INFINITY);

    SharedCpu {
      loads = List.copyOf(requireNonNull(loads, "loads is null"));
      if (!(lanes > 0)) {
        throw new IllegalArgumentException("shared lanes " + lanes + " must be positive");
      }
      if (!(laneSecondsPerByte >= 0) || Double.isInfinite(laneSecondsPerByte)) {
        throw new IllegalArgumentException(
            "lane-seconds per byte " + laneSecondsPerByte + " must be finite and 0 or more");
      }
    }

    /** {@code lanes} lanes with nothing else on them, bytes free. */
    static SharedCpu onLanes(double lanes) {
      return new SharedCpu(lanes, List.of(), 0);
    }

    SharedCpu withLoads(List<SharedLoad> otherLoads) {
      return new SharedCpu(lanes, otherLoads, laneSecondsPerByte);
    }

    SharedCpu withLaneSecondsPerByte(double secondsPerByte) {
      return new SharedCpu(lanes, loads, secondsPerByte);
    }
  }

  /**
   * Receiving nodes, one picked at random for each block a worker writes, each taking a cap;
   * each block's pipeline holds {@code replicas} of them.
   */
  record Destinations(int nodes, double capBytesPerSecond, int replicas) {
    Destinations {
      if (nodes < 1 || !(capBytesPerSecond > 0) || replicas < 1) {
        throw new IllegalArgumentException("destinations " + nodes + " at " + capBytesPerSecond
            + " with " + replicas + " replicas");
      }
    }
  }

  private StreamSimulation() {}

  /**
   * Seconds until the last task's last step completes. {@code caps} must start at 0 and be in
   * time order.
   */
  static double run(List<Node> nodes, List<List<Step>> tasks, List<CapChange> caps) {
    return run(nodes, tasks, caps, null, false);
  }

  /**
   * As {@link #run(List, List, List)}, with bytes landing on random {@code destinations} when
   * not null, and a node's second and later workers holding back when {@code holdBack}.
   */
  static double run(
      List<Node> nodes,
      List<List<Step>> tasks,
      List<CapChange> caps,
      Destinations destinations,
      boolean holdBack) {
    return run(nodes, tasks, caps, destinations, holdBack, SharedCpu.UNLIMITED);
  }

  /**
   * As {@link #run(List, List, List, Destinations, boolean)}, with the shared delays, {@code
   * cores}' loads and the bytes' own cost on {@code cores}' lanes. A load still going when the
   * last task ends does not delay the end.
   */
  static double run(
      List<Node> nodes,
      List<List<Step>> tasks,
      List<CapChange> caps,
      Destinations destinations,
      boolean holdBack,
      SharedCpu cores) {
    requireNonNull(cores, "cores is null");
    double sharedLanes = cores.lanes();
    List<SharedLoad> loads = cores.loads();
    double laneSecondsPerByte = cores.laneSecondsPerByte();
    requireNonNull(nodes, "nodes is null");
    requireNonNull(tasks, "tasks is null");
    requireNonNull(caps, "caps is null");
    if (caps.isEmpty() || caps.get(0).fromSeconds() != 0) {
      throw new IllegalArgumentException("caps must start at 0 s: " + caps);
    }
    List<Integer> workerNode = new ArrayList<>();
    List<Integer> workerSlot = new ArrayList<>();
    int maxWorkers = nodes.stream().mapToInt(Node::workers).max().orElse(0);
    for (int slot = 0; slot < maxWorkers; slot++) {
      for (int node = 0; node < nodes.size(); node++) {
        if (slot < nodes.get(node).workers()) {
          workerNode.add(node);
          workerSlot.add(slot);
        }
      }
    }
    int workers = workerNode.size();
    double[] taskBytes = new double[tasks.size()];
    for (int index = 0; index < tasks.size(); index++) {
      for (Step step : tasks.get(index)) {
        taskBytes[index] += step.bytes();
      }
    }
    int[] task = new int[workers];
    int[] step = new int[workers];
    double[] fixed = new double[workers];
    boolean[] shared = new boolean[workers];
    double[] pace = new double[workers];
    double[] bytes = new double[workers];
    double[] rate = new double[workers];
    Arrays.fill(task, -1);
    int[] warmUpLeft = nodes.stream().mapToInt(Node::warmUpTasks).toArray();
    double[] loadLeft = new double[loads.size()];
    // When a node's gate opened: 0 for a node no load gates, infinite until its load opens it.
    double[] gateOpen = new double[nodes.size()];
    for (int load = 0; load < loads.size(); load++) {
      SharedLoad sharedLoad = loads.get(load);
      loadLeft[load] = sharedLoad.laneSeconds();
      if (sharedLoad.gatedNode() >= nodes.size()) {
        throw new IllegalArgumentException("a load gates node " + sharedLoad.gatedNode() + " of "
            + nodes.size());
      }
      if (sharedLoad.gatedNode() >= 0) {
        gateOpen[sharedLoad.gatedNode()] =
            sharedLoad.gateLaneSeconds() > 0 ? Double.POSITIVE_INFINITY : sharedLoad.fromSeconds();
      }
    }
    // Each node's rate under random receivers, by how many workers move on every node.
    Map<List<Integer>, double[]> remoteRates = new HashMap<>();
    double[] nodeCaps = nodes.stream().mapToDouble(Node::capBytesPerSecond).toArray();
    int nextTask = 0;
    int capIndex = 0;
    double now = 0;
    while (true) {
      while (capIndex + 1 < caps.size() && caps.get(capIndex + 1).fromSeconds() <= now + SECONDS_EPSILON) {
        capIndex++;
      }
      int[] holding = new int[nodes.size()];
      double[] heldBytes = new double[nodes.size()];
      for (int worker = 0; worker < workers; worker++) {
        if (task[worker] >= 0) {
          holding[workerNode.get(worker)]++;
          heldBytes[workerNode.get(worker)] += taskBytes[task[worker]];
        }
      }
      for (int worker = 0; worker < workers && nextTask < tasks.size(); worker++) {
        int node = workerNode.get(worker);
        boolean room =
            holding[node] == 0
                || (heldBytes[node] < nodes.get(node).windowBytes()
                    && (!holdBack || tasks.size() - nextTask > nodes.size()));
        if (task[worker] < 0 && room
            && readySeconds(nodes.get(node), gateOpen[node], workerSlot.get(worker))
                <= now + SECONDS_EPSILON) {
          holding[node]++;
          heldBytes[node] += taskBytes[nextTask];
          task[worker] = nextTask++;
          step[worker] = -1;
          advanceStep(tasks, worker, task, step, fixed, bytes, shared, nodes.get(node).fixedFactor());
          if (shared[worker] && step[worker] == 0 && warmUpLeft[node] > 0) {
            warmUpLeft[node]--;
            fixed[worker] += nodes.get(node).warmUpLaneSeconds() / nodes.get(node).warmUpTasks();
          }
        }
      }
      boolean busy = false;
      int[] moving = new int[nodes.size()];
      int inShared = 0;
      for (int worker = 0; worker < workers; worker++) {
        if (task[worker] >= 0) {
          busy = true;
          if (fixed[worker] > 0 && shared[worker]) {
            inShared++;
          }
          if (fixed[worker] <= 0 && bytes[worker] > 0) {
            moving[workerNode.get(worker)]++;
          }
        }
      }
      double nextChange = Double.POSITIVE_INFINITY;
      if (nextTask < tasks.size()) {
        for (int worker = 0; worker < workers; worker++) {
          int node = workerNode.get(worker);
          double ready = readySeconds(nodes.get(node), gateOpen[node], workerSlot.get(worker));
          if (task[worker] < 0 && ready > now + SECONDS_EPSILON) {
            nextChange = Math.min(nextChange, ready);
          }
        }
      }
      if (capIndex + 1 < caps.size()) {
        nextChange = Math.min(nextChange, caps.get(capIndex + 1).fromSeconds());
      }
      double loadLanes = 0;
      for (int load = 0; load < loads.size(); load++) {
        SharedLoad sharedLoad = loads.get(load);
        if (loadLeft[load] <= 0) {
          continue;
        }
        if (sharedLoad.fromSeconds() > now + SECONDS_EPSILON) {
          nextChange = Math.min(nextChange, sharedLoad.fromSeconds());
        } else {
          loadLanes += sharedLoad.lanes();
        }
      }
      if (!busy) {
        if (nextTask >= tasks.size()) {
          return now;
        }
        // Loads go on while every worker waits.
        double sharedPace = pace(loadLanes, sharedLanes);
        double loadStep = untilLoadEvent(loads, loadLeft, now, sharedPace);
        double until = Math.min(nextChange, now + loadStep);
        if (until == Double.POSITIVE_INFINITY) {
          throw new IllegalStateException("tasks remain but no node will ever be ready");
        }
        advanceLoads(loads, loadLeft, gateOpen, now, until - now, sharedPace);
        now = until;
        continue;
      }
      double[] nodeRates =
          destinations == null
              ? nodeCaps
              : remoteRates.computeIfAbsent(
                  Arrays.stream(moving).boxed().toList(),
                  key -> RemoteWriterPipelines.nodeRates(
                      nodeCaps, moving, destinations.nodes(), destinations.capBytesPerSecond(),
                      destinations.replicas()));
      double total = 0;
      for (int worker = 0; worker < workers; worker++) {
        rate[worker] = 0;
        if (task[worker] >= 0 && fixed[worker] <= 0 && bytes[worker] > 0) {
          int node = workerNode.get(worker);
          rate[worker] = nodeRates[node] / moving[node];
          total += rate[worker];
        }
      }
      double cap = caps.get(capIndex).capBytesPerSecond();
      if (total > cap) {
        double scale = cap / total;
        for (int worker = 0; worker < workers; worker++) {
          rate[worker] *= scale;
        }
        total = cap;
      }
      double sharedPace = pace(inShared + loadLanes + total * laneSecondsPerByte, sharedLanes);
      if (laneSecondsPerByte > 0 && sharedPace < 1) {
        for (int worker = 0; worker < workers; worker++) {
          rate[worker] *= sharedPace;
        }
      }
      double loadStep = untilLoadEvent(loads, loadLeft, now, sharedPace);
      double delta = Math.min(nextChange - now, loadStep);
      for (int worker = 0; worker < workers; worker++) {
        if (task[worker] < 0) {
          continue;
        }
        pace[worker] = shared[worker] ? sharedPace : 1;
        delta =
            Math.min(
                delta, fixed[worker] > 0 ? fixed[worker] / pace[worker] : bytes[worker] / rate[worker]);
      }
      advanceLoads(loads, loadLeft, gateOpen, now, delta, sharedPace);
      for (int worker = 0; worker < workers; worker++) {
        if (task[worker] < 0) {
          continue;
        }
        if (fixed[worker] > 0) {
          fixed[worker] -= delta * pace[worker];
          if (fixed[worker] <= SECONDS_EPSILON) {
            fixed[worker] = 0;
          }
        } else {
          bytes[worker] -= rate[worker] * delta;
          if (bytes[worker] <= BYTES_EPSILON) {
            bytes[worker] = 0;
          }
        }
        if (fixed[worker] <= 0 && bytes[worker] <= 0) {
          advanceStep(tasks, worker, task, step, fixed, bytes, shared,
              nodes.get(workerNode.get(worker)).fixedFactor());
        }
      }
      now += delta;
    }
  }

  /** The fraction of what it asks each asker gets when {@code asked} lanes are asked for. */
  private static double pace(double asked, double sharedLanes) {
    return asked <= sharedLanes ? 1 : sharedLanes / asked;
  }

  /** Whether {@code load} is working at {@code now}: started and not done. */
  private static boolean running(SharedLoad load, double left, double now) {
    return left > 0 && load.fromSeconds() <= now + SECONDS_EPSILON;
  }

  /**
   * Seconds from {@code now} until a running load opens its gate or ends, each at {@code pace}
   * of the lanes it asks for; infinite when none runs.
   */
  private static double untilLoadEvent(List<SharedLoad> loads, double[] loadLeft, double now,
      double pace) {
    double seconds = Double.POSITIVE_INFINITY;
    for (int load = 0; load < loads.size(); load++) {
      SharedLoad sharedLoad = loads.get(load);
      if (running(sharedLoad, loadLeft[load], now)) {
        double toGate = gateLeft(sharedLoad, loadLeft[load]);
        seconds = Math.min(seconds,
            (toGate > 0 ? toGate : loadLeft[load]) / (sharedLoad.lanes() * pace));
      }
    }
    return seconds;
  }

  /**
   * Moves every running load {@code seconds} on at {@code pace} of the lanes it asks for, and
   * opens the gates of those that have done their gate's work.
   */
  private static void advanceLoads(List<SharedLoad> loads, double[] loadLeft, double[] gateOpen,
      double now, double seconds, double pace) {
    for (int load = 0; load < loads.size(); load++) {
      SharedLoad sharedLoad = loads.get(load);
      if (running(sharedLoad, loadLeft[load], now)) {
        loadLeft[load] -= seconds * sharedLoad.lanes() * pace;
        if (loadLeft[load] <= SECONDS_EPSILON) {
          loadLeft[load] = 0;
        }
        openGate(sharedLoad, loadLeft[load], gateOpen, now + seconds);
      }
    }
  }

  /** When {@code node}'s worker in {@code slot} may take its first task. */
  private static double readySeconds(Node node, double gateOpen, int slot) {
    return Math.max(node.readySeconds(slot), gateOpen + slot * node.staggerSeconds());
  }

  /**
   * The lane-seconds {@code load} has yet to do before it opens its gate; 0 when it gates no
   * node or what is left is within rounding (then the gate opens, and no step waits for a
   * remainder too small to change the load's work left).
   */
  private static double gateLeft(SharedLoad load, double left) {
    if (load.gatedNode() < 0) {
      return 0;
    }
    double toGate = load.gateLaneSeconds() - (load.laneSeconds() - left);
    return toGate > SECONDS_EPSILON ? toGate : 0;
  }

  /** Opens {@code load}'s gate at {@code seconds} if the load has done its gate's work. */
  private static void openGate(SharedLoad load, double left, double[] gateOpen, double seconds) {
    if (load.gatedNode() >= 0 && gateOpen[load.gatedNode()] == Double.POSITIVE_INFINITY
        && gateLeft(load, left) == 0) {
      gateOpen[load.gatedNode()] = seconds;
    }
  }

  /**
   * Moves a worker to the next non-empty step of its task, or makes it idle; the step's delay
   * is scaled by the worker's node's {@code fixedFactor}.
   */
  private static void advanceStep(
      List<List<Step>> tasks,
      int worker,
      int[] task,
      int[] step,
      double[] fixed,
      double[] bytes,
      boolean[] shared,
      double fixedFactor) {
    List<Step> steps = tasks.get(task[worker]);
    while (++step[worker] < steps.size()) {
      Step next = steps.get(step[worker]);
      if (next.fixedSeconds() > 0 || next.bytes() > 0) {
        fixed[worker] = next.fixedSeconds() * fixedFactor;
        bytes[worker] = next.bytes();
        shared[worker] = next.shared();
        return;
      }
    }
    task[worker] = -1;
    fixed[worker] = 0;
    bytes[worker] = 0;
    shared[worker] = false;
  }
}
