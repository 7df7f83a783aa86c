package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A byte range of one source file, aligned to the file's blocks.
 *
 * @param id unique within the transfer; also the chunk's id on the wire
 * @param fileIndex the file's index in the source tree
 * @param indexInFile 0 for the first chunk of the file
 * @param chunksInFile how many chunks the file has
 * @param localHosts the datanodes holding the most of the chunk's bytes (for a chunk of one
 *     block, its replicas), as {@link HostAddresses#normalize} names them; empty if unknown
 */
public record Chunk(int id, int fileIndex, int indexInFile, int chunksInFile, long offset,
    long length, List<String> localHosts) {

  /** A chunk whose blocks' places are not known. */
  public Chunk(int id, int fileIndex, int indexInFile, int chunksInFile, long offset,
      long length) {
    this(id, fileIndex, indexInFile, chunksInFile, offset, length, List.of());
  }

  public Chunk {
    localHosts = List.copyOf(requireNonNull(localHosts, "localHosts is null"));
    if (id < 0 || fileIndex < 0 || indexInFile < 0 || indexInFile >= chunksInFile) {
      throw new IllegalArgumentException("bad chunk numbering: id " + id + ", file " + fileIndex
          + ", chunk " + indexInFile + " of " + chunksInFile);
    }
    if (offset < 0 || length < 1) {
      throw new IllegalArgumentException(
          "a chunk needs offset >= 0 and length >= 1, got " + offset + " and " + length);
    }
  }

  public boolean wholeFile() {
    return chunksInFile == 1;
  }
}
