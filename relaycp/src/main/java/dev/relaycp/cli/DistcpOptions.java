package dev.relaycp.cli;

import dev.relaycp.plan.DataSize;
import dev.relaycp.plan.DistcpSettings;
import picocli.CommandLine.Option;

/** {@code plan}'s figures of DistCp on the same clusters. */
public final class DistcpOptions {
  private static final DistcpSettings DEFAULT = DistcpSettings.DEFAULT;

  @Option(names = "--distcp-maps", paramLabel = "N",
      description = "DistCp -m (default: ${DEFAULT-VALUE}).")
  int maps = DEFAULT.maxMaps();

  @Option(names = "--distcp-slots-per-node", paramLabel = "N",
      description = "Map containers each node runs at once (default: ${DEFAULT-VALUE}).")
  int slotsPerNode = DEFAULT.slotsPerNode();

  @Option(names = "--distcp-blocks-per-chunk", paramLabel = "N",
      description = "DistCp -blocksperchunk; 0 copies whole files (default: ${DEFAULT-VALUE}).")
  int blocksPerChunk = DEFAULT.blocksPerChunk();

  @Option(names = "--distcp-job-seconds", paramLabel = "SECONDS",
      description = "DistCp's job start-up before its first map starts: listing, submission, the"
          + " MapReduce application master (default: ${DEFAULT-VALUE}).")
  double jobSeconds = DEFAULT.jobStartSeconds();

  @Option(names = "--distcp-task-seconds", paramLabel = "SECONDS",
      description = "Start-up of each DistCp map container (default: ${DEFAULT-VALUE}).")
  double taskSeconds = DEFAULT.taskStartSeconds();

  @Option(names = "--distcp-file-seconds", paramLabel = "SECONDS",
      description = "DistCp's cost per file besides its bytes: create, close, checksum"
          + " comparison, rename (default: ${DEFAULT-VALUE}).")
  double fileSeconds = DEFAULT.perFileSeconds();

  @Option(names = "--distcp-concurrent-files", paramLabel = "N",
      description = "How many DistCp maps pay their cost per file at full speed at once; more"
          + " share it (the namenodes' handlers, a small cluster's cores), and"
          + " --distcp-file-seconds is then a lone map's cost. 0: no limit"
          + " (default: ${DEFAULT-VALUE}).")
  double concurrentFiles = DEFAULT.concurrentFiles();

  @Option(names = "--distcp-close-wait-seconds", paramLabel = "SECONDS",
      description = "Of --distcp-file-seconds' cost, what a file waits on average for its"
          + " namenode to close it, counted apart because a sleeping map leaves the shared"
          + " machinery to the others; --distcp-file-seconds is then the rest. 0: counted in"
          + " --distcp-file-seconds (default: ${DEFAULT-VALUE}).")
  double closeWaitSeconds = DEFAULT.closeWaitSeconds();

  @Option(names = "--distcp-cpu-seconds-per-file", paramLabel = "SECONDS",
      description = "With --shared-cores: the CPU seconds one file costs DistCp's maps and the"
          + " clusters' datanodes and namenodes, so that the maps copy at most cores / SECONDS"
          + " files a second. 0: not counted (default: ${DEFAULT-VALUE}).")
  double cpuSecondsPerFile = DEFAULT.cpuSecondsPerFile();

  @Option(names = "--distcp-background-cores", paramLabel = "CORES",
      description = "With --shared-cores and --distcp-cpu-seconds-per-file: the cores DistCp's"
          + " application master, its client and YARN's daemons keep busy while the maps copy,"
          + " which the maps' files do not get. 0: none (default: ${DEFAULT-VALUE}).")
  double backgroundCores = DEFAULT.backgroundCores();

  @Option(names = "--distcp-strategy", paramLabel = "NAME",
      description = "DistCp -strategy: uniformsize (its default) or dynamic, which an expert"
          + " uses for files of uneven size (default: ${DEFAULT-VALUE}).")
  String strategy = DEFAULT.strategy().option();

  public DistcpSettings settings(DataSize blockSize) {
    return new DistcpSettings(maps, slotsPerNode, jobSeconds, taskSeconds, fileSeconds,
        blocksPerChunk, blockSize, concurrentFiles, DistcpSettings.Strategy.fromOption(strategy),
        closeWaitSeconds, cpuSecondsPerFile, backgroundCores);
  }
}
