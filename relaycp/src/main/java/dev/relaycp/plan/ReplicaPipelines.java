package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.LeastUsedDatanodes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How many file bytes a second the destination's write pipelines carry, placed as the copy places
 * them: a fluid simulation of the pipelines a copy keeps open.
 *
 * <p>{@link HostFlow} spreads the replicas evenly over the destination's datanodes at every
 * moment, which only many pipelines at once come close to. A copy keeps a few open: each route
 * holds a chunk or two, and each chunk is written as one pipeline, which moves at the pace of its
 * busiest link. The copy names each chunk's datanodes to HDFS (the driver's favored datanodes):
 * the writer's own datanode first where it is one, then those the fewest open pipelines use, ties
 * at random. Even so, a few pipelines cannot always share a few links evenly: with one chunk a
 * route on the lab's 2 + 4 datanodes at replication 3 and v_i = 2 v_e they carry 0.90 of the
 * flow's rate, with two the whole of it. (Drawn at random, as HDFS draws a block's second and
 * later datanodes when it is not told, they carried 0.81 and 0.88 of it, and the copies there
 * 0.78 and 0.82.) Where the links have room, the pipelines hold nothing back.
 *
 * <p>The hosts: a writer relay on each destination datanode receives its routes' bytes over the
 * WAN (at most {@code external} times the WAN ratio, into its own link) and writes the first
 * replica on its own disk; a spawned writer receives its route's bytes over its WAN and sends the
 * first replica over its link to a datanode; each further replica crosses one datanode's link out
 * and a further datanode's link in. Routes pair the sites' relays in turn (route i goes to writer
 * i mod the destination's datanodes), one more per spawned pair. Rates are max-min fair over the
 * links, as long-lived TCP streams share them. A pipeline that finishes its block starts its
 * writer's next, on datanodes chosen afresh; every block is the same size, so the long-run rate
 * does not depend on it.
 *
 * <p>The answer is the bytes moved over the simulated time from a fixed seed, so the same hosts
 * always give the same rate. The source's side is {@link HostFlow}'s: a copy is held to the lesser
 * of the two. Where the destination's NameNode does not list its datanodes to the copy (it lists
 * them for its superuser only), HDFS draws them at random and the copy may fall short of this.
 */
final class ReplicaPipelines {
  private static final long SEED = 0x5eed_2026L;
  /**
   * Blocks a simulation ends: each event recomputes every pipeline's rate, so a copy with many
   * pipelines (whose links average out sooner) runs fewer, between the fewest and the most.
   */
  private static final int PIPELINE_BLOCKS = 100_000;
  private static final int FEWEST_BLOCKS = 200;
  private static final int MOST_BLOCKS = 3_000;
  private static final double EPSILON = 1e-9;

  private ReplicaPipelines() {}

