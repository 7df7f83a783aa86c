package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The listed source: its directories (parents before children, the root's own relative path
 * empty) and files. {@code singleFile} when the source is one file, not a directory.
 */
public record SourceTree(
    List<SourceDirectory> directories, List<SourceFile> files, boolean singleFile) {

  public SourceTree {
    directories = List.copyOf(requireNonNull(directories, "directories is null"));
    files = List.copyOf(requireNonNull(files, "files is null"));
  }

  /** The relative path of every directory and file listed. */
  public Set<String> relativePaths() {
    Set<String> paths = new HashSet<>();
    directories.forEach(directory -> paths.add(directory.relativePath()));
    files.forEach(file -> paths.add(file.relativePath()));
    return paths;
  }

  public long totalBytes() {
    return files.stream().mapToLong(SourceFile::length).sum();
  }

  /**
   * The datanodes holding the listing's bytes (each block counted on every replica's host),
   * most bytes first, as {@link HostAddresses#normalize} names them; empty where the file
   * system reports no block locations.
   */
  public List<String> hostsByBytes() {
    Map<String, Long> bytes = new HashMap<>();
    for (SourceFile file : files) {
      for (BlockPlacement block : file.blocks()) {
        for (String host : block.hosts()) {
          bytes.merge(host, block.length(), Long::sum);
        }
      }
    }
    return bytes.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()
            .thenComparing(Map.Entry.comparingByKey()))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** A directory of the source tree. */
  public record SourceDirectory(String relativePath, FileAttributes attributes) {
    public SourceDirectory {
      requireNonNull(relativePath, "relativePath is null");
      requireNonNull(attributes, "attributes is null");
    }
  }
}
