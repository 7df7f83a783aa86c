package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class SourceCrcsTest {
  private static final byte[] FILE = new Random(7).ints(300_001).collect(
      () -> new java.io.ByteArrayOutputStream(), (out, value) -> out.write(value),
      (left, right) -> left.writeBytes(right.toByteArray())).toByteArray();
  private static final List<Chunk> CHUNKS = List.of(
      new Chunk(10, 4, 0, 3, 0, 131_072),
      new Chunk(11, 4, 1, 3, 131_072, 131_072),
      new Chunk(12, 4, 2, 3, 262_144, 300_001 - 262_144));

  private static int crc(long offset, long length) {
    CRC32C crc = new CRC32C();
    crc.update(FILE, (int) offset, (int) length);
    return (int) crc.getValue();
  }

  @Test
  void aFilesCrcComposedFromItsChunksInAnyOrderIsTheCrcOfAllItsBytes() {
    SourceCrcs crcs = new SourceCrcs();
    for (Chunk chunk : List.of(CHUNKS.get(2), CHUNKS.get(0), CHUNKS.get(1))) {
      crcs.record(chunk, OptionalInt.of(crc(chunk.offset(), chunk.length())));
    }

    assertThat(crcs.ofFile(List.of(CHUNKS.get(1), CHUNKS.get(2), CHUNKS.get(0))))
        .hasValue(crc(0, FILE.length));
  }

  @Test
  void aChunkWithAWrongCrcChangesTheFilesCrc() {
    SourceCrcs crcs = new SourceCrcs();
    CHUNKS.forEach(chunk -> crcs.record(chunk, OptionalInt.of(crc(chunk.offset(),
        chunk.length()))));
    crcs.record(CHUNKS.get(1), OptionalInt.of(crc(CHUNKS.get(1).offset(), 131_071)));

    assertThat(crcs.ofFile(CHUNKS)).isPresent();
    assertThat(crcs.ofFile(CHUNKS).getAsInt()).isNotEqualTo(crc(0, FILE.length));
  }

  @Test
  void aFileIsUnknownUnlessEveryChunkOfItsLatestSendsReportedACrc() {
    SourceCrcs crcs = new SourceCrcs();
    crcs.record(CHUNKS.get(0), OptionalInt.of(crc(0, 131_072)));
    crcs.record(CHUNKS.get(1), OptionalInt.of(crc(131_072, 131_072)));

    assertThat(crcs.ofFile(CHUNKS)).as("one chunk never reported").isEmpty();
    assertThat(crcs.ofFile(CHUNKS.subList(0, 2))).as("a list missing a chunk").isEmpty();
    assertThat(crcs.ofFile(List.of())).isEmpty();

    crcs.record(CHUNKS.get(2), OptionalInt.of(crc(262_144, 300_001 - 262_144)));
    assertThat(crcs.ofFile(CHUNKS)).hasValue(crc(0, FILE.length));
    crcs.record(CHUNKS.get(2), OptionalInt.empty());
    assertThat(crcs.ofFile(CHUNKS)).as("resent by a relay that reports none").isEmpty();
  }
}
