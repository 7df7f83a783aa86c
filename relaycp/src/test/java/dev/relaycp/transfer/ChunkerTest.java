package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkerTest {
  private static final long BLOCK = 4096;
  private static final FileAttributes ATTRIBUTES =
      new FileAttributes(new FsPermission((short) 0644), "u", "g", 0, 0);

  private static SourceFile file(String name, long length) {
    return file(name, length, BLOCK);
  }

  private static SourceFile file(String name, long length, long blockSize) {
    return new SourceFile(name, URI.create("hdfs://nn:8020/src/" + name), length, blockSize,
        (short) 3, ATTRIBUTES, List.of());
  }

  private static List<Chunk> chunk(int blocksPerChunk, SourceFile... files) {
    return new Chunker(blocksPerChunk).chunk(List.of(files));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void emptyFileHasNoChunks(int blocksPerChunk) {
    assertThat(chunk(blocksPerChunk, file("f", 0))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void oneByteFileIsOneWholeFileChunk(int blocksPerChunk) {
    List<Chunk> chunks = chunk(blocksPerChunk, file("f", 1));

    assertThat(chunks).containsExactly(new Chunk(0, 0, 0, 1, 0, 1));
    assertThat(chunks.get(0).wholeFile()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void fileOneByteShortOfABlockIsOneChunk(int blocksPerChunk) {
    assertThat(chunk(blocksPerChunk, file("f", BLOCK - 1)))
        .containsExactly(new Chunk(0, 0, 0, 1, 0, BLOCK - 1));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void fileOfExactlyOneBlockIsOneChunk(int blocksPerChunk) {
    assertThat(chunk(blocksPerChunk, file("f", BLOCK)))
        .containsExactly(new Chunk(0, 0, 0, 1, 0, BLOCK));
  }

  @Test
  void fileOneByteOverABlockIsTwoChunksWithOneBlockPerChunk() {
    assertThat(chunk(1, file("f", BLOCK + 1))).containsExactly(
        new Chunk(0, 0, 0, 2, 0, BLOCK),
        new Chunk(1, 0, 1, 2, BLOCK, 1));
  }

  @Test
  void fileOneByteOverABlockIsOneChunkWithThreeBlocksPerChunk() {
    assertThat(chunk(3, file("f", BLOCK + 1)))
        .containsExactly(new Chunk(0, 0, 0, 1, 0, BLOCK + 1));
  }

  @Test
  void manyBlocksWithOneBlockPerChunkGiveOneChunkPerBlockAndATail() {
    List<Chunk> chunks = chunk(1, file("f", 10 * BLOCK + 17));

    assertThat(chunks).hasSize(11);
    for (int i = 0; i < 10; i++) {
      assertThat(chunks.get(i)).isEqualTo(new Chunk(i, 0, i, 11, i * BLOCK, BLOCK));
    }
    assertThat(chunks.get(10)).isEqualTo(new Chunk(10, 0, 10, 11, 10 * BLOCK, 17));
  }

  @Test
  void manyBlocksWithThreeBlocksPerChunkGiveThreeBlockChunksAndATail() {
    assertThat(chunk(3, file("f", 10 * BLOCK + 17))).containsExactly(
        new Chunk(0, 0, 0, 4, 0, 3 * BLOCK),
        new Chunk(1, 0, 1, 4, 3 * BLOCK, 3 * BLOCK),
        new Chunk(2, 0, 2, 4, 6 * BLOCK, 3 * BLOCK),
        new Chunk(3, 0, 3, 4, 9 * BLOCK, BLOCK + 17));
  }

  @Test
  void exactMultipleOfTheChunkSizeHasNoTailChunk() {
    assertThat(chunk(3, file("f", 6 * BLOCK))).containsExactly(
        new Chunk(0, 0, 0, 2, 0, 3 * BLOCK),
        new Chunk(1, 0, 1, 2, 3 * BLOCK, 3 * BLOCK));
  }

  @Test
  void idsAreConsecutiveAcrossFilesAndSkipEmptyFiles() {
    List<Chunk> chunks = chunk(3,
        file("a", BLOCK + 1), file("empty", 0), file("b", 10 * BLOCK + 17), file("c", 1));

    assertThat(chunks).extracting(Chunk::id).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(chunks).extracting(Chunk::fileIndex).containsExactly(0, 2, 2, 2, 2, 3);
    assertThat(chunks).extracting(Chunk::indexInFile).containsExactly(0, 0, 1, 2, 3, 0);
    assertThat(chunks).extracting(Chunk::chunksInFile).containsExactly(1, 4, 4, 4, 4, 1);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7})
  void chunksOfEachFileAreContiguousBlockAlignedAndSumToItsLength(int blocksPerChunk) {
    long[] lengths = {0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 10 * BLOCK + 17, 21 * BLOCK};
    SourceFile[] files = new SourceFile[lengths.length];
    for (int i = 0; i < lengths.length; i++) {
      files[i] = file("f" + i, lengths[i]);
    }

    List<Chunk> chunks = chunk(blocksPerChunk, files);

    for (int fileIndex = 0; fileIndex < lengths.length; fileIndex++) {
      int index = fileIndex;
      List<Chunk> ofFile = chunks.stream().filter(c -> c.fileIndex() == index).toList();
      long next = 0;
      for (Chunk chunk : ofFile) {
        assertThat(chunk.offset()).isEqualTo(next);
        assertThat(chunk.offset() % (BLOCK * blocksPerChunk)).isZero();
        assertThat(chunk.length()).isBetween(1L, BLOCK * blocksPerChunk);
        assertThat(chunk.chunksInFile()).isEqualTo(ofFile.size());
        next += chunk.length();
      }
      assertThat(next).as("bytes chunked of file %d", fileIndex).isEqualTo(lengths[fileIndex]);
    }
    for (int i = 0; i < chunks.size(); i++) {
      assertThat(chunks.get(i).id()).isEqualTo(i);
    }
  }

  @Test
  void eachFileIsCutAtItsOwnBlockSize() {
    List<Chunk> chunks = chunk(2, file("small", 5000, 1000), file("large", 5000, 4000));

    assertThat(chunks).containsExactly(
        new Chunk(0, 0, 0, 3, 0, 2000),
        new Chunk(1, 0, 1, 3, 2000, 2000),
        new Chunk(2, 0, 2, 3, 4000, 1000),
        new Chunk(3, 1, 0, 1, 0, 5000));
  }

  @Test
  void chunksBeyondTwoGigabytesKeepLongOffsets() {
    long block = 128L << 20;
    List<Chunk> chunks = chunk(8, file("big", 40 * block + 1, block));

    assertThat(chunks).hasSize(6);
    assertThat(chunks.get(5)).isEqualTo(new Chunk(5, 0, 5, 6, 40 * block, 1));
    assertThat(chunks.get(4).offset()).isEqualTo(32 * block);
  }

  @Test
  void noFilesGiveNoChunks() {
    assertThat(new Chunker(1).chunk(List.of())).isEmpty();
  }

  @Test
  void blocksPerChunkBelowOneIsRejected() {
    assertThatThrownBy(() -> new Chunker(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aChunkIsLocalToTheHostsHoldingMostOfItsBytes() {
    List<BlockPlacement> blocks = List.of(
        new BlockPlacement(0, BLOCK, List.of("10.0.0.1", "10.0.0.2")),
        new BlockPlacement(BLOCK, BLOCK, List.of("10.0.0.2", "10.0.0.3")),
        new BlockPlacement(2 * BLOCK, 10, List.of("10.0.0.3")));
    SourceFile placed = new SourceFile("p", URI.create("hdfs://nn:8020/src/p"), 2 * BLOCK + 10,
        BLOCK, (short) 2, ATTRIBUTES, blocks);

    List<Chunk> oneBlock = chunk(1, placed);
    assertThat(oneBlock).extracting(Chunk::localHosts).containsExactly(
        List.of("10.0.0.1", "10.0.0.2"), List.of("10.0.0.2", "10.0.0.3"), List.of("10.0.0.3"));
    List<Chunk> twoBlocks = chunk(2, placed);
    assertThat(twoBlocks).extracting(Chunk::localHosts).containsExactly(
        List.of("10.0.0.2"), List.of("10.0.0.3"));
  }

  @Test
  void aFileWithoutPlacesHasChunksLocalNowhere() {
    assertThat(chunk(1, file("f", 3 * BLOCK))).allMatch(chunk -> chunk.localHosts().isEmpty());
  }
}
