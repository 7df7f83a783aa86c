package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class RelayServerTest {
  private final TransferSecret secret = TransferSecret.generate();

  @Test
  void aPortInUseIsAUserErrorNamingThePortAndTheFix() {
    try (RelayServer first =
        RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, new Configuration()))) {
      int taken = first.localAddress().getPort();

      assertThatThrownBy(() -> RelayServer.start(
              RelaySettings.of("127.0.0.1", taken, secret, new Configuration())))
          .isInstanceOfSatisfying(RelayCpException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessageContaining("127.0.0.1:" + taken)
          .hasMessageContaining("choose a free --port");
    }
  }
}
