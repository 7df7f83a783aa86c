package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SourceListerTest {
  private static final long BLOCK = 64 * 1024;
  static EmbeddedClusters clusters;
  static FileSystem source;

  @BeforeAll
  static void startClusters() throws IOException {
    clusters = EmbeddedClusters.start(2, BLOCK);
    source = FileSystem.get(clusters.sourceUri("/"), new Configuration());
    write(new Path("/tree/three-blocks.bin"), 3 * BLOCK - 100);
    write(new Path("/tree/sub/small.bin"), 10);
    write(new Path("/tree/sub/empty.bin"), 0);
  }

  private static void write(Path path, long length) throws IOException {
    try (FSDataOutputStream out = source.create(path, true, 4096, (short) 2, BLOCK)) {
      out.write(new byte[(int) length]);
    }
  }

  @AfterAll
  static void stopClusters() {
    clusters.close();
  }

  @Test
  void everyFileCarriesItsBlocksAndTheDatanodesHoldingThem() {
    SourceTree tree = SourceLister.list(source, new Path(clusters.sourceUri("/tree")));

    assertThat(tree.files()).extracting(SourceFile::relativePath)
        .containsExactly("three-blocks.bin", "sub/empty.bin", "sub/small.bin");
    SourceFile big = tree.files().get(0);
    assertThat(big.blocks()).extracting(BlockPlacement::offset)
        .containsExactly(0L, BLOCK, 2 * BLOCK);
    assertThat(big.blocks()).extracting(BlockPlacement::length)
        .containsExactly(BLOCK, BLOCK, BLOCK - 100);
    // The embedded datanodes all listen on loopback; replication is 2 of 2 datanodes.
    assertThat(big.blocks()).allSatisfy(block ->
        assertThat(block.hosts()).containsExactly("127.0.0.1"));
    assertThat(tree.files().get(1).blocks()).isEmpty();
    assertThat(tree.hostsByBytes()).containsExactly("127.0.0.1");
  }

  @Test
  void aSingleFileSourceHasItsBlocksToo() {
    SourceTree tree = SourceLister.list(source,
        new Path(clusters.sourceUri("/tree/three-blocks.bin")));

    assertThat(tree.singleFile()).isTrue();
    assertThat(tree.files().get(0).blocks()).hasSize(3);
  }

  @Test
  void hostNamesAndAddressesNormalizeAlike() {
    assertThat(HostAddresses.normalize("localhost")).isEqualTo("127.0.0.1");
    assertThat(HostAddresses.normalize("127.0.0.1")).isEqualTo("127.0.0.1");
    assertThat(HostAddresses.normalize("Unresolvable-Host.invalid"))
        .isEqualTo("unresolvable-host.invalid");
    assertThat(List.of(HostAddresses.normalize("10.1.2.3"))).containsExactly("10.1.2.3");
  }
}
