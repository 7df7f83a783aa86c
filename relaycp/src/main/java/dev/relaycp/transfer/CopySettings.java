package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/**
 * What to copy and how; validated once, here.
 *
 * @param source the source file or directory, a full URI
 * @param destination where the copy lands; a directory source's files go below it
 * @param overwrite replace files that exist at the destination instead of failing
 * @param blocksPerChunk source blocks per chunk
 * @param chunksInFlightPerRoute orders a route may have outstanding, so small files do not
 *     each wait a round trip
 * @param bytesInFlightPerRoute a route takes another chunk only while the chunks it holds
 *     come to fewer bytes than this; it always may hold one, so with chunks of a whole large
 *     block a route sends one at a time and late routes (spawned relays) still find work
 * @param maxSendsPerChunk how many times one chunk may be sent before the copy fails
 * @param verificationThreads parallel checksum comparisons, and files committed at once
 * @param relayWaitSeconds how long a route keeps trying a reader relay that does not answer
 *     yet (a spawned relay still booting) before the route is dropped
 * @param silenceSeconds how long a relay may send nothing, not even a keep-alive, before its
 *     route is dropped and its chunks are sent on the others
 * @param stallSeconds how long a route may hold chunks and answer none before it is dropped
 *     (longer where its chunks take longer at its rate)
 * @param stagingBeatSeconds how often the staging heartbeat moves; a later run takes up a
 *     staging still for three times this long
 * @param sync what the copy skips, deletes and keeps ({@code --update}, {@code --delete},
 *     {@code --preserve}, {@code --filters}, {@code --diff})
 * @param compress whether the relays compress the bytes on the relay hop ({@code --compress})
 */
