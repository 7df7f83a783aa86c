package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.RelayCpException;

/**
 * How relaycp moves data: files are cut into chunks of at most {@code chunkSize} (a small file
 * is one chunk) pulled from one shared queue by routes, one per source-site relay. A route holds
 * at most {@code chunksInFlightPerRoute} chunks ({@code relaycp.copy.chunks-in-flight-per-route})
 * and takes another only while those it holds come to fewer than {@code bytesInFlightPerRoute}
 * bytes ({@code relaycp.copy.bytes-in-flight-per-route}); its reader relay streams at most
 * {@code streamsPerRelay} of them at once ({@code relaycp.relay.parallel-streams}), each on a
 * writer connection until the writer answers, so a file's open and close costs overlap on that
 * many chunks. See {@link #chunksAtOnce}.
 *
 * <p>{@code concurrentFiles} is how many streams can pay a file's open and close cost at full
 * speed at once, 0 for no limit: that cost is work on machinery every stream shares (the
 * destination's namenode, the driver, the hosts' cores), so beyond that many the streams
 * opening or closing a file share it, and more relays no longer copy small files faster.
 *
 * <p>{@code spawnedFileCostFactor} is how many times a datanode relay's file and chunk costs a
 * spawned relay pays: a small VM whose relay has just started (its JVM not yet compiled for
 * the work) spends longer on each file, and where that cost is shared work it slows every
 * other stream too. 1 when the spawned relays are like the datanodes.
 *
 * <p>{@code sharedCores} is for hosts that run on the same cores (the WAN lab: every host of
 * both sites and every spawned relay on one machine's cores), see {@link SharedCores}; {@link
 * SharedCores#NONE} for hosts with cores of their own, as on a cloud.
 *
 * <p>{@code compressionRatio} is how many bytes of the files one byte on the relay hop carries
 * ({@code --compress}, sampled from the files; 1 without compression): the WAN caps count wire
 * bytes, the sites' internal networks the files' own.
 */
