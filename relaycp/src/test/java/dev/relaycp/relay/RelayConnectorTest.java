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

      double seconds = secondsUntilUnreachable(connector, address);

      assertThat(seconds).as("seconds until a 1 s wait gave up").isLessThan(7.0);
    }
  }

  /**
   * A relay that has taken the connection is up, only slow to answer (a fresh JVM's first
   * handshakes on busy cores): a short wait, such as a reader's for a writer it reached before,
   * does not give up on it half-way through the handshake. Here the relay's answer comes 3 s
   * after the connection, through a proxy that holds every byte until then, and the wait is 1 s.
   */
  @Test
  void aRelayThatTookTheConnectionIsWaitedForPastAShortWait() throws Exception {
    try (RelayServer relay =
            RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, new Configuration()));
        RecordingProxy proxy = new RecordingProxy(relay.localAddress().getPort(), 3_000)) {
      long started = System.nanoTime();
      RelayConnection connection = RelayConnector.of(loop, secret).connectWaiting(
          RelayAddress.of("127.0.0.1", proxy.port()), ignoring(), 1, 100);
      double seconds = (System.nanoTime() - started) / 1e9;

      assertThat(connection.isOpen()).isTrue();
      assertThat(seconds).as("seconds until the late relay was reached")
          .isGreaterThanOrEqualTo(3.0);
      connection.close();
    }
  }

  /**
   * A listener that takes the connection (the kernel completes it) and never answers, like a
   * stopped relay, is given up once it has been silent for the silence timeout, not waited for
   * the whole handshake timeout.
   */
  @Test
  void aListenerThatTakesTheConnectionAndNeverAnswersIsGivenUpAtTheSilenceTimeout()
      throws Exception {
    try (ServerSocket mute = new ServerSocket(0, 16, InetAddress.getLoopbackAddress())) {
      RelayConnector connector = RelayConnector.of(loop, secret).withSilenceTimeout(3_000);
      RelayAddress address = RelayAddress.of("127.0.0.1", mute.getLocalPort());

      double seconds = secondsUntilUnreachable(connector, address);

      assertThat(seconds).as("seconds until the mute listener was given up")
          .isBetween(2.5, 20.0);
    }
  }

  @Test
  void connectionsRunInTlsByDefaultSoAPartyInTheMiddleSeesNoPathOrData() throws Exception {
    String captured = sendOrderThroughProxy(new Configuration(), true);

    assertThat(captured).doesNotContain("private-path-8842");
  }

  @Test
  void withTlsOffOnBothEndsTheSameOrderCrossesInPlaintext() throws Exception {
    Configuration plaintext = new Configuration();
    plaintext.setBoolean("relaycp.relay.tls", false);

    String captured = sendOrderThroughProxy(plaintext, false);

    // The proxy here is the control: it would see the path if nothing hid it.
    assertThat(captured).contains("private-path-8842");
  }

  @Test
  void aDriverInTlsFailsAtOnceAgainstARelayWithoutItNamingTheSetting() throws Exception {
    Configuration plaintext = new Configuration();
    plaintext.setBoolean("relaycp.relay.tls", false);
    try (RelayServer relay =
        RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, plaintext))) {
      RelayAddress address = RelayAddress.of("127.0.0.1", relay.localAddress().getPort());

      assertThatThrownBy(() -> RelayConnector.of(loop, secret)
          .connectWaiting(address, ignoring(), 5, 100))
          .isInstanceOfSatisfying(RelayCpException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.RELAY_AUTHENTICATION_FAILED);
            assertThat(e).hasMessageContaining("relaycp.relay.tls");
          });
    }
  }

  /**
   * Sends one chunk order to a relay through a TCP proxy that records every byte both ways,
   * and returns what it recorded (as ISO-8859-1, byte for byte).
   */
  private String sendOrderThroughProxy(Configuration configuration, boolean tls)
      throws Exception {
    try (RelayServer relay =
            RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, configuration));
        RecordingProxy proxy = new RecordingProxy(relay.localAddress().getPort())) {
      java.util.concurrent.BlockingQueue<RelayMessage> answers =
          new java.util.concurrent.LinkedBlockingQueue<>();
      RelayConnection connection = RelayConnector.of(loop, secret).withTls(tls).connectWaiting(
          RelayAddress.of("127.0.0.1", proxy.port()), new RelayConnection.Listener() {
            @Override
            public void onMessage(RelayMessage message) {
              answers.add(message);
            }

            @Override
            public void onClosed(Throwable cause) {
            }
          }, 5, 100);
      connection.send(new RelayMessage.Transfer("nobody",
          java.net.URI.create("file:/tmp/private-path-8842/"),
          java.net.URI.create("file:/tmp/private-path-8842/"), new byte[0]));
      connection.send(new RelayMessage.ChunkOrder(1, java.net.URI.create(
              "file:/tmp/private-path-8842/none"), 0, 10,
          "127.0.0.1:" + relay.localAddress().getPort(),
          dev.relaycp.fs.ChunkTarget.file(java.net.URI.create("file:/tmp/private-path-8842/t"),
              (short) 1, 1 << 20))).sync();
      // The relay answers (it serves no local files) once the order has crossed the proxy.
      assertThat(answers.poll(30, java.util.concurrent.TimeUnit.SECONDS))
          .isInstanceOf(RelayMessage.ChunkFailed.class);
      connection.close();
      return proxy.recorded();
    }
  }

  /**
   * Forwards one TCP connection to a port on loopback and keeps every byte it carried; with a
   * delay, it takes the connection at once and forwards nothing until the delay has passed.
   */
  private static final class RecordingProxy implements AutoCloseable {
    private final ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    private final java.io.ByteArrayOutputStream seen = new java.io.ByteArrayOutputStream();
    private final List<Socket> sockets = new ArrayList<>();
    private final Thread acceptor;

    RecordingProxy(int target) throws IOException {
      this(target, 0);
    }

    RecordingProxy(int target, long delayMillis) throws IOException {
      acceptor = new Thread(() -> {
        try {
          Socket client = listener.accept();
          synchronized (sockets) {
            sockets.add(client);
          }
          Thread.sleep(delayMillis);
          Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
          synchronized (sockets) {
            sockets.add(server);
          }
          pump(client, server);
          pump(server, client);
        } catch (IOException | InterruptedException closed) {
          // The test is over.
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private void pump(Socket from, Socket to) {
      Thread pump = new Thread(() -> {
        byte[] buffer = new byte[8192];
        try {
          int read;
          while ((read = from.getInputStream().read(buffer)) > 0) {
            synchronized (seen) {
              seen.write(buffer, 0, read);
            }
            to.getOutputStream().write(buffer, 0, read);
          }
        } catch (IOException closed) {
          // Either end went away.
        }
      });
      pump.setDaemon(true);
      pump.start();
    }

    int port() {
      return listener.getLocalPort();
    }

    String recorded() {
      synchronized (seen) {
        return seen.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
      }
    }

    @Override
    public void close() throws IOException {
      listener.close();
      synchronized (sockets) {
        for (Socket socket : sockets) {
          socket.close();
        }
      }
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

  /** Seconds until a 1 s wait for {@code address} failed RELAY_UNREACHABLE, as it must. */
  private static double secondsUntilUnreachable(RelayConnector connector, RelayAddress address) {
    long started = System.nanoTime();
    assertThatThrownBy(() -> connector.connectWaiting(address, ignoring(), 1, 100))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.RELAY_UNREACHABLE));
    return (System.nanoTime() - started) / 1e9;
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
