package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a copy did beyond copying.
 *
 * @param filesSkipped files {@code --update} left in place, equal to their source
 * @param bytesSkipped their bytes
 * @param deleted destination entries removed: by {@code --delete} (absent from the source) or
 *     by {@code --diff} (deleted between its snapshots); a directory counts once
 * @param renamed destination entries {@code --diff} renamed
 * @param notPreserved attributes that were to be kept and could not be
 */
public record SyncOutcome(int filesSkipped, long bytesSkipped, int deleted, int renamed,
    List<NotPreserved> notPreserved) {

  public static final SyncOutcome NONE = new SyncOutcome(0, 0, 0, 0, List.of());

  public SyncOutcome {
    notPreserved = List.copyOf(requireNonNull(notPreserved, "notPreserved is null"));
    if (filesSkipped < 0 || bytesSkipped < 0 || deleted < 0 || renamed < 0) {
      throw new IllegalArgumentException("counts must not be negative, got " + filesSkipped
          + ", " + bytesSkipped + ", " + deleted + ", " + renamed);
    }
  }
}
