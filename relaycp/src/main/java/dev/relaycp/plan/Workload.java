package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files of a copy as groups of equal-sized files, in listing order: a real listing is one
 * group per run of equal sizes, a what-if histogram is a few groups. Models that simulate
 * (DistCp's maps, relaycp's chunk queue) walk the groups in this order.
 */
public record Workload(List<FileGroup> groups) {
  private static final Pattern GROUP = Pattern.compile("\\s*(\\d+)\\s*[xX*]\\s*(\\S+)\\s*");

  /** {@code count} files of {@code size} bytes each. */
  public record FileGroup(long count, DataSize size) {
    public FileGroup {
      requireNonNull(size, "size is null");
      if (count < 1) {
        throw new RelayCpException(
            INVALID_ARGUMENT, "file count " + count + " is below 1; give at least one file");
      }
    }

    public DataSize totalSize() {
      return DataSize.ofBytes(Math.multiplyExact(count, size.bytes()));
    }
  }

  public Workload {
    requireNonNull(groups, "groups is null");
    groups = List.copyOf(groups);
    if (groups.isEmpty()) {
      throw new RelayCpException(INVALID_ARGUMENT, "the copy has no files; give at least one file");
    }
  }

  /**
   * Files given as {@code COUNTxSIZE} groups separated by commas, e.g. {@code 2x10GiB,1000x1MiB}
   * (as {@code --file-sizes} takes them); {@code *} or {@code X} may stand for {@code x}.
   */
  public static Workload ofHistogram(String text) {
    requireNonNull(text, "text is null");
    List<FileGroup> groups = new ArrayList<>();
    for (String part : text.split(",")) {
      Matcher matcher = GROUP.matcher(part);
      if (!matcher.matches()) {
        throw new RelayCpException(
            INVALID_ARGUMENT,
            "cannot read '" + part + "' of --file-sizes; write COUNTxSIZE groups, e.g. 2x10GiB,1000x1MiB");
      }
      groups.add(new FileGroup(Long.parseLong(matcher.group(1)), DataSize.parse(matcher.group(2))));
    }
    return new Workload(groups);
  }

  /**
   * {@code files} files sharing {@code total} as evenly as whole bytes allow: the what-if
   * default when only a size and a file count are known.
   */
  public static Workload equalFiles(DataSize total, long files) {
    requireNonNull(total, "total is null");
    if (files < 1) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "--files " + files + " is below 1; give at least one file");
    }
    long each = total.bytes() / files;
    long larger = total.bytes() % files;
    List<FileGroup> groups = new ArrayList<>();
    if (larger > 0) {
      groups.add(new FileGroup(larger, DataSize.ofBytes(each + 1)));
    }
    if (files - larger > 0) {
      groups.add(new FileGroup(files - larger, DataSize.ofBytes(each)));
    }
    return new Workload(groups);
  }

  /** A listing's file sizes in listing order; consecutive equal sizes share a group. */
  public static Workload ofSizes(Collection<DataSize> sizes) {
    requireNonNull(sizes, "sizes is null");
    List<FileGroup> groups = new ArrayList<>();
    long runBytes = -1;
    long runCount = 0;
    for (DataSize size : sizes) {
      if (size.bytes() == runBytes) {
        runCount++;
        continue;
      }
      if (runCount > 0) {
        groups.add(new FileGroup(runCount, DataSize.ofBytes(runBytes)));
      }
      runBytes = size.bytes();
      runCount = 1;
    }
    if (runCount > 0) {
      groups.add(new FileGroup(runCount, DataSize.ofBytes(runBytes)));
    }
    return new Workload(groups);
  }

  public static Workload of(FileGroup... groups) {
    return new Workload(List.of(groups));
  }

  public DataSize totalSize() {
    long bytes = 0;
    for (FileGroup group : groups) {
      bytes = Math.addExact(bytes, group.totalSize().bytes());
    }
    return DataSize.ofBytes(bytes);
  }

  public long fileCount() {
    long count = 0;
    for (FileGroup group : groups) {
      count += group.count();
    }
    return count;
  }

  public DataSize largestFile() {
    long largest = 0;
    for (FileGroup group : groups) {
      largest = Math.max(largest, group.size().bytes());
    }
    return DataSize.ofBytes(largest);
  }
}
