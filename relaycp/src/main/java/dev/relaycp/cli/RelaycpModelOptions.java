package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.plan.CopyOverheads;
import dev.relaycp.plan.DataSize;
import dev.relaycp.plan.RelaycpSettings;
import dev.relaycp.plan.SharedCores;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/** {@code plan}'s figures of relaycp itself, for the relaycp model. */
public final class RelaycpModelOptions {
  private static final CopyOverheads OVERHEADS = CopyOverheads.DEFAULT;
  private static final String RUNNING = "running";
  private static final String YARN = "yarn";

  @Option(names = "--chunk-size", paramLabel = "SIZE",
      description = "relaycp chunk size (default: ${DEFAULT-VALUE}).")
  String chunkSize = RelaycpSettings.DEFAULT.chunkSize().toString();

  @Option(names = "--streams-per-relay", paramLabel = "N",
      description = "relaycp streams per relay (default: relaycp.relay.parallel-streams, "
          + "whose own default is 16).")
  Integer streamsPerRelay;

  @Option(names = "--relaycp-start-seconds", paramLabel = "SECONDS",
      description = "relaycp's start-up before listing: the driver's JVM and its first"
          + " connections, and with --relays yarn the relay containers' start (default: "
          + CopyOverheads.DEFAULT_START_SECONDS + ", and "
          + CopyOverheads.YARN_RELAYS_START_SECONDS + " more with --relays yarn).")
  Double startSeconds;

  @Option(names = "--relays", paramLabel = "running|yarn",
      description = "How the copy gets its datanode relays: 'running', relays already started"
          + " (copy --relays HOST:PORT,..., or --local-relays); 'yarn', containers YARN starts"
          + " for the copy (copy --relays yarn), whose start the plan counts before the first"
          + " byte (default: ${DEFAULT-VALUE}).")
  String relays = RUNNING;

  @Option(names = "--relaycp-file-seconds", paramLabel = "SECONDS",
      description = "relaycp's cost per file on a stream besides its bytes: open, create, close"
          + " (default: ${DEFAULT-VALUE}).")
  double fileSeconds = OVERHEADS.perFileSeconds();

  @Option(names = "--relaycp-commit-seconds", paramLabel = "SECONDS",
      description = "relaycp's commit cost per file: the driver's rename into place"
          + " (default: ${DEFAULT-VALUE}).")
  double commitSeconds = OVERHEADS.commitSecondsPerFile();

  @Option(names = "--relaycp-concurrent-files", paramLabel = "N",
      description = "How many relaycp streams pay a file's open and close cost at full speed at"
          + " once; more share it (the destination's namenode, the hosts' cores), and"
          + " --relaycp-file-seconds is then a stream's cost with no one sharing. 0: no limit"
          + " (default: ${DEFAULT-VALUE}).")
  double concurrentFiles = RelaycpSettings.DEFAULT.concurrentFiles();

  @Option(names = "--relaycp-spawned-file-factor", paramLabel = "FACTOR",
      description = "How many times a datanode relay's cost per file a spawned relay pays: more"
          + " than 1 for small VMs whose relay has just started; where streams share the file"
          + " cost (--relaycp-concurrent-files) it slows them all (default: ${DEFAULT-VALUE}).")
  double spawnedFileFactor = RelaycpSettings.DEFAULT.spawnedFileCostFactor();

  @Option(names = "--shared-cores", paramLabel = "N",
      description = "Every host of both sites, and every spawned relay, runs on these N cores"
          + " (a lab on one machine), which --relaycp-concurrent-files then stands for; a"
          + " spawned relay's CPU is taken from the file work. 0: each host has cores of its"
          + " own, as on a cloud (default: ${DEFAULT-VALUE}).")
  double sharedCores = 0;

  @Option(names = "--relaycp-spawned-cpu-seconds", paramLabel = "SECONDS",
      description = "With --shared-cores: the CPU seconds each spawned relay costs the shared"
          + " cores in all (its start, its warm-up, its host's set-up) (default:"
          + " ${DEFAULT-VALUE}).")
  double spawnedCpuSeconds = 0;

