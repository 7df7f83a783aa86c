package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.DatanodeAddress;
import dev.relaycp.fs.LeastUsedDatanodes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Chooses the destination datanodes of each chunk's write pipeline so that the pipelines a copy
 * keeps open spread evenly over them, by {@link LeastUsedDatanodes}'s rule.
 *
 * <p>HDFS puts a block's first replica on the writer's own datanode and draws the others at
 * random. A copy keeps only a dozen or so pipelines open, so over a few datanodes some links then
 * carry two or three pipelines while others idle, and each pipeline moves at the pace of its
 * busiest link; where replicas are what fills the destination's links, the copy loses an eighth
 * to a fifth of its rate to that (the planner's {@code ReplicaPipelines} simulates it). Here each
 * replica goes to the datanode the fewest open pipelines use, ties broken at random; a writer on a
 * datanode keeps the first replica, as HDFS would. The choice reaches HDFS as the file's favored
 * nodes, which the NameNode follows unless a datanode is full or gone, or its rack already holds
 * as many of the block's replicas as the NameNode's placement policy allows a rack.
 *
 * <p>Thread-safe: routes open and close chunks concurrently.
 */
final class FavoredDatanodes {
  private final List<DatanodeAddress> transferAddresses;
  private final List<String> hosts;
  private final LeastUsedDatanodes pipelines;
  private final Map<Integer, int[]> chosen = new HashMap<>();

  private FavoredDatanodes(List<DatanodeAddress> transferAddresses, long seed) {
    this.transferAddresses = transferAddresses;
    this.hosts = transferAddresses.stream()
        .map(address -> HostAddresses.normalize(address.host()))
        .toList();
    this.pipelines = LeastUsedDatanodes.over(transferAddresses.size(),
        new SplittableRandom(seed));
  }

  /** Over the datanodes at {@code transferAddresses}, breaking ties from {@code seed}. */
  static FavoredDatanodes over(List<DatanodeAddress> transferAddresses, long seed) {
    requireNonNull(transferAddresses, "transferAddresses is null");
    if (transferAddresses.isEmpty()) {
      throw new IllegalArgumentException("there must be at least one datanode to favor");
    }
    return new FavoredDatanodes(List.copyOf(transferAddresses), seed);
  }

  /**
   * Chooses the datanodes for chunk {@code chunkId}, written from {@code writerAddress} (as
   * {@link HostAddresses#normalize} gives it) with {@code replication} replicas, and counts its
   * pipeline open until {@link #close}: the writer's own datanode first where it is one, then the
   * least used others, as many as the replicas (at most every datanode).
   */
  synchronized List<DatanodeAddress> open(int chunkId, String writerAddress, int replication) {
    requireNonNull(writerAddress, "writerAddress is null");
    if (replication < 1) {
      throw new IllegalArgumentException("replication must be 1 or more, got " + replication);
    }
    close(chunkId);
    int[] nodes = pipelines.open(node -> hosts.get(node).equals(writerAddress), replication);
    List<DatanodeAddress> favored = new ArrayList<>(nodes.length);
    for (int node : nodes) {
      favored.add(transferAddresses.get(node));
    }
    chosen.put(chunkId, nodes);
    return favored;
  }

  /** Chunk {@code chunkId}'s pipeline is closed; nothing happens if it was not open. */
  synchronized void close(int chunkId) {
    int[] nodes = chosen.remove(chunkId);
    if (nodes != null) {
      pipelines.close(nodes);
    }
  }

  /** Open pipelines on each datanode, in the order of the transfer addresses. */
  synchronized int[] openPipelines() {
    return pipelines.openPipelines();
  }
}
