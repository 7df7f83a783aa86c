package dev.relaycp.transfer;

/**
 * What a copy took over from earlier runs of the same command that did not finish.
 *
 * @param run which run this was: 0 for a copy that started afresh, one more for each resume
 * @param chunksReused chunks an earlier run had staged, which this run did not send again
 * @param filesCommittedEarlier files an earlier run had already committed (found at their final
 *     names with their source's checksum), which this run left in place
 * @param bytesReused the bytes of both, which did not cross the network again
 */
public record ResumeOutcome(int run, int chunksReused, int filesCommittedEarlier,
    long bytesReused) {

  public static final ResumeOutcome FRESH = new ResumeOutcome(0, 0, 0, 0);

  public ResumeOutcome {
    if (run < 0 || chunksReused < 0 || filesCommittedEarlier < 0 || bytesReused < 0) {
      throw new IllegalArgumentException("counts must not be negative, got run " + run + ", "
          + chunksReused + " chunks, " + filesCommittedEarlier + " files, " + bytesReused
          + " bytes");
    }
  }

  /** Whether this run took up an earlier one's staging. */
  public boolean resumed() {
    return run > 0;
  }

  /** This outcome with files an earlier run committed added. */
  ResumeOutcome withCommittedEarlier(int files, long bytes) {
    return new ResumeOutcome(run, chunksReused, filesCommittedEarlier + files,
        bytesReused + bytes);
  }
}
