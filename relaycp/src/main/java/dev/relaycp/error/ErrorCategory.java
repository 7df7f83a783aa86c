package dev.relaycp.error;

/** Who can fix an error: the user (bad input), the outside world (a cluster, a relay), or us. */
public enum ErrorCategory {
  USER,
  EXTERNAL,
  INTERNAL
}
