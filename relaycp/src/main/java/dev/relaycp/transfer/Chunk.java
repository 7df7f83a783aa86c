package dev.relaycp.transfer;

/**
 * A byte range of one source file, aligned to the file's blocks.
 *
 * @param id unique within the transfer; also the chunk's id on the wire
 * @param fileIndex the file's index in the source tree
 * @param indexInFile 0 for the first chunk of the file
 * @param chunksInFile how many chunks the file has
 */
public record Chunk(
    int id, int fileIndex, int indexInFile, int chunksInFile, long offset, long length) {

  public Chunk {
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
