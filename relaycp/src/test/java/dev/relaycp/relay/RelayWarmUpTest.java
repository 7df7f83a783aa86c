package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.config.RelayKeys;
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
  void sendsEveryByteThroughAPrivatePlaintextRelayEvenWhereTlsIsOnAndLeavesNoScratchFile()
      throws Exception {
    Configuration configuration = new Configuration();
    configuration.setBoolean(RelayKeys.RELAY_TLS.key(), true);
    long bytes = 3 * (1L << 20) + 5;

    RelayWarmUp.Result result = RelayWarmUp.run(
        RelaySettings.of("0.0.0.0", 0, secret, configuration), bytes, scratch);

    assertThat(result.bytesWritten()).isEqualTo(bytes);
    assertThat(result.chunksWritten()).isEqualTo(RelayWarmUp.CHUNKS);
    assertThat(result.tls()).isFalse();
    assertThat(configuration.getBoolean(RelayKeys.RELAY_TLS.key(), false))
        .as("the relay's own configuration is left as it was").isTrue();
    try (var left = Files.list(scratch)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aWarmUpThatCannotWriteItsScratchFilesFailsAndStartsNoRelay() {
    Path missing = scratch.resolve("missing");

    assertThatThrownBy(() -> RelayWarmUp.run(
            RelaySettings.of("127.0.0.1", 0, secret, new Configuration()), 1 << 20, missing))
        .isInstanceOf(java.nio.file.NoSuchFileException.class);
    assertThat(Files.exists(missing)).isFalse();
  }

  @Test
  void theHandshakeWithItselfIsAcceptedByTheRelaysOwnTlsListener() throws Exception {
    Configuration configuration = new Configuration();
    configuration.setBoolean(RelayKeys.RELAY_TLS.key(), true);
    try (RelayServer server =
        RelayServer.start(RelaySettings.of("0.0.0.0", 0, secret, configuration))) {
      RelayWarmUp.handshakeWithItself(server, secret);

      assertThat(server.tls()).isTrue();
      assertThat(server.counters().connectionsAccepted()).isEqualTo(1);
      assertThat(server.counters().connectionsRejected()).isZero();
    }
  }

  @Test
  void aRelayOfAnotherSecretRefusesTheHandshake() throws Exception {
    try (RelayServer server =
        RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, new Configuration()))) {
      assertThatThrownBy(() -> RelayWarmUp.handshakeWithItself(server, TransferSecret.generate()))
          .isInstanceOf(RelayCpException.class);
      assertThat(server.counters().connectionsAccepted()).isZero();
    }
  }
}
