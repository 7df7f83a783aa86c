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
 */
public record DistcpSettings(
    int maxMaps,
    int slotsPerNode,
    double jobStartSeconds,
    double taskStartSeconds,
    double perFileSeconds,
    int blocksPerChunk,
    DataSize blockSize,
    double concurrentFiles) {

  public static final DistcpSettings DEFAULT =
      new DistcpSettings(20, 4, 20.0, 4.0, 0.1, 0, DataSize.ofMebibytes(128), 0);

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
    for (double seconds : new double[] {jobStartSeconds, taskStartSeconds, perFileSeconds}) {
      if (!(seconds >= 0) || Double.isInfinite(seconds)) {
        throw new RelayCpException(
            INVALID_ARGUMENT, "DistCp overhead " + seconds + " s is not a finite time of 0 or more");
      }
    }
  }

  /** Maps that pay their per-file cost at full speed at once; infinite when not limited. */
  double fileLanes() {
    return concurrentFiles == 0 ? Double.POSITIVE_INFINITY : concurrentFiles;
  }
}
