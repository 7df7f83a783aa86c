package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How a copy treats what already is at the destination, as DistCp's {@code -update},
 * {@code -delete}, {@code -p}, {@code -filters} and {@code -diff} do.
 *
 * @param update skip files whose target has the same length and COMPOSITE_CRC checksum (and
 *     block size, when block size is kept), replace the others; an existing target is no error
 * @param delete after the copy, remove what the destination holds and the source does not
 *     (to the destination's trash where it has one); only with {@code update}
 * @param preserve what to keep of each file and directory besides its bytes
 * @param filters a source path (its full URI string) that any of these matches whole is not
 *     copied, nor anything below it, nor deleted at the destination by {@code delete}
 * @param diff copy only what an HDFS snapshot diff of the source names; only with
 *     {@code update}, never with {@code delete}
 * @param atomic the destination, which must not exist, appears whole by one rename of the
 *     tree committed in the staging directory, as with DistCp's {@code -atomic}; never with
 *     {@code update} (which changes a destination in place)
 */
public record SyncSettings(boolean update, boolean delete, Set<PreservedAttribute> preserve,
    List<Pattern> filters, Optional<SnapshotRange> diff, boolean atomic) {

  /** A plain copy: nothing skipped or deleted, relaycp's default attributes kept. */
  public static final SyncSettings NONE = new SyncSettings(false, false,
      PreservedAttribute.DEFAULT, List.of(), Optional.empty(), false);

  /** Settings of a copy that is not atomic. */
  public SyncSettings(boolean update, boolean delete, Set<PreservedAttribute> preserve,
      List<Pattern> filters, Optional<SnapshotRange> diff) {
    this(update, delete, preserve, filters, diff, false);
  }

  public SyncSettings {
    preserve = Set.copyOf(requireNonNull(preserve, "preserve is null"));
    filters = List.copyOf(requireNonNull(filters, "filters is null"));
    requireNonNull(diff, "diff is null");
    if (delete && !update) {
      throw new IllegalArgumentException("delete needs update");
    }
    if (diff.isPresent() && !update) {
      throw new IllegalArgumentException("diff needs update");
    }
    if (diff.isPresent() && delete) {
      throw new IllegalArgumentException("diff and delete exclude each other");
    }
    if (atomic && update) {
      throw new IllegalArgumentException("atomic and update exclude each other");
    }
  }

  public boolean keeps(PreservedAttribute attribute) {
    return preserve.contains(attribute);
  }

  /** Whether a filter excludes the source path {@code uri} (a full URI string). */
  public boolean excludes(String uri) {
    for (Pattern filter : filters) {
      if (filter.matcher(uri).matches()) {
        return true;
      }
    }
    return false;
  }
}
