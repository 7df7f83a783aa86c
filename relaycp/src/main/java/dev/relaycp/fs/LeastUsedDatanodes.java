package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/**
 * The rule that places a copy's write pipelines on the destination's datanodes, and the count of
 * the pipelines open on each: a pipeline's first replica on the writer's own datanode where it
 * is one, each further replica on the datanode the fewest open pipelines use, ties at random.
 *
 * <p>HDFS puts the first replica on the writer's datanode and draws the others at random, which
 * over a few datanodes and a dozen open pipelines leaves some links with two or three pipelines
 * while others idle. The copy names the datanodes this rule picks to HDFS as favored nodes
 * ({@code transfer.FavoredDatanodes}), and the planner simulates the same rule
 * ({@code plan.ReplicaPipelines}), so that the model places pipelines as the copy does.
 *
 * <p>Datanodes are numbered from 0. Not thread-safe.
 */
public final class LeastUsedDatanodes {
  private final int[] open;
  private final SplittableRandom random;

  private LeastUsedDatanodes(int datanodes, SplittableRandom random) {
    this.open = new int[datanodes];
    this.random = random;
  }

  /** Over {@code datanodes} datanodes, none in use, breaking ties from {@code random}. */
  public static LeastUsedDatanodes over(int datanodes, SplittableRandom random) {
    requireNonNull(random, "random is null");
    if (datanodes < 1) {
      throw new IllegalArgumentException("there must be at least one datanode, got "
          + datanodes);
    }
    return new LeastUsedDatanodes(datanodes, random);
  }

  /**
   * Places a pipeline of {@code replicas} replicas (at most every datanode) and counts it open
   * until {@link #close}: the first on the least used of the datanodes {@code writersOwn} accepts
   * (the writer's own; none for a writer that is not a datanode), where there is one, then the
   * least used of the rest. Returns the datanodes in pipeline order.
   */
  public int[] open(IntPredicate writersOwn, int replicas) {
    requireNonNull(writersOwn, "writersOwn is null");
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be 1 or more, got " + replicas);
    }
    int count = Math.min(replicas, open.length);
    boolean[] taken = new boolean[open.length];
    int[] nodes = new int[count];
    int placed = 0;
    int own = leastUsed(taken, writersOwn);
    if (own >= 0) {
      nodes[placed++] = own;
      taken[own] = true;
    }
    while (placed < count) {
      int node = leastUsed(taken, candidate -> true);
      nodes[placed++] = node;
      taken[node] = true;
    }
    for (int node : nodes) {
      open[node]++;
    }
    return nodes;
  }

  /** The pipeline on {@code nodes}, which {@link #open} returned, has closed. */
  public void close(int[] nodes) {
    requireNonNull(nodes, "nodes is null");
    for (int node : nodes) {
      if (open[node] == 0) {
        throw new IllegalStateException("datanode " + node + " has no open pipeline to close");
      }
      open[node]--;
    }
  }

  /** The open pipelines on each datanode. */
  public int[] openPipelines() {
    return open.clone();
  }

  /** The least used datanode not taken that {@code allowed} accepts, ties at random; -1 if none. */
  private int leastUsed(boolean[] taken, IntPredicate allowed) {
    int best = -1;
    int ties = 0;
    for (int node = 0; node < open.length; node++) {
      if (taken[node] || !allowed.test(node)) {
        continue;
      }
      if (best < 0 || open[node] < open[best]) {
        best = node;
        ties = 1;
      } else if (open[node] == open[best] && random.nextInt(++ties) == 0) {
        best = node;
      }
    }
    return best;
  }
}
