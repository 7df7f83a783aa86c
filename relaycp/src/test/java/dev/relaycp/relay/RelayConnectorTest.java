package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RelayConnectorTest {
  private final TransferSecret secret = TransferSecret.generate();
  private final NioEventLoopGroup loop = new NioEventLoopGroup(1);
  private final List<Socket> clients = new ArrayList<>();

  @AfterEach
  void stop() throws IOException {
    for (Socket client : clients) {
      client.close();
    }
    loop.shutdownGracefully().syncUninterruptibly();
  }

  @Test
  void aRelayThatListensIsReachedAndAuthenticated() throws Exception {
    try (RelayServer relay =
        RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, new Configuration()))) {
      RelayConnection connection = RelayConnector.of(loop, secret).connectWaiting(
          RelayAddress.of("127.0.0.1", relay.localAddress().getPort()), ignoring(), 5, 100);

      assertThat(connection.isOpen()).isTrue();
      connection.close();
    }
  }

  /**
   * A host that has not booted drops the SYN, as a listener whose accept queue is full does.
   * Each waiting attempt gives up after a short connect timeout and starts afresh with a new
   * SYN, so the wait ends at its deadline; one attempt with TCP's whole 10 s connect timeout
   * would end it only after those 10 s, and would reach a relay that came up meanwhile only
   * at the SYN's next retransmission, up to 7 s late.
   */
  @Test
  void aHostThatDropsTheSynIsTriedAfreshAndGivenUpAtTheDeadline() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      fillAcceptQueue(silent);
      RelayConnector connector = RelayConnector.of(loop, secret);
      RelayAddress address = RelayAddress.of("127.0.0.1", silent.getLocalPort());

      long started = System.nanoTime();
      assertThatThrownBy(() -> connector.connectWaiting(address, ignoring(), 1, 100))
          .isInstanceOfSatisfying(RelayCpException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.RELAY_UNREACHABLE));
      double seconds = (System.nanoTime() - started) / 1e9;

      assertThat(seconds).as("seconds until a 1 s wait gave up").isLessThan(7.0);
    }
  }

  /** Connects clients nobody accepts until the listener's queue is full and drops SYNs. */
  private void fillAcceptQueue(ServerSocket listener) throws IOException {
    for (int i = 0; i < 16; i++) {
      Socket client = new Socket();
      clients.add(client);
      try {
        client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(),
            listener.getLocalPort()), 500);
      } catch (SocketTimeoutException full) {
        return;
      }
    }
    throw new IllegalStateException("the listener's accept queue never filled");
  }

  private static RelayConnection.Listener ignoring() {
    return new RelayConnection.Listener() {
      @Override
      public void onMessage(RelayMessage message) {
      }

      @Override
      public void onClosed(Throwable cause) {
      }
    };
  }
}
