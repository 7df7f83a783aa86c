package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What one run of relaycp ended with, for a workflow engine that reads it after the run (see
 * {@link OozieActionOutput}): the summary of a copy that finished, and the one-line message of
 * a failure. Commands fill it in as they end; it is read once the command line has returned.
 */
public final class RunRecord {
  private Map<String, Object> summary;
  private String failure;

  synchronized void copied(Map<String, Object> summary) {
    this.summary = Collections.unmodifiableMap(
        new LinkedHashMap<>(requireNonNull(summary, "summary is null")));
  }

  synchronized void failed(String message) {
    this.failure = requireNonNull(message, "message is null");
  }

  /** The JSON summary of the copy, if this run was a copy that finished. */
  public synchronized Optional<Map<String, Object>> summary() {
    return Optional.ofNullable(summary);
  }

  /** The one-line message printed for a failure (without the "relaycp: " prefix). */
  public synchronized Optional<String> failure() {
    return Optional.ofNullable(failure);
  }
}
