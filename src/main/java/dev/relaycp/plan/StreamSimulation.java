package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

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
 */
final class StreamSimulation {
  private static final double BYTES_EPSILON = 1e-3;
  private static final double SECONDS_EPSILON = 1e-9;

  /** A node: its cap, when it can start (seconds from the simulation's start), and its workers. */
  record Node(double capBytesPerSecond, double readySeconds, int workers) {
    Node {
      if (!(capBytesPerSecond > 0) || !(readySeconds >= 0) || workers < 1) {
        throw new IllegalArgumentException(
            "node cap " + capBytesPerSecond + ", ready " + readySeconds + ", workers " + workers);
      }
    }
  }

  /** One step of a task: a delay, then bytes. */
  record Step(double fixedSeconds, double bytes) {}

  /** From {@code fromSeconds} on, the sum of all rates is at most {@code capBytesPerSecond}. */
  record CapChange(double fromSeconds, double capBytesPerSecond) {}

  private StreamSimulation() {}

  /**
   * Seconds until the last task's last step completes. {@code caps} must start at 0 and be in
   * time order.
   */
  static double run(List<Node> nodes, List<List<Step>> tasks, List<CapChange> caps) {
    requireNonNull(nodes, "nodes is null");
    requireNonNull(tasks, "tasks is null");
    requireNonNull(caps, "caps is null");
    if (caps.isEmpty() || caps.get(0).fromSeconds() != 0) {
      throw new IllegalArgumentException("caps must start at 0 s: " + caps);
    }
    List<Integer> workerNode = new ArrayList<>();
    int maxWorkers = nodes.stream().mapToInt(Node::workers).max().orElse(0);
    for (int slot = 0; slot < maxWorkers; slot++) {
      for (int node = 0; node < nodes.size(); node++) {
        if (slot < nodes.get(node).workers()) {
          workerNode.add(node);
        }
      }
    }
    int workers = workerNode.size();
    int[] task = new int[workers];
    int[] step = new int[workers];
    double[] fixed = new double[workers];
    double[] bytes = new double[workers];
    double[] rate = new double[workers];
    java.util.Arrays.fill(task, -1);
    int nextTask = 0;
    int capIndex = 0;
    double now = 0;
    while (true) {
      while (capIndex + 1 < caps.size() && caps.get(capIndex + 1).fromSeconds() <= now + SECONDS_EPSILON) {
        capIndex++;
      }
      for (int worker = 0; worker < workers && nextTask < tasks.size(); worker++) {
        if (task[worker] < 0 && nodes.get(workerNode.get(worker)).readySeconds() <= now + SECONDS_EPSILON) {
          task[worker] = nextTask++;
          step[worker] = -1;
          advanceStep(tasks, worker, task, step, fixed, bytes);
        }
      }
      boolean busy = false;
      int[] moving = new int[nodes.size()];
      for (int worker = 0; worker < workers; worker++) {
        if (task[worker] >= 0) {
          busy = true;
          if (fixed[worker] <= 0 && bytes[worker] > 0) {
            moving[workerNode.get(worker)]++;
          }
        }
      }
      double nextChange = Double.POSITIVE_INFINITY;
      if (nextTask < tasks.size()) {
        for (Node node : nodes) {
          if (node.readySeconds() > now + SECONDS_EPSILON) {
            nextChange = Math.min(nextChange, node.readySeconds());
          }
        }
      }
      if (capIndex + 1 < caps.size()) {
        nextChange = Math.min(nextChange, caps.get(capIndex + 1).fromSeconds());
      }
      if (!busy) {
        if (nextTask >= tasks.size()) {
          return now;
        }
        if (nextChange == Double.POSITIVE_INFINITY) {
          throw new IllegalStateException("tasks remain but no node will ever be ready");
        }
        now = nextChange;
        continue;
      }
      double total = 0;
      for (int worker = 0; worker < workers; worker++) {
        rate[worker] = 0;
        if (task[worker] >= 0 && fixed[worker] <= 0 && bytes[worker] > 0) {
          int node = workerNode.get(worker);
          rate[worker] = nodes.get(node).capBytesPerSecond() / moving[node];
          total += rate[worker];
        }
      }
      double cap = caps.get(capIndex).capBytesPerSecond();
      if (total > cap) {
        double scale = cap / total;
        for (int worker = 0; worker < workers; worker++) {
          rate[worker] *= scale;
        }
      }
      double delta = nextChange - now;
      for (int worker = 0; worker < workers; worker++) {
        if (task[worker] < 0) {
          continue;
        }
        delta = Math.min(delta, fixed[worker] > 0 ? fixed[worker] : bytes[worker] / rate[worker]);
      }
      for (int worker = 0; worker < workers; worker++) {
        if (task[worker] < 0) {
          continue;
        }
        if (fixed[worker] > 0) {
          fixed[worker] -= delta;
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
          advanceStep(tasks, worker, task, step, fixed, bytes);
        }
      }
      now += delta;
    }
  }

  /** Moves a worker to the next non-empty step of its task, or makes it idle. */
  private static void advanceStep(
      List<List<Step>> tasks, int worker, int[] task, int[] step, double[] fixed, double[] bytes) {
    List<Step> steps = tasks.get(task[worker]);
    while (++step[worker] < steps.size()) {
      Step next = steps.get(step[worker]);
      if (next.fixedSeconds() > 0 || next.bytes() > 0) {
        fixed[worker] = next.fixedSeconds();
        bytes[worker] = next.bytes();
        return;
      }
    }
    task[worker] = -1;
    fixed[worker] = 0;
    bytes[worker] = 0;
  }
}
