package dev.relaycp.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.testkit.EmbeddedHdfs;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Where the writer's replicas land on a real HDFS of four datanodes. */
class HadoopChunkWriterOnHdfsTest {
  private static final int BLOCK = 1 << 20;

  static EmbeddedHdfs hdfs;
  static FileSystem fileSystem;

  @BeforeAll
  static void start() throws Exception {
    hdfs = EmbeddedHdfs.start("chunk-writer-hdfs", 4);
    fileSystem = hdfs.fileSystem();
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void theNameNodeListsEveryDatanodesTransferAddress() {
    List<DatanodeAddress> addresses = Datanodes.transferAddresses(fileSystem).orElseThrow();

    assertThat(addresses).hasSize(4).doesNotHaveDuplicates();
    assertThat(ports(addresses.stream().map(DatanodeAddress::toString).toList()))
        .isEqualTo(ports(hdfs.cluster().getDataNodes().stream()
            .map(datanode -> "dn:" + datanode.getXferPort()).toList()));
  }

  @Test
  void everyBlockGoesToTheFavoredDatanodes() throws Exception {
    List<DatanodeAddress> datanodes = Datanodes.transferAddresses(fileSystem).orElseThrow();
    HadoopChunkWriter writer = new HadoopChunkWriter(FileSystemOpener.of(fileSystem.getConf()));

    for (List<DatanodeAddress> favored : List.of(List.of(datanodes.get(3), datanodes.get(1)),
        List.of(datanodes.get(0), datanodes.get(2)), List.of(datanodes.get(2), datanodes.get(3)))) {
      String name = favored.stream()
          .map(datanode -> String.valueOf(datanode.port()))
          .collect(Collectors.joining("-"));
      URI file = fileSystem.makeQualified(new Path("/favored/" + name)).toUri();

      writer.write(ChunkTarget.file(file, (short) 2, BLOCK).favoring(favored),
          new ByteArrayInputStream(new byte[3 * BLOCK]), 3L * BLOCK);
      // A file is complete once each block has one replica; the NameNode hears of the second
      // from its datanode's next block report, which may come a moment later.
      DFSTestUtil.waitReplication(fileSystem, new Path(file), (short) 2);

      BlockLocation[] blocks =
          fileSystem.getFileBlockLocations(new Path(file), 0, Long.MAX_VALUE);
      assertThat(blocks).hasSize(3);
      for (BlockLocation block : blocks) {
        assertThat(ports(block)).as("block at %d of %s", block.getOffset(), file)
            .isEqualTo(ports(favored.stream().map(DatanodeAddress::toString).toList()));
      }
    }
  }

  /** The datanodes' transfer ports: every datanode of the embedded cluster has its own. */
  private static Set<String> ports(BlockLocation block) throws Exception {
    return ports(Arrays.asList(block.getNames()));
  }

  private static Set<String> ports(List<String> addresses) {
    Set<String> ports = new TreeSet<>();
    for (String address : addresses) {
      ports.add(address.substring(address.lastIndexOf(':') + 1));
    }
    return ports;
  }
}
