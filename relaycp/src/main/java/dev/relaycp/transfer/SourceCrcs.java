package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.util.CrcComposer;
import org.apache.hadoop.util.CrcUtil;
import org.apache.hadoop.util.DataChecksum;

/**
 * The CRC32C of each chunk's source bytes, as the reader relays read them and reported them
 * with the chunk, and each file's CRC32C composed from its chunks'. That is the value HDFS gives
 * as the file's COMPOSITE-CRC32C checksum, so a copy can be checked against it without asking
 * the source's datanodes for their checksums again: the reader's HDFS client checked every byte
 * it read against the source's stored checksums already.
 */
final class SourceCrcs {
  private final Map<Integer, Integer> byChunk = new ConcurrentHashMap<>();

  /** What the latest send of {@code chunk} reported; a send that reported none forgets it. */
  void record(Chunk chunk, OptionalInt crc) {
    requireNonNull(chunk, "chunk is null");
    requireNonNull(crc, "crc is null");
    if (crc.isPresent()) {
      byChunk.put(chunk.id(), crc.getAsInt());
    } else {
      byChunk.remove(chunk.id());
    }
  }

  /**
   * The CRC32C of a whole file from its chunks' (all of them, in any order); empty unless every
   * chunk's is known, as for a file some of whose chunks an earlier run sent.
   */
  OptionalInt ofFile(List<Chunk> chunksOfFile) {
    requireNonNull(chunksOfFile, "chunksOfFile is null");
    if (chunksOfFile.isEmpty()
        || chunksOfFile.size() != chunksOfFile.get(0).chunksInFile()) {
      return OptionalInt.empty();
    }
    CrcComposer composer = CrcComposer.newCrcComposer(DataChecksum.Type.CRC32C, Long.MAX_VALUE);
    for (Chunk chunk : chunksOfFile.stream()
        .sorted(Comparator.comparingInt(Chunk::indexInFile)).toList()) {
      Integer crc = byChunk.get(chunk.id());
      if (crc == null) {
        return OptionalInt.empty();
      }
      composer.update(crc, chunk.length());
    }
    return OptionalInt.of(CrcUtil.readInt(composer.digest(), 0));
  }
}
