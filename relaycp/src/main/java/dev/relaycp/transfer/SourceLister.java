package dev.relaycp.transfer;

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
import java.util.List;
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
    FileStatus rootStatus;
    try {
      rootStatus = fileSystem.getFileStatus(root);
    } catch (FileNotFoundException e) {
      throw new RelayCpException(ErrorCode.SOURCE_NOT_FOUND,
          "source " + root + " does not exist; check the path", e);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading the source " + root);
    }
    if (rootStatus.isFile()) {
      BlockLocation[] blocks;
      try {
        blocks = fileSystem.getFileBlockLocations(rootStatus, 0, rootStatus.getLen());
      } catch (IOException e) {
        throw HadoopFailures.translate(e, "reading the block locations of " + root);
      }
      return new SourceTree(List.of(), List.of(file(rootStatus, blocks, "")), true);
    }
    List<SourceDirectory> directories = new ArrayList<>();
    List<SourceFile> files = new ArrayList<>();
    directories.add(new SourceDirectory("", FileAttributes.of(rootStatus)));
    Deque<FileStatus> pending = new ArrayDeque<>();
    pending.add(rootStatus);
    URI rootUri = rootStatus.getPath().toUri();
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
        String relative = relativePath(rootUri, child.getPath().toUri());
        if (child.isDirectory()) {
          directories.add(new SourceDirectory(relative, FileAttributes.of(child)));
          pending.add(child);
        } else if (child.isFile()) {
          files.add(file(child, child.getBlockLocations(), relative));
        }
      }
    }
    return new SourceTree(directories, files, false);
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
