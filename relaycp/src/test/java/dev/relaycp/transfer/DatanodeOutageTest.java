package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A destination whose every datanode is down: the copy fails with one line that carries
 * Hadoop's own reason, and leaves nothing at the destination.
 */
class DatanodeOutageTest {
  static final long BLOCK = 256 * 1024;
  static EmbeddedClusters clusters;
  static RelayFixture relays;
  static FileSystemOpener opener;

  @BeforeAll
  static void start() throws IOException {
    clusters = EmbeddedClusters.start(1, BLOCK);
    opener = FileSystemOpener.of(new Configuration());
    relays = RelayFixture.start(1, new Configuration());
    FileSystem source = opener.open(clusters.sourceUri("/"));
    DemoDataset.write(source, new Path("/data"), BLOCK, 4, 3, 7);
    clusters.destination().shutdownDataNodes();
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
  void everyDestinationDatanodeDownFailsWithHadoopsReasonOnOneLine() throws IOException {
    RelayCpException failure = catchThrowableOfType(() -> new CopyDriver(opener).copy(
            CopySettings.of(clusters.sourceUri("/data"), clusters.destinationUri("/copy"), false),
            relays.routes, relays.secret, TransferProgress.Listener.NONE),
        RelayCpException.class);

    assertThat(failure).isNotNull();
    assertThat(failure.getMessage()).doesNotContain("\n").doesNotContain("Self-suppression")
        .contains("datanode");
    assertThat(opener.open(clusters.destinationUri("/")).exists(new Path("/copy"))).isFalse();
  }
}
