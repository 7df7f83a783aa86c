package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What writers that are remote HDFS clients move in the long run, as DistCp's maps are to the
 * destination cluster. For each block a writer asks the namenode for a pipeline, and a client on
 * no datanode has no local node to favour, so the block's first datanode is one picked at
 * random; the writer keeps that pipeline until the block is full. Meanwhile each pipeline gets
 * its max-min fair share of its source node's cap and of its datanode's cap, as TCP flows
 * through shared links do.
 *
 * <p>A datanode the draws left without a pipeline idles while another holds several, and the
 * pipelines on the crowded one finish their blocks later, so crowding lasts. Where every busy
 * datanode is the bound, this is a closed network of processor-sharing stations: the occupancy
 * is uniform over the ways to split N pipelines among m datanodes, whatever the block size, and a
 * datanode idles (m - 1) / (N + m - 1) of the time: 1/9 for 8 writers on 2 datanodes, where
 * drawing every instant independently (binomially) would say 1/256. Source caps break that
 * closed form, so the rates are simulated: pipelines with random phases, a fixed number of block
 * completions from a fixed seed, so the same input always gives the same rates.
 *
 * <p>The namenode does not draw from every datanode: by default ({@code
 * dfs.namenode.redundancy.considerLoad}) it passes over one whose transfers (xceivers) number
 * more than {@value #CONSIDER_LOAD_FACTOR} times the average, which keeps a few datanodes from
 * holding most pipelines. Every datanode of a pipeline counts one, so with as many replicas as
 * datanodes all count the same and nothing is passed over: replication 3 on three datanodes
 * idles more than replication 1.
 */
final class RemoteWriterPipelines {
  private static final long SEED = 0x5EEDL;

  /** HDFS's {@code dfs.namenode.redundancy.considerLoad.factor} default. */
  static final double CONSIDER_LOAD_FACTOR = 2.0;
  private static final double EPSILON = 1e-12;

  /**
   * Block durations simulated per pipeline: many on few datanodes, whose occupancy swings
   * slowly and far; fewer on many, whose sum swings little.
   */
  private static final double DURATIONS_ON_ONE_DATANODE = 1200;

  private static final int MIN_DURATIONS = 20;

  private RemoteWriterPipelines() {}

  /**
   * Each source node's long-run rate when {@code writers[i]} writers on node {@code i} (a cap of
   * {@code sourceCaps[i]}) write blocks to {@code datanodes} datanodes of {@code datanodeCap}
   * each, picked at random per block for pipelines of {@code replicas} datanodes (at most all
   * of them). A node without writers gets 0.
   */
  static double[] nodeRates(double[] sourceCaps, int[] writers, int datanodes, double datanodeCap,
      int replicas) {
    requireNonNull(sourceCaps, "sourceCaps is null");
    requireNonNull(writers, "writers is null");
    if (sourceCaps.length != writers.length || datanodes < 1 || !(datanodeCap > 0)
        || replicas < 1) {
      throw new IllegalArgumentException(sourceCaps.length + " source caps, " + writers.length
          + " writer counts, " + datanodes + " datanodes at " + datanodeCap + ", " + replicas
          + " replicas");
    }
    int pipelines = 0;
    for (int node = 0; node < writers.length; node++) {
      if (writers[node] < 0 || (writers[node] > 0 && !(sourceCaps[node] > 0))) {
        throw new IllegalArgumentException(
            writers[node] + " writers on a node of cap " + sourceCaps[node]);
      }
      pipelines += writers[node];
    }
    double[] rates = new double[writers.length];
    if (pipelines == 0) {
      return rates;
    }
    int[] source = new int[pipelines];
    int next = 0;
    for (int node = 0; node < writers.length; node++) {
      for (int writer = 0; writer < writers[node]; writer++) {
        source[next++] = node;
      }
    }
    SplittableRandom random = new SplittableRandom(SEED);
    int[][] members = new int[pipelines][Math.min(replicas, datanodes)];
    int[] load = new int[datanodes];
    int[] datanode = new int[pipelines];
    double[] left = new double[pipelines];
    for (int pipeline = 0; pipeline < pipelines; pipeline++) {
      Arrays.fill(members[pipeline], -1);
      datanode[pipeline] = choose(members[pipeline], load, random);
      left[pipeline] = 1 - random.nextDouble();
    }
    // One block is a unit of work; rates are in units of the datanode cap.
    double[] caps = new double[sourceCaps.length];
    for (int node = 0; node < caps.length; node++) {
      caps[node] = sourceCaps[node] / datanodeCap;
    }
    double durations = Math.max(MIN_DURATIONS, DURATIONS_ON_ONE_DATANODE / datanodes);
    long completions = (long) Math.ceil(pipelines * durations);
    long warmUp = completions / 10;
    double[] moved = new double[writers.length];
    double[] rate = new double[pipelines];
    double time = 0;
    for (long done = 0; done < completions + warmUp; ) {
      fairRates(source, datanode, caps, datanodes, rate);
      double step = Double.POSITIVE_INFINITY;
      for (int pipeline = 0; pipeline < pipelines; pipeline++) {
        if (rate[pipeline] > 0) {
          step = Math.min(step, left[pipeline] / rate[pipeline]);
        }
      }
      boolean counting = done >= warmUp;
      if (counting) {
        time += step;
      }
      for (int pipeline = 0; pipeline < pipelines; pipeline++) {
        double work = rate[pipeline] * step;
        left[pipeline] -= work;
        if (counting) {
          moved[source[pipeline]] += work;
        }
        if (left[pipeline] <= EPSILON) {
          datanode[pipeline] = choose(members[pipeline], load, random);
          left[pipeline] = 1;
          done++;
        }
      }
    }
    // Nodes alike (the same cap and writers) are alike in the long run; the simulation's
    // finite draws would part them a few percent, and one that finished its tasks first would
    // take the next ones to itself. Each gets the mean of its kind.
    for (int node = 0; node < rates.length; node++) {
      double sum = 0;
      int alike = 0;
      for (int other = 0; other < rates.length; other++) {
        if (writers[other] == writers[node] && sourceCaps[other] == sourceCaps[node]) {
          sum += moved[other];
          alike++;
        }
      }
      rates[node] = sum / alike / time * datanodeCap;
    }
    return rates;
  }

  /**
   * A new pipeline in place of {@code pipeline}'s old one, as the namenode chooses it: each
   * datanode at random among those not above {@value #CONSIDER_LOAD_FACTOR} times the average
   * load (any, where that passes over all), none twice. Updates {@code load}; returns the first.
   */
  private static int choose(int[] pipeline, int[] load, SplittableRandom random) {
    for (int member : pipeline) {
      if (member >= 0) {
        load[member]--;
      }
    }
    Arrays.fill(pipeline, -1);
    int total = 0;
    for (int count : load) {
      total += count;
    }
    double most = CONSIDER_LOAD_FACTOR * total / load.length;
    int[] candidates = new int[load.length];
    for (int member = 0; member < pipeline.length; member++) {
      int count = 0;
      for (int node = 0; node < load.length; node++) {
        if (!contains(pipeline, node) && (total == 0 || load[node] <= most)) {
          candidates[count++] = node;
        }
      }
      if (count == 0) {
        for (int node = 0; node < load.length; node++) {
          if (!contains(pipeline, node)) {
            candidates[count++] = node;
          }
        }
      }
      pipeline[member] = candidates[random.nextInt(count)];
    }
    for (int member : pipeline) {
      load[member]++;
    }
    return pipeline[0];
  }

  private static boolean contains(int[] values, int value) {
    for (int each : values) {
      if (each == value) {
        return true;
      }
    }
    return false;
  }

  /**
   * Max-min fair rates by progressive filling: every unfrozen pipeline rises together until a
   * source node or a datanode is full, whose pipelines then stay where they are.
   */
  private static void fairRates(int[] source, int[] datanode, double[] sourceCaps, int datanodes,
      double[] rate) {
    int pipelines = source.length;
    double[] sourceLeft = sourceCaps.clone();
    double[] datanodeLeft = new double[datanodes];
    Arrays.fill(datanodeLeft, 1);
    Arrays.fill(rate, 0);
    boolean[] frozen = new boolean[pipelines];
    int[] onSource = new int[sourceCaps.length];
    int[] onDatanode = new int[datanodes];
    int active = pipelines;
    while (active > 0) {
      Arrays.fill(onSource, 0);
      Arrays.fill(onDatanode, 0);
      for (int pipeline = 0; pipeline < pipelines; pipeline++) {
        if (!frozen[pipeline]) {
          onSource[source[pipeline]]++;
          onDatanode[datanode[pipeline]]++;
        }
      }
      double rise = Double.POSITIVE_INFINITY;
      for (int node = 0; node < onSource.length; node++) {
        if (onSource[node] > 0) {
          rise = Math.min(rise, sourceLeft[node] / onSource[node]);
        }
      }
      for (int node = 0; node < datanodes; node++) {
        if (onDatanode[node] > 0) {
          rise = Math.min(rise, datanodeLeft[node] / onDatanode[node]);
        }
      }
      for (int pipeline = 0; pipeline < pipelines; pipeline++) {
        if (!frozen[pipeline]) {
          rate[pipeline] += rise;
          sourceLeft[source[pipeline]] -= rise;
          datanodeLeft[datanode[pipeline]] -= rise;
        }
      }
      for (int pipeline = 0; pipeline < pipelines; pipeline++) {
        if (!frozen[pipeline]
            && (sourceLeft[source[pipeline]] <= EPSILON * sourceCaps[source[pipeline]]
                || datanodeLeft[datanode[pipeline]] <= EPSILON)) {
          frozen[pipeline] = true;
          active--;
        }
      }
    }
  }
}
