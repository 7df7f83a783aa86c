package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * A relay that picks its own port takes one of relaycp.relay.port-range that is free (here
   * the middle of three, the others held by sockets of this test), and one that finds none free
   * says which range, so its container's stderr tells the driver.
   */
  @Test
  void aRelayThatPicksItsPortTakesAFreeOneOfTheRangeAndSaysWhenNoneIsLeft() throws IOException {
    List<ServerSocket> held = holdThreePortsButTheMiddle();
    try {
      int first = held.get(0).getLocalPort();
      Configuration configuration = new Configuration(false);
      configuration.set(RelayKeys.RELAY_PORT_RANGE.key(), first + "-" + (first + 2));
      RelaySettings settings = RelaySettings.of("127.0.0.1", 0, secret, configuration);

      try (RelayServer relay = RelayServer.start(settings)) {
        assertThat(relay.localAddress().getPort()).isEqualTo(first + 1);

        assertThatThrownBy(() -> RelayServer.start(settings))
            .isInstanceOfSatisfying(RelayCpException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
            .hasMessageContaining("relaycp.relay.port-range " + first + "-" + (first + 2))
            .hasMessageContaining("all 3 are in use");
      }
    } finally {
      for (ServerSocket socket : held) {
        socket.close();
      }
    }
  }

  /** Sockets on ports P and P + 2 of the loopback address, where P + 1 is free. */
  private static List<ServerSocket> holdThreePortsButTheMiddle() throws IOException {
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    for (int attempt = 0; attempt < 100; attempt++) {
      ServerSocket first = new ServerSocket(0, 50, loopback);
      int port = first.getLocalPort();
      try {
        if (port + 2 <= 65535) {
          new ServerSocket(port + 1, 50, loopback).close();
          ServerSocket third = new ServerSocket(port + 2, 50, loopback);
          return new ArrayList<>(List.of(first, third));
        }
      } catch (IOException inUse) {
        // Another port, then.
      }
      first.close();
    }
    throw new IOException("found no three ports with the middle one free");
  }
}
