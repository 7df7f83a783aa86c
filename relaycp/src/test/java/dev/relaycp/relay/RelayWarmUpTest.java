package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.RelayCpException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayWarmUpTest {
  @TempDir Path scratch;

  private final TransferSecret secret = TransferSecret.generate();

  @Test
  void sendsEveryByteThroughTheRelaysOwnReaderAndWriterAndLeavesNoScratchFile()
      throws Exception {
    try (RelayServer server =
        RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, new Configuration()))) {
      long bytes = 3 * (1L << 20) + 5;

      RelayWarmUp.run(server, secret, bytes, scratch);

      assertThat(server.counters().chunksRead()).isEqualTo(RelayWarmUp.CHUNKS);
      assertThat(server.counters().chunksWritten()).isEqualTo(RelayWarmUp.CHUNKS);
      assertThat(server.counters().bytesWritten()).isEqualTo(bytes);
      try (var left = Files.list(scratch)) {
        assertThat(left).isEmpty();
      }
    }
  }

  @Test
  void aRelayThatRefusesTheSecretFailsTheWarmUpAndLeavesNoScratchFile() throws Exception {
    try (RelayServer server =
        RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, new Configuration()))) {
      assertThatThrownBy(() ->
              RelayWarmUp.run(server, TransferSecret.generate(), 1 << 20, scratch))
          .isInstanceOf(RelayCpException.class);
      assertThat(server.counters().chunksWritten()).isZero();
      try (var left = Files.list(scratch)) {
        assertThat(left).isEmpty();
      }
    }
  }
}
