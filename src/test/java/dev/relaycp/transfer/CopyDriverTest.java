package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.bench.DemoDataset;
import dev.relaycp.bench.EmbeddedClusters;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CopyDriverTest {
  static final long BLOCK = 256 * 1024;
  static EmbeddedClusters clusters;
  static RelayFixture relays;
  static FileSystemOpener opener;
  static FileSystem source;
  static FileSystem destination;
  static List<String> files;

  @BeforeAll
  static void startClusters() throws IOException {
    clusters = EmbeddedClusters.start(2, BLOCK);
    opener = FileSystemOpener.of(new Configuration());
    relays = RelayFixture.start(2, new Configuration());
    source = opener.open(clusters.sourceUri("/"));
    destination = opener.open(clusters.destinationUri("/"));
    files = DemoDataset.write(source, new Path("/data"), BLOCK, 40, 9, 42);
  }

  @AfterAll
  static void stopClusters() {
    if (relays != null) {
      relays.close();
    }
    if (clusters != null) {
      clusters.close();
    }
  }

  CopyReport copy(String from, String to, boolean overwrite) {
    return new CopyDriver(opener).copy(
        CopySettings.of(clusters.sourceUri(from), clusters.destinationUri(to), overwrite),
        relays.routes, relays.secret, TransferProgress.Listener.NONE);
  }

  @Test
  void copiesEveryCaseByteForByteWithAttributes() throws IOException {
    CopyReport report = copy("/data", "/copy", false);

    assertThat(report.files()).isEqualTo(files.size());
    assertThat(report.allVerified()).isTrue();
    assertThat(report.verification()).hasSize(files.size());
    assertThat(report.chunks()).isGreaterThan(files.size());
    for (String file : files) {
      Path from = new Path("/data", file);
      Path to = new Path("/copy", file);
      assertThat(read(destination, to)).as(file).isEqualTo(read(source, from));
      FileStatus original = source.getFileStatus(from);
      FileStatus copied = destination.getFileStatus(to);
      assertThat(copied.getPermission()).as(file).isEqualTo(original.getPermission());
      assertThat(copied.getModificationTime()).as(file).isEqualTo(original.getModificationTime());
      assertThat(copied.getReplication()).as(file).isEqualTo(original.getReplication());
      assertThat(copied.getOwner()).as(file).isEqualTo(original.getOwner());
      assertThat(destination.getFileChecksum(to)).as(file)
          .isEqualTo(source.getFileChecksum(from));
    }
    assertThat(destination.getFileStatus(new Path("/copy/empty dir")).isDirectory()).isTrue();
    assertThat(destination.getFileStatus(new Path("/copy", DemoDataset.MULTI_BLOCK)).getLen())
        .isEqualTo(9 * BLOCK + 12_345);
    assertNoStaging();
  }

  @Test
  void existingTargetWithoutOverwriteNamesTheFileAndChangesNothing() throws IOException {
    destination.mkdirs(new Path("/occupied/big"));
    try (var out = destination.create(new Path("/occupied", DemoDataset.ONE_BLOCK))) {
      out.write(new byte[] {1, 2, 3});
    }

    assertThatThrownBy(() -> copy("/data", "/occupied", false))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("one-block.bin exists; pass --overwrite")
        .satisfies(e -> assertThat(((RelayCpException) e).code()).isEqualTo(ErrorCode.TARGET_EXISTS));
    assertThat(destination.getFileStatus(new Path("/occupied", DemoDataset.ONE_BLOCK)).getLen())
        .isEqualTo(3);
    assertThat(destination.exists(new Path("/occupied", DemoDataset.EMPTY))).isFalse();

    CopyReport report = copy("/data", "/occupied", true);
    assertThat(report.allVerified()).isTrue();
    assertThat(destination.getFileStatus(new Path("/occupied", DemoDataset.ONE_BLOCK)).getLen())
        .isEqualTo(BLOCK);
    assertNoStaging();
  }

  @Test
  void missingSourceIsAUserErrorAndCreatesNothing() throws IOException {
    assertThatThrownBy(() -> copy("/no/such/dir", "/never", false))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("does not exist")
        .satisfies(e -> assertThat(((RelayCpException) e).code())
            .isEqualTo(ErrorCode.SOURCE_NOT_FOUND));
    assertThat(destination.exists(new Path("/never"))).isFalse();
    assertNoStaging();
  }

  @Test
  void singleFileOntoAnExistingDirectoryLandsInside() throws IOException {
    destination.mkdirs(new Path("/single"));
    CopyReport report = copy("/data/" + DemoDataset.MULTI_BLOCK, "/single", false);
    assertThat(report.files()).isEqualTo(1);
    assertThat(read(destination, new Path("/single/multi-block.bin")))
        .isEqualTo(read(source, new Path("/data", DemoDataset.MULTI_BLOCK)));
  }

  static void assertNoStaging() throws IOException {
    FileStatus[] top = destination.listStatus(new Path("/"));
    assertThat(Arrays.stream(top).map(status -> status.getPath().getName()))
        .noneMatch(name -> name.startsWith(".relaycp-staging"));
  }

  static byte[] read(FileSystem fileSystem, Path path) throws IOException {
    try (InputStream in = fileSystem.open(path)) {
      return IOUtils.readFullyToByteArray(new java.io.DataInputStream(in));
    }
  }
}
