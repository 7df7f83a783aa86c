package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.testkit.DemoDataset;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A destination written with another checksum type than the source's could never verify: the
 * copy is refused before anything moves, naming the setting, where it used to fail after
 * every byte had moved with "run the copy again".
 */
class ChecksumTypeTest {
  static final long BLOCK = 256 * 1024;

  @RegisterExtension
  static final ClustersWithRelays fixture =
      ClustersWithRelays.of(1, BLOCK, 1, new Configuration());

  @BeforeAll
  static void writeData() throws IOException {
    DemoDataset.write(fixture.source(), new Path("/data"), BLOCK, 4, 3, 7);
  }

  /**
   * An earlier copy in this JVM opened the destination with the default checksum type; this
   * copy's own setting still decides what its probe writes.
   */
  @Test
  void aChecksumTypeGivenAfterTheDestinationWasOpenedWithAnotherStillCounts() throws IOException {
    FileSystem openedEarlier =
        FileSystemOpener.of(new Configuration()).open(fixture.destinationUri("/"));
    assertThat(openedEarlier.exists(new Path("/"))).isTrue();
    Configuration crc32 = new Configuration();
    crc32.set("dfs.checksum.type", "CRC32");
    FileSystemOpener opener = FileSystemOpener.of(new Configuration())
        .withCluster(fixture.destinationUri("/"), crc32);

    RelayCpException failure = catchThrowableOfType(() -> new CopyDriver(opener).copy(
            CopySettings.of(fixture.sourceUri("/data"),
                fixture.destinationUri("/copy-after-another"), false),
            fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE),
        RelayCpException.class);

    assertThat(failure).isNotNull();
    assertThat(failure.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(failure.getMessage())
        .contains("DST writes COMPOSITE-CRC32 checksums but SRC's are COMPOSITE-CRC32C");
    assertThat(openedEarlier.exists(new Path("/copy-after-another"))).isFalse();
  }

  @Test
  void aDestinationWritingCrc32UnderACrc32cSourceIsRefusedBeforeAnythingMoves()
      throws IOException {
    Configuration crc32 = new Configuration();
    crc32.set("dfs.checksum.type", "CRC32");
    FileSystemOpener opener = FileSystemOpener.of(crc32);

    RelayCpException failure = catchThrowableOfType(() -> new CopyDriver(opener).copy(
            CopySettings.of(fixture.sourceUri("/data"),
                fixture.destinationUri("/copy"), false),
            fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE),
        RelayCpException.class);

    assertThat(failure.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(failure.getMessage())
        .contains("DST writes COMPOSITE-CRC32 checksums but SRC's are COMPOSITE-CRC32C")
        .contains("dfs.checksum.type=CRC32C").doesNotContain("\n");
    FileSystem destination = opener.open(fixture.destinationUri("/"));
    assertThat(destination.exists(new Path("/copy"))).isFalse();
    assertThat(Arrays.stream(destination.listStatus(new Path("/")))
        .map(status -> status.getPath().getName())).noneMatch(name -> name.startsWith(".relaycp"));
  }
}
