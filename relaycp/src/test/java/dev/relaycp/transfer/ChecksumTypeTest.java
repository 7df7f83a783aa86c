package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A destination written with another checksum type than the source's could never verify: the
 * copy is refused before anything moves, naming the setting, where it used to fail after
 * every byte had moved with "run the copy again".
 */
class ChecksumTypeTest {
  static final long BLOCK = 256 * 1024;
  static EmbeddedClusters clusters;
  static RelayFixture relays;

  @BeforeAll
  static void start() throws IOException {
    clusters = EmbeddedClusters.start(1, BLOCK);
    relays = RelayFixture.start(1, new Configuration());
    FileSystem source = FileSystemOpener.of(new Configuration()).open(clusters.sourceUri("/"));
    DemoDataset.write(source, new Path("/data"), BLOCK, 4, 3, 7);
  }

  @AfterAll
  static void stop() {
    if (relays != null) {
      relays.close();
    }
    if (clusters != null) {
      clusters.close();
    }
  }

  @Test
  void aDestinationWritingCrc32UnderACrc32cSourceIsRefusedBeforeAnythingMoves()
      throws IOException {
    Configuration crc32 = new Configuration();
    crc32.set("dfs.checksum.type", "CRC32");
    FileSystemOpener opener = FileSystemOpener.of(crc32);

    RelayCpException failure = catchThrowableOfType(() -> new CopyDriver(opener).copy(
            CopySettings.of(clusters.sourceUri("/data"), clusters.destinationUri("/copy"), false),
            relays.routes, relays.secret, TransferProgress.Listener.NONE),
        RelayCpException.class);

    assertThat(failure.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(failure.getMessage())
        .contains("DST writes COMPOSITE-CRC32 checksums but SRC's are COMPOSITE-CRC32C")
        .contains("dfs.checksum.type=CRC32C").doesNotContain("\n");
    FileSystem destination = opener.open(clusters.destinationUri("/"));
    assertThat(destination.exists(new Path("/copy"))).isFalse();
    assertThat(Arrays.stream(destination.listStatus(new Path("/")))
        .map(status -> status.getPath().getName())).noneMatch(name -> name.startsWith(".relaycp"));
  }
}
