package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;

/**
 * How DistCp would run: at most {@code maxMaps} maps ({@code -m}, 20 by default), {@code
 * slotsPerNode} map containers at once on each node, a job start-up ({@code jobStartSeconds}:
 * submission, application master, listing) and a task start-up per map ({@code
 * taskStartSeconds}: container and JVM), {@code perFileSeconds} per file copied (create, close,
 * checksum comparison, rename). With {@code blocksPerChunk} above 0 ({@code -blocksperchunk}),
 * a file larger than that many blocks travels as pieces of that many blocks, each a separate
 * entry of the copy listing.
 *
 * <p>{@code concurrentFiles} is how many maps can pay their per-file cost at full speed at once,
 * 0 for no limit: that cost is work on machinery all maps share (the namenodes' handlers, and
 * where the cluster is small, its cores), so beyond that many the maps in a per-file step share
 * it and each goes slower. {@code perFileSeconds} is then the cost of a map that has it to
 * itself.
 *
 * <p>{@code closeWaitSeconds} is what a file spends, on average, waiting for its namenode to
 * close it, which takes none of that shared machinery: a namenode closes a file only once a
 * datanode has reported its last block, and an HDFS client refused first sleeps before it asks
 * again (400 ms by default, {@code dfs.client.block.write.locateFollowingBlock.initial.delay.ms}).
 * On a small cluster most of a small file's cost can be that sleep, and maps that sleep leave
 * the shared machinery to the others: kept apart, the same maps' cost follows when the sleep
 * is shortened. 0 counts any such wait in {@code perFileSeconds}.
 *
 * <p>{@code cpuSecondsPerFile} is what a file costs hosts that share their cores ({@link
 * SharedCores}, as in the WAN lab): the CPU seconds of the maps', the datanodes' and the
 * namenodes' work for one file. There the maps copy at most cores / {@code cpuSecondsPerFile}
 * files a second however many run, which no lane count says: maps that sleep out their files'
 * closes leave the cores to the others, maps that do not wait run out of them. 0: not counted
 * (hosts with cores of their own).
 *
 * <p>{@code backgroundCores} is what of those shared cores the job keeps busy besides its
 * files while the maps copy: its application master's heartbeats, its client's polling, and
 * YARN's daemons' scheduling and monitoring of its containers. That work grows with the job's
 * seconds, not its files, so no cost per file holds it; the maps' files get the cores less
 * this. 0: nothing kept back (hosts with cores of their own, or not measured).
 *
 * <p>{@code strategy} is DistCp's {@code -strategy}: {@code uniformsize} (the default) cuts the
 * listing into maps of equal bytes up front; {@code dynamic} cuts it into chunks of entries that
 * the maps take as they finish the last, which is how an expert runs DistCp over files of uneven
 * size (see {@link DistcpModel}).
 */