public record CopySettings(
    URI source,
    URI destination,
    boolean overwrite,
    int blocksPerChunk,
    int chunksInFlightPerRoute,
    long bytesInFlightPerRoute,
    int maxSendsPerChunk,
    int verificationThreads,
    long relayWaitSeconds,
    long silenceSeconds,
    long stallSeconds,
    long stagingBeatSeconds,
    SyncSettings sync,
    boolean compress) {

  /** Part numbers leave room for this many sends of each chunk. */
  public static final int SEND_LIMIT = 16;

  /** A copy with {@link SyncSettings#NONE}. */
  public CopySettings(URI source, URI destination, boolean overwrite, int blocksPerChunk,
      int chunksInFlightPerRoute, long bytesInFlightPerRoute, int maxSendsPerChunk,
      int verificationThreads, long relayWaitSeconds, long silenceSeconds) {
    this(source, destination, overwrite, blocksPerChunk, chunksInFlightPerRoute,
        bytesInFlightPerRoute, maxSendsPerChunk, verificationThreads, relayWaitSeconds,
        silenceSeconds, DEFAULT_STALL_SECONDS, DEFAULT_STAGING_BEAT_SECONDS, SyncSettings.NONE,
        false);
  }

  public CopySettings {
    requireNonNull(source, "source is null");
    requireNonNull(destination, "destination is null");
    requireNonNull(sync, "sync is null");
    if (blocksPerChunk < 1) {
      throw new IllegalArgumentException("blocksPerChunk must be 1 or more, got " + blocksPerChunk);
    }
    if (chunksInFlightPerRoute < 1) {
      throw new IllegalArgumentException(
          "chunksInFlightPerRoute must be 1 or more, got " + chunksInFlightPerRoute);
    }
    if (bytesInFlightPerRoute < 1) {
      throw new IllegalArgumentException(
          "bytesInFlightPerRoute must be 1 or more, got " + bytesInFlightPerRoute);
    }
    if (maxSendsPerChunk < 1 || maxSendsPerChunk > SEND_LIMIT) {
      throw new IllegalArgumentException(
          "maxSendsPerChunk must be 1.." + SEND_LIMIT + ", got " + maxSendsPerChunk);
    }
    if (relayWaitSeconds < 0) {
      throw new IllegalArgumentException(
          "relayWaitSeconds must not be negative, got " + relayWaitSeconds);
    }
    if (silenceSeconds < 3) {
      throw new IllegalArgumentException("silenceSeconds must be 3 or more, got "
          + silenceSeconds);
    }
    if (stallSeconds < 1) {
      throw new IllegalArgumentException("stallSeconds must be 1 or more, got " + stallSeconds);
    }
    if (stagingBeatSeconds < 1) {
      throw new IllegalArgumentException(
          "stagingBeatSeconds must be 1 or more, got " + stagingBeatSeconds);
    }
    if (verificationThreads < 1) {
      throw new IllegalArgumentException(
          "verificationThreads must be 1 or more, got " + verificationThreads);
    }
  }

  /** The default for {@link #chunksInFlightPerRoute}: many small files need many at once. */
  public static final int DEFAULT_CHUNKS_IN_FLIGHT_PER_ROUTE =
      (int) RelayKeys.COPY_CHUNKS_IN_FLIGHT_PER_ROUTE.defaultValue();

  /**
   * The default for {@link #relayWaitSeconds}: relays named by hand should be running, so a
   * refused port fails its route soon rather than after minutes.
   */
  public static final long DEFAULT_RELAY_WAIT_SECONDS =
      RelayKeys.COPY_RELAY_WAIT_SECONDS.defaultValue();

  /** The default for {@link #stallSeconds}. */
  public static final long DEFAULT_STALL_SECONDS = RelayKeys.COPY_STALL_SECONDS.defaultValue();

  /** The default for {@link #stagingBeatSeconds}. */
  public static final long DEFAULT_STAGING_BEAT_SECONDS =
      RelayKeys.COPY_STAGING_HEARTBEAT_SECONDS.defaultValue();

  /** The default for {@link #silenceSeconds}. */
  public static final long DEFAULT_SILENCE_SECONDS =
      RelayKeys.SILENCE_TIMEOUT_SECONDS.defaultValue();

  /** This copy with another {@link #silenceSeconds}. */
  public CopySettings withSilenceSeconds(long seconds) {
    return new CopySettings(source, destination, overwrite, blocksPerChunk,
        chunksInFlightPerRoute, bytesInFlightPerRoute, maxSendsPerChunk, verificationThreads,
        relayWaitSeconds, seconds, stallSeconds, stagingBeatSeconds, sync, compress);
  }

  /** This copy with other {@link #sync} settings. */
  public CopySettings withSync(SyncSettings settings) {
    return new CopySettings(source, destination, overwrite, blocksPerChunk,
        chunksInFlightPerRoute, bytesInFlightPerRoute, maxSendsPerChunk, verificationThreads,
        relayWaitSeconds, silenceSeconds, stallSeconds, stagingBeatSeconds, settings, compress);
  }

  /** This copy with the relay hop compressed or not. */
  public CopySettings withCompress(boolean on) {
    return new CopySettings(source, destination, overwrite, blocksPerChunk,
        chunksInFlightPerRoute, bytesInFlightPerRoute, maxSendsPerChunk, verificationThreads,
        relayWaitSeconds, silenceSeconds, stallSeconds, stagingBeatSeconds, sync, on);
  }

  /** Whether a file that exists at the destination may be replaced. */
  public boolean replacesTargets() {
    return overwrite || sync.update();
  }

  /** The default for {@link #bytesInFlightPerRoute}: 128 MiB, see {@link RelayKeys}. */
  public static final long DEFAULT_BYTES_IN_FLIGHT_PER_ROUTE =
      RelayKeys.COPY_BYTES_IN_FLIGHT_PER_ROUTE.defaultBytes();

  /**
   * The settings of a copy from SRC to DST with the {@code relaycp.copy.*} keys of {@code
   * configuration} (and the relay silence timeout); a bad value is an INVALID_ARGUMENT naming
   * its key.
   */
  public static CopySettings from(Configuration configuration, URI source, URI destination,
      boolean overwrite, SyncSettings sync) {
    requireNonNull(configuration, "configuration is null");
    return new CopySettings(source, destination, overwrite,
        RelayKeys.COPY_BLOCKS_PER_CHUNK.intFrom(configuration),
        RelayKeys.COPY_CHUNKS_IN_FLIGHT_PER_ROUTE.intFrom(configuration),
        RelayKeys.COPY_BYTES_IN_FLIGHT_PER_ROUTE.from(configuration),
        RelayKeys.COPY_MAX_SENDS_PER_CHUNK.intFrom(configuration),
        RelayKeys.COPY_VERIFICATION_THREADS.intFrom(configuration),
        RelayKeys.COPY_RELAY_WAIT_SECONDS.from(configuration),
        RelayKeys.SILENCE_TIMEOUT_SECONDS.from(configuration),
        RelayKeys.COPY_STALL_SECONDS.from(configuration),
        RelayKeys.COPY_STAGING_HEARTBEAT_SECONDS.from(configuration), sync,
        RelayKeys.COPY_COMPRESS.from(configuration));
  }

  public static CopySettings of(URI source, URI destination, boolean overwrite) {
    return new CopySettings(source, destination, overwrite,
        (int) RelayKeys.COPY_BLOCKS_PER_CHUNK.defaultValue(), DEFAULT_CHUNKS_IN_FLIGHT_PER_ROUTE,
        DEFAULT_BYTES_IN_FLIGHT_PER_ROUTE, (int) RelayKeys.COPY_MAX_SENDS_PER_CHUNK.defaultValue(),
        (int) RelayKeys.COPY_VERIFICATION_THREADS.defaultValue(), DEFAULT_RELAY_WAIT_SECONDS,
        DEFAULT_SILENCE_SECONDS);
  }
}
