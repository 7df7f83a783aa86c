package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a finished copy did. Only a copy whose every file verified returns a report.
 *
 * @param routeResults what each route carried, in route order
 * @param phaseSeconds wall seconds of each phase in order: listing (with the checks of the
 *     targets), relays (until the first routes are ready; the staging is made meanwhile),
 *     copying, completing (multipart uploads), verifying, committing
 * @param provisioner what provided the relays: "static", "local", "yarn" or "yarn-pool"
 * @param relaysStarted relays started for this copy by site ("src", "dst"), replacements
 *     included; empty for relays that were already running
 * @param localReadFraction the bytes a reader relay read on a datanode holding them, as a
 *     fraction of all bytes
 * @param sync what {@code --update}, {@code --delete} and {@code --diff} skipped and removed,
 *     and what could not be kept; {@link #files} and {@link #bytes} count only what was sent
 *     or taken over from an earlier run's staging
 * @param resume what this run took over from earlier runs of the same copy
 */
public record CopyReport(
    String source,
    String destination,
    long bytes,
    int files,
    int directories,
    double seconds,
    int routes,
    int routesDropped,
    int chunks,
    int chunksResent,
    List<FileVerification> verification,
    List<RouteResult> routeResults,
    Map<String, Double> phaseSeconds,
    String provisioner,
    Map<String, Integer> relaysStarted,
    double localReadFraction,
    SyncOutcome sync,
    ResumeOutcome resume) {

  /** A report of a plain copy: {@link SyncOutcome#NONE}. */
  public CopyReport(String source, String destination, long bytes, int files, int directories,
      double seconds, int routes, int routesDropped, int chunks, int chunksResent,
      List<FileVerification> verification, List<RouteResult> routeResults,
      Map<String, Double> phaseSeconds, String provisioner, Map<String, Integer> relaysStarted,
      double localReadFraction) {
    this(source, destination, bytes, files, directories, seconds, routes, routesDropped, chunks,
        chunksResent, verification, routeResults, phaseSeconds, provisioner, relaysStarted,
        localReadFraction, SyncOutcome.NONE, ResumeOutcome.FRESH);
  }

  public CopyReport {
    requireNonNull(sync, "sync is null");
    requireNonNull(resume, "resume is null");
    requireNonNull(source, "source is null");
    phaseSeconds = Collections.unmodifiableMap(
        new LinkedHashMap<>(requireNonNull(phaseSeconds, "phaseSeconds is null")));
    requireNonNull(destination, "destination is null");
    verification = List.copyOf(requireNonNull(verification, "verification is null"));
    routeResults = List.copyOf(requireNonNull(routeResults, "routeResults is null"));
    requireNonNull(provisioner, "provisioner is null");
    relaysStarted = Collections.unmodifiableMap(
        new LinkedHashMap<>(requireNonNull(relaysStarted, "relaysStarted is null")));
    if (localReadFraction < 0 || localReadFraction > 1) {
      throw new IllegalArgumentException(
          "localReadFraction must be 0..1, got " + localReadFraction);
    }
  }

  /** This report with {@code outcome} as its {@link #sync}. */
  /** Bytes that crossed the relay hop: {@link #bytes}, or fewer with {@code --compress}. */
  public long wireBytes() {
    return routeResults.stream().mapToLong(RouteResult::wireBytes).sum();
  }

  public CopyReport withSync(SyncOutcome outcome) {
    return new CopyReport(source, destination, bytes, files, directories, seconds, routes,
        routesDropped, chunks, chunksResent, verification, routeResults, phaseSeconds,
        provisioner, relaysStarted, localReadFraction, outcome, resume);
  }

  /** This report with {@code outcome} as its {@link #resume}. */
  public CopyReport withResume(ResumeOutcome outcome) {
    return new CopyReport(source, destination, bytes, files, directories, seconds, routes,
        routesDropped, chunks, chunksResent, verification, routeResults, phaseSeconds,
        provisioner, relaysStarted, localReadFraction, sync, outcome);
  }

  /** Megabytes (10^6 bytes) per second of wall time. */
  public double megabytesPerSecond() {
    return seconds <= 0 ? 0 : bytes / 1e6 / seconds;
  }

  public boolean allVerified() {
    return verification.stream().allMatch(FileVerification::verified);
  }
}
