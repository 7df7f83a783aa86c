package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.transfer.SourceLister.Selection;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport.DiffReportEntry;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport.DiffType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DistCp's {@code -diff FROM TO} on HDFS: the source's snapshot diff from FROM to TO says what
 * changed; renames and deletions are replayed on the destination, and only created and
 * modified entries (and the new names of renamed ones, which {@code --update} skips when
 * unchanged) are copied, from the source's snapshot TO.
 *
 * <p>The destination must be the source as it was at FROM: it must hold a snapshot named FROM
 * and have no change since it (its own diff from FROM to now is empty). Both are checked before
 * anything moves; a destination that fails either is refused, as DistCp refuses it.
 */
final class SnapshotDiffSync {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotDiffSync.class);

  private final SnapshotRange range;
  private final Path sourceRoot;
  private final List<DiffReportEntry> entries;
  /** Entries {@link #apply} renamed. */
  private int renamed;

  private SnapshotDiffSync(SnapshotRange range, Path sourceRoot, List<DiffReportEntry> entries) {
    this.range = range;
    this.sourceRoot = sourceRoot;
    this.entries = List.copyOf(entries);
  }

  /** Checks both sides and reads the source's diff; changes nothing. */
  static SnapshotDiffSync prepare(FileSystem source, Path sourceRoot, FileSystem destination,
      Path destinationRoot, SnapshotRange range) {
    requireNonNull(range, "range is null");
    if (!(source instanceof DistributedFileSystem sourceHdfs)
        || !(destination instanceof DistributedFileSystem destinationHdfs)) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--diff needs HDFS snapshots on"
          + " both SRC and DST; copy with --update (and --delete) instead");
    }
    Path fromOnTarget = new Path(destinationRoot, ".snapshot/" + range.from());
    try {
      if (!destination.exists(fromOnTarget)) {
        throw new RelayCpException(ErrorCode.TARGET_CHANGED, "DST " + destinationRoot
            + " has no snapshot " + range.from() + "; take it when DST matches SRC's "
            + range.from() + " (hdfs dfs -createSnapshot DST " + range.from()
            + "), or copy with --update and without --diff");
      }
      SnapshotDiffReport targetChanges =
          destinationHdfs.getSnapshotDiffReport(destinationRoot, range.from(), "");
      if (!targetChanges.getDiffList().isEmpty()) {
        throw new RelayCpException(ErrorCode.TARGET_CHANGED, "DST " + destinationRoot
            + " has changed since its snapshot " + range.from() + " ("
            + targetChanges.getDiffList().size() + " entries differ); restore it to "
            + range.from() + " or copy with --update and without --diff");
      }
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "checking DST's snapshot " + range.from());
    }
    SnapshotDiffReport report;
    try {
      report = sourceHdfs.getSnapshotDiffReport(sourceRoot, range.from(), range.to());
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "cannot diff SRC " + sourceRoot
          + " from snapshot " + range.from() + " to " + range.to() + " ("
          + HadoopFailures.firstLine(e.getMessage()) + "); name two snapshots SRC has", e);
    }
    return new SnapshotDiffSync(range, sourceRoot, report.getDiffList());
  }

  /** SRC's snapshot TO, which the changed files are copied from. */
  Path snapshotRoot() {
    return new Path(sourceRoot, ".snapshot/" + range.to());
  }

  /** What to copy from {@link #snapshotRoot()}: created, modified and renamed-to entries. */
  List<Selection> changed() {
    List<Selection> selected = new ArrayList<>();
    for (DiffReportEntry entry : entries) {
      switch (entry.getType()) {
        case CREATE -> selected.add(new Selection(path(entry.getSourcePath()), true));
        case MODIFY -> selected.add(new Selection(path(entry.getSourcePath()), false));
        case RENAME -> selected.add(new Selection(path(entry.getTargetPath()), false));
        default -> { }
      }
    }
    return selected;
  }

  /**
   * Replays the diff's renames and deletions below {@code destinationRoot}, returning how many
   * entries were deleted. As DistCp does, every renamed or deleted entry is first moved into a
   * scratch directory (so renames that swap or chain names cannot collide), deleted ones are
   * then removed, and renamed ones moved to their new names, parents first.
   */
  int apply(FileSystem destination, Path destinationRoot, String transferId) {
    Path scratch = new Path(destinationRoot, ".relaycp-diff-" + transferId);
    List<DiffReportEntry> moved = entries.stream()
        .filter(entry -> entry.getType() == DiffType.RENAME || entry.getType() == DiffType.DELETE)
        .sorted(Comparator.comparingInt((DiffReportEntry entry) -> depth(entry.getSourcePath())))
        .toList();
    if (moved.isEmpty()) {
      return 0;
    }
    // Old and new names of everything moved so far, each to where it sits in the scratch
    // directory: an entry below a renamed directory may be named by either.
    Map<String, Path> placed = new LinkedHashMap<>();
    List<Path> deleted = new ArrayList<>();
    Map<Path, String> renamed = new LinkedHashMap<>();
    try {
      if (!destination.mkdirs(scratch)) {
        throw new IOException("mkdirs returned false");
      }
      int index = 0;
      for (DiffReportEntry entry : moved) {
        String from = path(entry.getSourcePath());
        Path current = resolve(placed, destinationRoot, from);
        Path parked = new Path(scratch, Integer.toString(index++));
        if (!destination.exists(current)) {
          LOG.debug("{} is already gone from {}", from, destinationRoot);
          continue;
        }
        if (!destination.rename(current, parked)) {
          throw new IOException("could not move " + current + " aside");
        }
        placed.put(from, parked);
        if (entry.getType() == DiffType.RENAME) {
          String to = path(entry.getTargetPath());
          placed.put(to, parked);
          renamed.put(parked, to);
        } else {
          deleted.add(parked);
        }
      }
      for (Path gone : deleted) {
        destination.delete(gone, true);
      }
      List<Map.Entry<Path, String>> byDepth = new ArrayList<>(renamed.entrySet());
      byDepth.sort(Comparator.comparingInt(entry -> depth(entry.getValue())));
      for (Map.Entry<Path, String> rename : byDepth) {
        Path target = new Path(destinationRoot, rename.getValue());
        destination.mkdirs(target.getParent());
        if (!destination.rename(rename.getKey(), target)) {
          throw new IOException("could not rename " + rename.getKey() + " to " + target);
        }
      }
      destination.delete(scratch, true);
      this.renamed = renamed.size();
      return deleted.size();
    } catch (FileNotFoundException e) {
      throw new RelayCpException(ErrorCode.TARGET_CHANGED, "replaying the diff from "
          + range.from() + " to " + range.to() + " on DST failed: "
          + HadoopFailures.firstLine(e.getMessage()) + "; DST was not as SRC's " + range.from()
          + ", copy with --update and without --diff", e);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "replaying renames and deletions on " + destinationRoot);
    }
  }

  /** How many entries {@link #apply} renamed. */
  int renames() {
    return renamed;
  }

  /** Where {@code relative} is now: below the scratch place of a moved ancestor, or in place. */
  private static Path resolve(Map<String, Path> placed, Path destinationRoot, String relative) {
    String best = null;
    for (String moved : placed.keySet()) {
      if ((relative.equals(moved) || relative.startsWith(moved + "/"))
          && (best == null || moved.length() > best.length())) {
        best = moved;
      }
    }
    if (best == null) {
      return relative.isEmpty() ? destinationRoot : new Path(destinationRoot, relative);
    }
    String rest = relative.substring(best.length());
    return rest.isEmpty() ? placed.get(best) : new Path(placed.get(best), rest.substring(1));
  }

  private static String path(byte[] relative) {
    return relative == null ? "" : DFSUtilClient.bytes2String(relative);
  }

  private static int depth(byte[] relative) {
    return depth(path(relative));
  }

  private static int depth(String relative) {
    return relative.isEmpty() ? 0 : relative.split("/").length;
  }
}
