package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;

/**
 * Fixed costs of a relaycp copy that bandwidth does not explain, in seconds: starting the driver
 * and its relays, listing the source (per file), opening and closing each file on a stream
 * (per file) and each chunk (per chunk), committing (rename, per file, done by the driver one
 * after another) and verifying (comparing checksums, per file, as the effective cost with the
 * driver's parallel checksum requests). The driver checks a file of one chunk while the copy
 * runs, as soon as it is staged; only files of several chunks, completed from their parts
 * after the last byte, are verified then. The defaults are estimates for HDFS with a namenode
 * a millisecond away (about one RPC per file for each of listing, commit and verification),
 * not measurements.
 */
public record CopyOverheads(
    double startSeconds,
    double listingSecondsPerFile,
    double perFileSeconds,
    double perChunkSeconds,
    double commitSecondsPerFile,
    double verifySecondsPerFile) {

  /** {@link #DEFAULT}'s start: the driver's JVM and its first connections to running relays. */
  public static final double DEFAULT_START_SECONDS = 2.0;

  public static final CopyOverheads DEFAULT =
      new CopyOverheads(DEFAULT_START_SECONDS, 0.0002, 0.02, 0.005, 0.001, 0.001);

  /**
   * What relays that YARN starts for the copy ({@code --relays yarn}) add to {@link #DEFAULT}'s
   * start, which takes relays already running: the containers' allocation on NodeManager
   * heartbeats, the relay jar's localization, and each relay JVM's start until it announces
   * itself, before the first pair can copy. An estimate, not a measurement of the user's
   * cluster: in the WAN lab the first pair took 5.5-7.9 s (six relay JVMs on two shared cores;
   * bench/results, the reports' "first pair s"), on a cluster each relay starts on a node of
   * its own.
   */
  public static final double YARN_RELAYS_START_SECONDS = 6.5;

  public static final CopyOverheads NONE = new CopyOverheads(0, 0, 0, 0, 0, 0);

  public CopyOverheads {
    double[] values = {
      startSeconds, listingSecondsPerFile, perFileSeconds, perChunkSeconds, commitSecondsPerFile,
      verifySecondsPerFile
    };
    for (double value : values) {
      if (!(value >= 0) || Double.isInfinite(value)) {
        throw new RelayCpException(
            INVALID_ARGUMENT, "overhead " + value + " s is not a finite time of 0 or more");
      }
    }
  }

  /**
   * These overheads for relays that YARN starts for the copy: {@link
   * #YARN_RELAYS_START_SECONDS} more before the first byte.
   */
  public CopyOverheads withYarnRelays() {
    return new CopyOverheads(startSeconds + YARN_RELAYS_START_SECONDS, listingSecondsPerFile,
        perFileSeconds, perChunkSeconds, commitSecondsPerFile, verifySecondsPerFile);
  }

  /**
   * The defaults for a copy's way of getting its datanode relays: {@link #DEFAULT} for relays
   * already running, {@link #withYarnRelays} of it for relays YARN starts for the copy.
   */
  public static CopyOverheads defaults(boolean yarnRelays) {
    return yarnRelays ? DEFAULT.withYarnRelays() : DEFAULT;
  }

  /** Seconds spent before any byte moves: start and listing. */
  public double beforeDataSeconds(long files) {
    return startSeconds + listingSecondsPerFile * files;
  }

  /**
   * Seconds spent after the last byte lands: the commit of every file and the verification
   * of {@code filesVerifiedAfter}, those of several chunks and empty ones (the others were
   * checked while the copy ran).
   */
  public double afterDataSeconds(long files, long filesVerifiedAfter) {
    return commitSecondsPerFile * files + verifySecondsPerFile * filesVerifiedAfter;
  }
}