public record DistcpSettings(
    int maxMaps,
    int slotsPerNode,
    double jobStartSeconds,
    double taskStartSeconds,
    double perFileSeconds,
    int blocksPerChunk,
    DataSize blockSize,
    double concurrentFiles,
    Strategy strategy,
    double closeWaitSeconds,
    double cpuSecondsPerFile,
    double backgroundCores) {

  /** DistCp's {@code -strategy}. */
  public enum Strategy {
    UNIFORM_SIZE("uniformsize"),
    DYNAMIC("dynamic");

    private final String option;

    Strategy(String option) {
      this.option = option;
    }

    /** As DistCp's {@code -strategy} names it. */
    public String option() {
      return option;
    }

    /** The strategy DistCp's {@code -strategy NAME} selects. */
    public static Strategy fromOption(String name) {
      for (Strategy strategy : values()) {
        if (strategy.option.equals(name)) {
          return strategy;
        }
      }
      throw new RelayCpException(INVALID_ARGUMENT, "DistCp strategy '" + name
          + "' is not one DistCp has; give uniformsize or dynamic");
    }
  }

  public static final DistcpSettings DEFAULT =
      new DistcpSettings(20, 4, 20.0, 4.0, 0.1, 0, DataSize.ofMebibytes(128), 0);

  /**
   * Settings of DistCp's default strategy, {@code uniformsize}, that count a file's wait for its
   * close in its cost per file.
   */
  public DistcpSettings(
      int maxMaps,
      int slotsPerNode,
      double jobStartSeconds,
      double taskStartSeconds,
      double perFileSeconds,
      int blocksPerChunk,
      DataSize blockSize,
      double concurrentFiles) {
    this(maxMaps, slotsPerNode, jobStartSeconds, taskStartSeconds, perFileSeconds, blocksPerChunk,
        blockSize, concurrentFiles, Strategy.UNIFORM_SIZE, 0, 0, 0);
  }

  /** These settings with another {@code -strategy}. */
  public DistcpSettings withStrategy(Strategy other) {
    return new DistcpSettings(maxMaps, slotsPerNode, jobStartSeconds, taskStartSeconds,
        perFileSeconds, blocksPerChunk, blockSize, concurrentFiles, other, closeWaitSeconds,
        cpuSecondsPerFile, backgroundCores);
  }

  /** These settings with files that wait {@code seconds} for their close, off the shared lanes. */
  public DistcpSettings withCloseWaitSeconds(double seconds) {
    return new DistcpSettings(maxMaps, slotsPerNode, jobStartSeconds, taskStartSeconds,
        perFileSeconds, blocksPerChunk, blockSize, concurrentFiles, strategy, seconds,
        cpuSecondsPerFile, backgroundCores);
  }

  /** These settings with every file costing {@code seconds} of the hosts' shared cores. */
  public DistcpSettings withCpuSecondsPerFile(double seconds) {
    return new DistcpSettings(maxMaps, slotsPerNode, jobStartSeconds, taskStartSeconds,
        perFileSeconds, blocksPerChunk, blockSize, concurrentFiles, strategy, closeWaitSeconds,
        seconds, backgroundCores);
  }

  /** These settings with the job keeping {@code cores} of the shared cores busy as it runs. */
  public DistcpSettings withBackgroundCores(double cores) {
    return new DistcpSettings(maxMaps, slotsPerNode, jobStartSeconds, taskStartSeconds,
        perFileSeconds, blocksPerChunk, blockSize, concurrentFiles, strategy, closeWaitSeconds,
        cpuSecondsPerFile, cores);
  }

  /** Settings whose per-file cost does not depend on how many maps pay it at once. */
  public DistcpSettings(
      int maxMaps,
      int slotsPerNode,
      double jobStartSeconds,
      double taskStartSeconds,
      double perFileSeconds,
      int blocksPerChunk,
      DataSize blockSize) {
    this(maxMaps, slotsPerNode, jobStartSeconds, taskStartSeconds, perFileSeconds, blocksPerChunk,
        blockSize, 0);
  }

  public DistcpSettings {
    requireNonNull(blockSize, "blockSize is null");
    requireNonNull(strategy, "strategy is null");
    if (maxMaps < 1 || slotsPerNode < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "DistCp maps " + maxMaps + " and slots per node " + slotsPerNode + " must be 1 or more");
    }
    if (blocksPerChunk < 0 || blockSize.bytes() < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "-blocksperchunk " + blocksPerChunk + " must be 0 or more and the block size positive");
    }
    if (!(concurrentFiles == 0 || concurrentFiles >= 1) || Double.isInfinite(concurrentFiles)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "DistCp concurrent files " + concurrentFiles + " must be 1 or more, or 0 for no limit");
    }
    requireFiniteNonNegative(cpuSecondsPerFile,
        "DistCp's CPU seconds a file %s must be a finite number of 0 or more (0: not counted)");
    requireFiniteNonNegative(backgroundCores,
        "DistCp's background cores %s must be a finite number of 0 or more (0: none kept back)");
    for (double seconds :
        new double[] {jobStartSeconds, taskStartSeconds, perFileSeconds, closeWaitSeconds}) {
      requireFiniteNonNegative(seconds,
          "DistCp overhead %s s is not a finite time of 0 or more");
    }
  }

  /** Refuses {@code value} unless finite and 0 or more, with {@code message} naming it. */
  private static void requireFiniteNonNegative(double value, String message) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new RelayCpException(INVALID_ARGUMENT, String.format(message, value));
    }
  }

  /** Maps that pay their per-file cost at full speed at once; infinite when not limited. */
  double fileLanes() {
    return concurrentFiles == 0 ? Double.POSITIVE_INFINITY : concurrentFiles;
  }
}
