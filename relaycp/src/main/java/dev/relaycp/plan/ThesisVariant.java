package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;
import java.util.Locale;

/** Which of the thesis's time equations the {@code thesis} model reports. */
public enum ThesisVariant {
  /** Eq. 3.2: split, distribute, send, consolidate and merge one after another. */
  BASIC,
  /** Eq. 3.3: stages overlap; VM setup overlaps the split. */
  PIPELINED,
  /** Eq. 3.4: pipelining and network data piping (no physical split or merge). */
  PIPED,
  /** Eq. 5.1: eq. 3.4 between HDFS clusters, with an export before and an import after. */
  HDFS;

  /** The variant named by {@code text} in any case; another name is INVALID_ARGUMENT. */
  public static ThesisVariant parse(String text) {
    try {
      return valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "unknown --thesis-variant '" + text + "'; use basic, pipelined, piped or hdfs");
    }
  }
}
