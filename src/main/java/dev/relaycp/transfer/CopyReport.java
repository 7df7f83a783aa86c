package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a finished copy did, with what each route carried ({@code routeResults}, in route
 * order). Only a copy whose every file verified returns a report.
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
    List<RouteResult> routeResults) {

  public CopyReport {
    requireNonNull(source, "source is null");
    requireNonNull(destination, "destination is null");
    verification = List.copyOf(requireNonNull(verification, "verification is null"));
    routeResults = List.copyOf(requireNonNull(routeResults, "routeResults is null"));
  }

  /** Megabytes (10^6 bytes) per second of wall time. */
  public double megabytesPerSecond() {
    return seconds <= 0 ? 0 : bytes / 1e6 / seconds;
  }

  public boolean allVerified() {
    return verification.stream().allMatch(FileVerification::verified);
  }
}