public record RelaycpSettings(
    DataSize chunkSize,
    int streamsPerRelay,
    int chunksInFlightPerRoute,
    DataSize bytesInFlightPerRoute,
    CopyOverheads overheads,
    double concurrentFiles,
    double spawnedFileCostFactor,
    double compressionRatio,
    SharedCores sharedCores) {
  public static final int DEFAULT_CHUNKS_IN_FLIGHT_PER_ROUTE =
      (int) RelayKeys.COPY_CHUNKS_IN_FLIGHT_PER_ROUTE.defaultValue();
  public static final DataSize DEFAULT_BYTES_IN_FLIGHT_PER_ROUTE =
      DataSize.ofBytes(RelayKeys.COPY_BYTES_IN_FLIGHT_PER_ROUTE.defaultBytes());
  public static final RelaycpSettings DEFAULT =
      new RelaycpSettings(DataSize.ofMebibytes(128),
          (int) RelayKeys.PARALLEL_STREAMS.defaultValue(), CopyOverheads.DEFAULT);

  /**
   * Settings with the copy's default route window: {@code relaycp.copy.chunks-in-flight-per-route}
   * and {@code relaycp.copy.bytes-in-flight-per-route} as they are when not set.
   */
  public RelaycpSettings(DataSize chunkSize, int streamsPerRelay, CopyOverheads overheads) {
    this(
        chunkSize,
        streamsPerRelay,
        DEFAULT_CHUNKS_IN_FLIGHT_PER_ROUTE,
        DEFAULT_BYTES_IN_FLIGHT_PER_ROUTE,
        overheads,
        0,
        1,
        1,
        SharedCores.NONE);
  }

  /**
   * These settings with a route taking another chunk only while it holds fewer than {@code
   * chunks} chunks and fewer than {@code bytes} bytes, as a copy configured so would.
   */
  public RelaycpSettings withRouteWindow(int chunks, DataSize bytes) {
    return new RelaycpSettings(chunkSize, streamsPerRelay, chunks, bytes, overheads,
        concurrentFiles, spawnedFileCostFactor, compressionRatio, sharedCores);
  }

  /** These settings with {@code concurrent} streams paying a file's cost at full speed at once. */
  public RelaycpSettings withConcurrentFiles(double concurrent) {
    return new RelaycpSettings(chunkSize, streamsPerRelay, chunksInFlightPerRoute,
        bytesInFlightPerRoute, overheads, concurrent, spawnedFileCostFactor, compressionRatio,
        sharedCores);
  }

  /** These settings with spawned relays paying {@code factor} times a datanode relay's file costs. */
  public RelaycpSettings withSpawnedFileCostFactor(double factor) {
    return new RelaycpSettings(chunkSize, streamsPerRelay, chunksInFlightPerRoute,
        bytesInFlightPerRoute, overheads, concurrentFiles, factor, compressionRatio, sharedCores);
  }

  /** These settings with the relay hop carrying {@code ratio} file bytes per wire byte. */
  public RelaycpSettings withCompressionRatio(double ratio) {
    return new RelaycpSettings(chunkSize, streamsPerRelay, chunksInFlightPerRoute,
        bytesInFlightPerRoute, overheads, concurrentFiles, spawnedFileCostFactor, ratio,
        sharedCores);
  }

  /** These settings with the hosts on {@code cores}. */
  public RelaycpSettings withSharedCores(SharedCores cores) {
    return new RelaycpSettings(chunkSize, streamsPerRelay, chunksInFlightPerRoute,
        bytesInFlightPerRoute, overheads, concurrentFiles, spawnedFileCostFactor,
        compressionRatio, cores);
  }

  public RelaycpSettings {
    requireNonNull(chunkSize, "chunkSize is null");
    requireNonNull(overheads, "overheads is null");
    requireNonNull(bytesInFlightPerRoute, "bytesInFlightPerRoute is null");
    if (chunksInFlightPerRoute < 1 || bytesInFlightPerRoute.bytes() < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "a route's window of " + chunksInFlightPerRoute + " chunks and " + bytesInFlightPerRoute
              + " must hold at least 1 chunk and 1 byte");
    }
    if (!(concurrentFiles == 0 || concurrentFiles >= 1) || Double.isInfinite(concurrentFiles)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "relaycp concurrent files " + concurrentFiles + " must be 1 or more, or 0 for no limit");
    }
    if (!(spawnedFileCostFactor > 0) || Double.isInfinite(spawnedFileCostFactor)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "spawned relays' file cost factor " + spawnedFileCostFactor
              + " must be a finite number above 0 (1: as the datanodes' relays)");
    }
    if (!(compressionRatio >= 1) || Double.isInfinite(compressionRatio)) {
      throw new RelayCpException(INVALID_ARGUMENT, "compression ratio " + compressionRatio
          + " must be a finite number of 1 or more (file bytes per byte on the wire; 1: none)");
    }
    requireNonNull(sharedCores, "sharedCores is null");
    if (chunkSize.bytes() < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "chunk size " + chunkSize + " is empty; give at least 1 byte");
    }
    if (streamsPerRelay < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "streams per relay " + streamsPerRelay + " is below 1; give 1 or more");
    }
  }

  /**
   * How many chunks of {@code chunkBytes} one route works on at once: it may always hold one,
   * and takes another while it holds fewer than the chunk window and fewer bytes than the byte
   * window, and its reader streams no more than {@code streamsPerRelay} at once.
   */
  public int chunksAtOnce(long chunkBytes) {
    long byBytes = Math.max(1, (bytesInFlightPerRoute.bytes() + chunkBytes - 1) / Math.max(1, chunkBytes));
    return (int) Math.max(1, Math.min(byBytes, Math.min(chunksInFlightPerRoute, streamsPerRelay)));
  }

  /**
   * Lanes of the file work one shared core is: the file work's {@code concurrentFiles} lanes
   * are taken to be the hosts' shared cores, which it saturates when its lanes are full. 0 when
   * the hosts do not share cores or the lanes are not limited: then nothing is taken from them.
   */
  double lanesPerSharedCore() {
    return sharedCores.cores() > 0 && concurrentFiles > 0 ? concurrentFiles / sharedCores.cores() : 0;
  }

  /** Streams that pay a file's cost at full speed at once; infinite when not limited. */
  double fileLanes() {
    return concurrentFiles == 0 ? Double.POSITIVE_INFINITY : concurrentFiles;
  }
}
