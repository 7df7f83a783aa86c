package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.transfer.SourceTree.SourceDirectory;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Lists a source tree, breadth first, so that every directory comes before its children, with
 * each file's block locations (from the same NameNode calls, on HDFS).
 */
public final class SourceLister {
  private SourceLister() {}

  public static SourceTree list(FileSystem fileSystem, Path root) {
    return list(fileSystem, root, uri -> false);
  }

  /**
   * Lists {@code root}, leaving out every entry whose full URI string {@code excluded} accepts
   * and everything below an excluded directory (the root itself is always listed).
   */
  public static SourceTree list(FileSystem fileSystem, Path root, Predicate<String> excluded) {
    FileStatus rootStatus = status(fileSystem, root);
    if (rootStatus.isFile()) {
      return new SourceTree(List.of(), List.of(file(fileSystem, rootStatus, "")), true);
    }
    List<SourceDirectory> directories = new ArrayList<>();
    List<SourceFile> files = new ArrayList<>();
    directories.add(new SourceDirectory("", FileAttributes.of(rootStatus)));
    listBelow(fileSystem, rootStatus, rootStatus.getPath().toUri(), excluded, directories, files);
    return new SourceTree(directories, files, false);
  }

  /** One entry of a selective listing: a file, or a directory with or without what is below. */
  public record Selection(String relativePath, boolean subtree) {
    public Selection {
      requireNonNull(relativePath, "relativePath is null");
    }
  }

  /**
   * Lists only the entries {@code selected} names below the directory {@code root} (as a
   * snapshot diff names them), parents before children; an entry that no longer exists is
   * left out, as is anything {@code excluded} accepts.
   */
  public static SourceTree listSelected(FileSystem fileSystem, Path root,
      List<Selection> selected, Predicate<String> excluded) {
    URI rootUri = status(fileSystem, root).getPath().toUri();
    List<SourceDirectory> directories = new ArrayList<>();
    List<SourceFile> files = new ArrayList<>();
    List<Selection> ordered = new ArrayList<>(selected);
    ordered.sort(Comparator.comparingInt((Selection entry) -> depth(entry.relativePath()))
        .thenComparing(Selection::relativePath));
    Set<String> listed = new HashSet<>();
    List<String> subtrees = new ArrayList<>();
    for (Selection entry : ordered) {
      String wanted = entry.relativePath();
      if (!listed.add(wanted)
          || subtrees.stream().anyMatch(subtree -> wanted.startsWith(subtree + "/"))) {
        continue;
      }
      FileStatus status;
      try {
        status = fileSystem.getFileStatus(
            wanted.isEmpty() ? root : new Path(root, wanted));
      } catch (FileNotFoundException e) {
        continue;
      } catch (IOException e) {
        throw HadoopFailures.translate(e, "reading " + entry.relativePath() + " below " + root);
      }
      if (excluded.test(status.getPath().toString())) {
        continue;
      }
      String relative = relativePath(rootUri, status.getPath().toUri());
      if (status.isFile()) {
        files.add(file(fileSystem, status, relative));
      } else if (status.isDirectory()) {
        directories.add(new SourceDirectory(relative, FileAttributes.of(status)));
        if (entry.subtree()) {
          subtrees.add(wanted);
          listBelow(fileSystem, status, rootUri, excluded, directories, files);
        }
      }
    }
    return new SourceTree(directories, files, false);
  }

  private static int depth(String relativePath) {
    return relativePath.isEmpty() ? 0 : relativePath.split("/").length;
  }

  private static FileStatus status(FileSystem fileSystem, Path root) {
    try {
      return fileSystem.getFileStatus(root);
    } catch (FileNotFoundException e) {
      throw new RelayCpException(ErrorCode.SOURCE_NOT_FOUND,
          "source " + root + " does not exist; check the path", e);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading the source " + root);
    }
  }

  private static SourceFile file(FileSystem fileSystem, FileStatus status, String relative) {
    BlockLocation[] blocks;
    try {
      blocks = status instanceof LocatedFileStatus located ? located.getBlockLocations()
          : fileSystem.getFileBlockLocations(status, 0, status.getLen());
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading the block locations of " + status.getPath());
    }
    return file(status, blocks, relative);
  }

  /** Adds what lies below {@code top}, breadth first, to the lists. */
  private static void listBelow(FileSystem fileSystem, FileStatus top, URI rootUri,
      Predicate<String> excluded, List<SourceDirectory> directories, List<SourceFile> files) {
    Deque<FileStatus> pending = new ArrayDeque<>();
    pending.add(top);
    while (!pending.isEmpty()) {
      FileStatus directory = pending.poll();
      List<LocatedFileStatus> children = new ArrayList<>();
      try {
        RemoteIterator<LocatedFileStatus> listing =
            fileSystem.listLocatedStatus(directory.getPath());
        while (listing.hasNext()) {
          children.add(listing.next());
        }
      } catch (IOException e) {
        throw HadoopFailures.translate(e, "listing " + directory.getPath());
      }
      children.sort(Comparator.comparing(FileStatus::getPath));
      for (LocatedFileStatus child : children) {
        if (excluded.test(child.getPath().toString())) {
          continue;
        }
        String relative = relativePath(rootUri, child.getPath().toUri());
        if (child.isDirectory()) {
          directories.add(new SourceDirectory(relative, FileAttributes.of(child)));
          pending.add(child);
        } else if (child.isFile()) {
          files.add(file(child, child.getBlockLocations(), relative));
        }
      }
    }
  }

  private static SourceFile file(FileStatus status, BlockLocation[] locations,
      String relative) {
    List<BlockPlacement> blocks = new ArrayList<>();
    if (locations != null) {
      for (BlockLocation location : locations) {
        try {
          blocks.add(BlockPlacement.of(location));
        } catch (IOException e) {
          throw HadoopFailures.translate(e, "reading the block locations of " + status.getPath());
        }
      }
    }
    return new SourceFile(relative, status.getPath().toUri(), status.getLen(),
        Math.max(1, status.getBlockSize()), (short) Math.max(1, status.getReplication()),
        FileAttributes.of(status), blocks);
  }

  static String relativePath(URI root, URI child) {
    String rootPath = root.getPath();
    String childPath = child.getPath();
    if (!childPath.startsWith(rootPath)) {
      throw new IllegalStateException(child + " is not below " + root);
    }
    String relative = childPath.substring(rootPath.length());
    return relative.startsWith("/") ? relative.substring(1) : relative;
  }
}
