package dev.relaycp.transfer;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts files into chunks of {@code blocksPerChunk} source blocks. Boundaries fall on source
 * block boundaries, so a reader relay on a datanode reads whole local blocks, and on HDFS the
 * parts concatenate into a file with the source's block layout. An empty file has no chunks:
 * the driver creates it directly.
 */
public final class Chunker {
  private final int blocksPerChunk;

  public Chunker(int blocksPerChunk) {
    if (blocksPerChunk < 1) {
      throw new IllegalArgumentException("blocksPerChunk must be 1 or more, got " + blocksPerChunk);
    }
    this.blocksPerChunk = blocksPerChunk;
  }

  /** Chunks for the files in order; ids are consecutive from 0. */
  public List<Chunk> chunk(List<SourceFile> files) {
    List<Chunk> chunks = new ArrayList<>();
    for (int fileIndex = 0; fileIndex < files.size(); fileIndex++) {
      SourceFile file = files.get(fileIndex);
      long chunkBytes = Math.multiplyExact(file.blockSize(), (long) blocksPerChunk);
      long length = file.length();
      int count = (int) ((length + chunkBytes - 1) / chunkBytes);
      for (int index = 0; index < count; index++) {
        long offset = index * chunkBytes;
        chunks.add(new Chunk(chunks.size(), fileIndex, index, count, offset,
            Math.min(chunkBytes, length - offset)));
      }
    }
    return chunks;
  }
}