  @Option(names = "--relaycp-spawned-start-cpu-seconds", paramLabel = "SECONDS",
      description = "With --shared-cores: of --relaycp-spawned-cpu-seconds, those a spawned"
          + " relay spends before it serves (default: ${DEFAULT-VALUE}).")
  double spawnedStartCpuSeconds = 0;

  @Option(names = "--relaycp-spawned-cpu-files", paramLabel = "FILES",
      description = "With --shared-cores: the files a route over which"
          + " --relaycp-spawned-cpu-seconds was measured; a spawned route pays its relays'"
          + " CPU beyond their start (their warm-up) on its first that many files, so one that"
          + " carries fewer pays that share. 0: every copy pays all of it"
          + " (default: ${DEFAULT-VALUE}).")
  double spawnedCpuFiles = 0;

  @Option(names = "--cpu-seconds-per-gb", paramLabel = "SECONDS",
      description = "With --shared-cores: the CPU seconds every GB (10^9 bytes) copied costs"
          + " the shared cores, over every process that touches it (relays, datanodes, driver)"
          + " (default: ${DEFAULT-VALUE}, bytes cost none).")
  double cpuSecondsPerGigabyte = 0;

  @Option(names = "--relaycp-verify-seconds", paramLabel = "SECONDS",
      description = "relaycp's verification cost per file verified after the last byte (files"
          + " of several chunks and empty ones; a file of one chunk is checked while the copy"
          + " runs): comparing the two clusters' checksums, with the driver's requests in"
          + " parallel (default: ${DEFAULT-VALUE}).")
  double verifySeconds = OVERHEADS.verifySecondsPerFile();

  @Option(names = "--compress-ratio", paramLabel = "RATIO",
      description = "With copy --compress: the files' bytes per byte on the relay hop (1 or"
          + " more; a copy with --compress --pairs auto samples it from the files)"
          + " (default: ${DEFAULT-VALUE}, no compression).")
  double compressionRatio = 1;

  /**
   * The settings; streams per relay, when not given, as the relays are configured, and a
   * route's window as the copy's ({@code relaycp.copy.chunks-in-flight-per-route}, {@code
   * relaycp.copy.bytes-in-flight-per-route}).
   */
  public RelaycpSettings settings(Configuration configuration) {
    int streams = streamsPerRelay != null
        ? streamsPerRelay : RelayKeys.PARALLEL_STREAMS.intFrom(configuration);
    CopyOverheads defaults = CopyOverheads.defaults(switch (relays) {
      case RUNNING -> false;
      case YARN -> true;
      default -> throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "plan --relays '"
          + relays + "' is not a way relays start; give running or yarn");
    });
    double start = startSeconds != null ? startSeconds : defaults.startSeconds();
    CopyOverheads overheads = new CopyOverheads(start, OVERHEADS.listingSecondsPerFile(),
        fileSeconds, OVERHEADS.perChunkSeconds(), commitSeconds, verifySeconds);
    return new RelaycpSettings(DataSize.parse(chunkSize), streams, overheads)
        .withRouteWindow(RelayKeys.COPY_CHUNKS_IN_FLIGHT_PER_ROUTE.intFrom(configuration),
            DataSize.ofBytes(RelayKeys.COPY_BYTES_IN_FLIGHT_PER_ROUTE.from(configuration)))
        .withConcurrentFiles(concurrentFiles)
        .withSpawnedFileCostFactor(spawnedFileFactor)
        .withCompressionRatio(compressionRatio)
        .withSharedCores(SharedCores.of(sharedCores, spawnedCpuSeconds, spawnedStartCpuSeconds)
            .withSpawnedCpuFiles(spawnedCpuFiles)
            .withCpuSecondsPerByte(cpuSecondsPerGigabyte / 1e9));
  }
}
