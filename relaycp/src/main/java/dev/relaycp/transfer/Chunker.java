package dev.relaycp.transfer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        long chunkLength = Math.min(chunkBytes, length - offset);
        chunks.add(new Chunk(chunks.size(), fileIndex, index, count, offset, chunkLength,
            localHosts(file.blocks(), offset, chunkLength)));
      }
    }
    return chunks;
  }

  /** The hosts holding the most bytes of [offset, offset + length), in a stable order. */
  static List<String> localHosts(List<BlockPlacement> blocks, long offset, long length) {
    Map<String, Long> bytes = new LinkedHashMap<>();
    long end = offset + length;
    for (BlockPlacement block : blocks) {
      long overlap = Math.min(end, block.offset() + block.length())
          - Math.max(offset, block.offset());
      if (overlap > 0) {
        for (String host : block.hosts()) {
          bytes.merge(host, overlap, Long::sum);
        }
      }
    }
    long most = bytes.values().stream().mapToLong(Long::longValue).max().orElse(0);
    List<String> hosts = new ArrayList<>();
    bytes.forEach((host, held) -> {
      if (most > 0 && held == most) {
        hosts.add(host);
      }
    });
    return hosts;
  }
}