  /**
   * The file bytes a second the writers' pipelines carry together, {@code chunksPerRoute} a
   * route (the chunks a route writes at once, {@link RelaycpSettings#chunksAtOnce}); infinite
   * when no replica leaves its writer's datanode, as {@link HostFlow} then has it exactly. The
   * source's placement plays no part: only its datanodes' count, which sets the routes.
   */
  static double rate(HostFlow.Hosts hosts, int chunksPerRoute) {
    requireNonNull(hosts, "hosts is null");
    if (chunksPerRoute < 1) {
      throw new IllegalArgumentException("chunksPerRoute must be 1 or more, got "
          + chunksPerRoute);
    }
    if (Double.isInfinite(hosts.wanRatio())) {
      throw new IllegalArgumentException("the simulation needs a finite wanRatio, got "
          + hosts.wanRatio());
    }
    if (hosts.destination().replicasWritten() == 1 && hosts.spawnedPairs() == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return new Simulation(hosts, chunksPerRoute).run();
  }

  /**
   * The links as numbered resources: datanode d's link in is 2d, its link out 2d + 1; then each
   * datanode writer's WAN; then each spawned writer's WAN and link out.
   */
  private static final class Simulation {
    private final int datanodes;
    private final int replicas;
    private final double[] capacity;
    private final List<Pipeline> pipelines = new ArrayList<>();
    private final LeastUsedDatanodes placement;

    Simulation(HostFlow.Hosts hosts, int chunksPerRoute) {
      Site destination = hosts.destination();
      this.datanodes = destination.nodes();
      this.replicas = destination.replicasWritten();
      this.placement = LeastUsedDatanodes.over(datanodes, new SplittableRandom(SEED));
      double link = destination.internal().bytesPerSecond();
      double wan = destination.external().bytesPerSecond() * hosts.wanRatio();
      double spawnedWan = hosts.spawned().external().bytesPerSecond() * hosts.wanRatio();
      double spawnedLink = hosts.spawned().internal().bytesPerSecond();
      capacity = new double[3 * datanodes + 2 * hosts.spawnedPairs()];
      for (int node = 0; node < datanodes; node++) {
        capacity[linkIn(node)] = link;
        capacity[linkOut(node)] = link;
        capacity[datanodeWan(node)] = wan;
      }
      for (int pair = 0; pair < hosts.spawnedPairs(); pair++) {
        capacity[spawnedWan(pair)] = spawnedWan;
        capacity[spawnedLinkOut(pair)] = spawnedLink;
      }
      int routes = Math.max(hosts.source().nodes(), datanodes);
      for (int route = 0; route < routes; route++) {
        for (int chunk = 0; chunk < chunksPerRoute; chunk++) {
          pipelines.add(new Pipeline(route % datanodes));
        }
      }
      for (int pair = 0; pair < hosts.spawnedPairs(); pair++) {
        for (int chunk = 0; chunk < chunksPerRoute; chunk++) {
          pipelines.add(new Pipeline(datanodes + pair));
        }
      }
    }

    private static int linkIn(int node) {
      return 2 * node;
    }

    private static int linkOut(int node) {
      return 2 * node + 1;
    }

    private int datanodeWan(int node) {
      return 2 * datanodes + node;
    }

    private int spawnedWan(int pair) {
      return 3 * datanodes + 2 * pair;
    }

    private int spawnedLinkOut(int pair) {
      return 3 * datanodes + 2 * pair + 1;
    }

    /** Runs until the pipelines have ended that many blocks; a block is one byte. */
    double run() {
      for (Pipeline pipeline : pipelines) {
        pipeline.choose();
      }
      int blocks = Math.max(FEWEST_BLOCKS,
          Math.min(MOST_BLOCKS, PIPELINE_BLOCKS / pipelines.size()));
      double seconds = 0;
      double moved = 0;
      for (int done = 0; done < blocks; ) {
        double[] rates = fairRates();
        double step = Double.POSITIVE_INFINITY;
        for (int index = 0; index < pipelines.size(); index++) {
          if (rates[index] > 0) {
            step = Math.min(step, pipelines.get(index).left / rates[index]);
          }
        }
        if (step == Double.POSITIVE_INFINITY) {
          throw new IllegalStateException("no pipeline can move: a link has no capacity");
        }
        for (int index = 0; index < pipelines.size(); index++) {
          Pipeline pipeline = pipelines.get(index);
          double bytes = Math.min(pipeline.left, rates[index] * step);
          pipeline.left -= bytes;
          moved += bytes;
          if (pipeline.left <= EPSILON) {
            pipeline.choose();
            done++;
          }
        }
        seconds += step;
      }
      return moved / seconds;
    }

    /**
     * Max-min fair rates by progressive filling: every unfrozen pipeline rises at the same pace
     * until a link it uses is full, which freezes every pipeline on that link.
     */
    private double[] fairRates() {
      double[] rates = new double[pipelines.size()];
      double[] left = capacity.clone();
      boolean[] frozen = new boolean[pipelines.size()];
      int[] users = new int[capacity.length];
      int rising = pipelines.size();
      while (rising > 0) {
        Arrays.fill(users, 0);
        for (int index = 0; index < pipelines.size(); index++) {
          if (!frozen[index]) {
            for (int link : pipelines.get(index).links) {
              users[link]++;
            }
          }
        }
        double rise = Double.POSITIVE_INFINITY;
        for (int link = 0; link < capacity.length; link++) {
          if (users[link] > 0) {
            rise = Math.min(rise, left[link] / users[link]);
          }
        }
        for (int link = 0; link < capacity.length; link++) {
          left[link] -= rise * users[link];
        }
        for (int index = 0; index < pipelines.size(); index++) {
          if (frozen[index]) {
            continue;
          }
          rates[index] += rise;
          for (int link : pipelines.get(index).links) {
            if (left[link] <= EPSILON * capacity[link]) {
              frozen[index] = true;
              rising--;
              break;
            }
          }
        }
      }
      return rates;
    }

    /** One open block: its writer, the links its bytes cross, and the bytes it has left. */
    private final class Pipeline {
      private final int writer;
      private int[] links;
      private int[] nodes;
      private double left;

      /** {@code writer} below the datanodes' count is a datanode's relay, above a spawned one. */
      Pipeline(int writer) {
        this.writer = writer;
      }

      /** Starts a new block on datanodes chosen as the copy chooses them. */
      void choose() {
        if (nodes != null) {
          placement.close(nodes);
        }
        boolean onDatanode = writer < datanodes;
        nodes = placement.open(node -> onDatanode && node == writer, replicas);
        List<Integer> crossed = new ArrayList<>();
        if (onDatanode) {
          // The first replica is the writer's own datanode; its bytes come in from the WAN.
          crossed.add(datanodeWan(writer));
          crossed.add(linkIn(writer));
        } else {
          int pair = writer - datanodes;
          crossed.add(spawnedWan(pair));
          crossed.add(spawnedLinkOut(pair));
          crossed.add(linkIn(nodes[0]));
        }
        for (int hop = 1; hop < nodes.length; hop++) {
          crossed.add(linkOut(nodes[hop - 1]));
          crossed.add(linkIn(nodes[hop]));
        }
        links = crossed.stream().mapToInt(Integer::intValue).toArray();
        left = 1;
      }
    }
  }
}
