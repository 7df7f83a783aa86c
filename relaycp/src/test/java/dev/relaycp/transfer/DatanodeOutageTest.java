package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.relaycp.error.RelayCpException;
import dev.relaycp.testkit.DemoDataset;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A destination whose every datanode is down: the copy fails with one line that carries
 * Hadoop's own reason, and leaves nothing at the destination.
 */
class DatanodeOutageTest {
  static final long BLOCK = 256 * 1024;

  @RegisterExtension
  static final ClustersWithRelays fixture =
      ClustersWithRelays.of(1, BLOCK, 1, new Configuration());

  @BeforeAll
  static void writeDataAndStopTheDestinationsDatanodes() throws IOException {
    DemoDataset.write(fixture.source(), new Path("/data"), BLOCK, 4, 3, 7);
    fixture.clusters().destination().shutdownDataNodes();
  }

  @Test
  void everyDestinationDatanodeDownFailsWithHadoopsReasonOnOneLine() throws IOException {
    RelayCpException failure = catchThrowableOfType(() -> new CopyDriver(fixture.opener()).copy(
            CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/copy"), false),
            fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE),
        RelayCpException.class);

    assertThat(failure).isNotNull();
    assertThat(failure.getMessage()).doesNotContain("\n").doesNotContain("Self-suppression")
        .contains("datanode");
    assertThat(fixture.destination().exists(new Path("/copy"))).isFalse();
  }
}
