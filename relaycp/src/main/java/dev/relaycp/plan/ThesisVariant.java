package dev.relaycp.plan;

/** Which of the thesis's time equations the {@code thesis} model reports. */
public enum ThesisVariant {
  /** Eq. 3.2: split, distribute, send, consolidate and merge one after another. */
  BASIC,
  /** Eq. 3.3: stages overlap; VM setup overlaps the split. */
  PIPELINED,
  /** Eq. 3.4: pipelining and network data piping (no physical split or merge). */
  PIPED,
  /** Eq. 5.1: eq. 3.4 between HDFS clusters, with an export before and an import after. */
  HDFS
}
