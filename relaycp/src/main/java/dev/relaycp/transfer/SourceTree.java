package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.List;

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

  public long totalBytes() {
    return files.stream().mapToLong(SourceFile::length).sum();
  }

  /** A directory of the source tree. */
  public record SourceDirectory(String relativePath, FileAttributes attributes) {
    public SourceDirectory {
      requireNonNull(relativePath, "relativePath is null");
      requireNonNull(attributes, "attributes is null");
    }
  }
}
