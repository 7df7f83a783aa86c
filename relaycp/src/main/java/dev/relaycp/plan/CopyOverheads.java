package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;

/**
 * Fixed costs of a relaycp copy that bandwidth does not explain, in seconds: starting the driver
 * and its relays, listing the source (per file), opening and closing each file on a stream
 * (per file) and each chunk (per chunk), committing (rename, per file, done by the driver one
 * after another) and verifying (comparing checksums, per file, as the effective cost with the
 * driver's parallel checksum requests). The defaults are estimates for HDFS with a namenode a
 * millisecond away (about one RPC per file for each of listing, commit and verification), not
 * measurements.
 */
public record CopyOverheads(
    double startSeconds,
    double listingSecondsPerFile,
    double perFileSeconds,
    double perChunkSeconds,
    double commitSecondsPerFile,
    double verifySecondsPerFile) {

  public static final CopyOverheads DEFAULT = new CopyOverheads(2.0, 0.0002, 0.02, 0.005, 0.001, 0.001);
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

  /** Seconds spent before any byte moves: start and listing. */
  public double beforeDataSeconds(long files) {
    return startSeconds + listingSecondsPerFile * files;
  }

  /** Seconds spent after the last byte lands: commit and verification. */
  public double afterDataSeconds(long files) {
    return (commitSecondsPerFile + verifySecondsPerFile) * files;
  }
}
