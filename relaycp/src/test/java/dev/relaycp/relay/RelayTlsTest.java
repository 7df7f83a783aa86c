package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.RelayCpException;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The cipher two relay ends agree on, over real loopback connections. */
class RelayTlsTest {
  private static EventLoopGroup loops;
  private static final RelayTls FAST = RelayTls.create(true, false);
  private static final RelayTls SLOW = RelayTls.create(false, false);

  @BeforeAll
  static void start() {
    loops = new NioEventLoopGroup(2);
  }

  @AfterAll
  static void stop() {
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void twoEndsThatRunAesFastUseAesGcm() throws Exception {
    assertThat(negotiated(FAST, FAST)).isEqualTo(RelayTls.AES_128_GCM);
  }

  @Test
  void aClientWithoutFastAesGetsChaChaFromAServerWithIt() throws Exception {
    assertThat(negotiated(SLOW, FAST)).isEqualTo(RelayTls.CHACHA20_POLY1305);
  }

  @Test
  void aServerWithoutFastAesChoosesChaChaForAClientWithIt() throws Exception {
    assertThat(negotiated(FAST, SLOW)).isEqualTo(RelayTls.CHACHA20_POLY1305);
  }

  @Test
  void twoEndsWithoutFastAesUseChaCha() throws Exception {
    assertThat(negotiated(SLOW, SLOW)).isEqualTo(RelayTls.CHACHA20_POLY1305);
  }

  @Test
  void tlsLeavesTheHandshakesDeadlineToTheRelayAndTheDriver() throws Exception {
    List<Long> deadlines = connected(FAST, FAST, (channel, accepted) -> List.of(
        channel.pipeline().get(SslHandler.class).getHandshakeTimeoutMillis(),
        accepted.pipeline().get(SslHandler.class).getHandshakeTimeoutMillis()));

    assertThat(deadlines).containsExactly(0L, 0L);
  }

  @Test
  void thisJvmRunsAesFastUnlessC2IsOff() {
    // The test JVM runs the default tiered JIT; on a CPU with AES-NI that is the fast case.
    boolean c1Only = java.lang.management.ManagementFactory.getRuntimeMXBean()
        .getInputArguments().stream().anyMatch(argument ->
            argument.startsWith("-XX:TieredStopAtLevel=") && !argument.endsWith("=4"));
    if (c1Only) {
      assertThat(RelayTls.runsAesFast()).isFalse();
    }
    assertThat(RelayTls.get().openSsl()).isEqualTo(RelayTls.runsOpenSsl());
    if (!RelayTls.get().openSsl()) {
      assertThat(RelayTls.get().fastAes()).isEqualTo(RelayTls.runsAesFast());
    }
  }

  @Test
  void onLinuxTheProductsOpenSslBindingLoads() {
    Assumptions.assumeTrue(System.getProperty("os.name").equals("Linux")
            && List.of("amd64", "aarch64").contains(System.getProperty("os.arch")),
        "the product carries BoringSSL for Linux on x86-64 and ARM64 only");
    assertThat(RelayTls.runsOpenSsl()).as("netty-tcnative-boringssl-static loads").isTrue();
    assertThat(RelayTls.get().openSsl()).isTrue();
  }

  @Test
  void twoOpenSslEndsSealInNativeCodeAndAgreeOnTheBinding() throws Exception {
    Assumptions.assumeTrue(RelayTls.runsOpenSsl(), "Netty's OpenSSL binding does not load here");
    RelayTls openSsl = RelayTls.create(false, true);
    List<Object> seen = connected(openSsl, openSsl, (channel, accepted) -> List.of(
        channel.pipeline().get(SslHandler.class).engine().getClass().getSimpleName(),
        channel.pipeline().get(SslHandler.class).engine().getSession().getCipherSuite(),
        HexFormat.of().formatHex(RelayTls.binding(channel, false)),
        HexFormat.of().formatHex(RelayTls.binding(accepted, true))));

    assertThat((String) seen.get(0)).contains("OpenSsl");
    // BoringSSL takes AES-GCM on a CPU with AES instructions, ChaCha20-Poly1305 without.
    assertThat(seen.get(1)).isIn(RelayTls.AES_128_GCM, RelayTls.CHACHA20_POLY1305);
    assertThat((String) seen.get(2)).hasSize(64).isEqualTo(seen.get(3));
  }

  @Test
  void anOpenSslEndAndAJavaEndWithoutFastAesUseChaChaEitherWay() throws Exception {
    Assumptions.assumeTrue(RelayTls.runsOpenSsl(), "Netty's OpenSSL binding does not load here");
    RelayTls openSsl = RelayTls.create(false, true);

    assertThat(negotiated(SLOW, openSsl)).isEqualTo(RelayTls.CHACHA20_POLY1305);
    assertThat(negotiated(openSsl, SLOW)).isEqualTo(RelayTls.CHACHA20_POLY1305);
    List<String> bindings = connected(openSsl, SLOW, (channel, accepted) -> List.of(
        HexFormat.of().formatHex(RelayTls.binding(channel, false)),
        HexFormat.of().formatHex(RelayTls.binding(accepted, true))));
    assertThat(bindings.get(0)).isEqualTo(bindings.get(1));
  }

  @Test
  void endsMadeFromTheDriversIdentityShowItsCertificateAndAgreeOnTheBinding() throws Exception {
    TlsIdentity driver = TlsIdentity.generate();
    TlsIdentity shipped = TlsIdentity.decode(driver.encodedKey(), driver.encodedCertificate());
    List<RelayTls> ends = new ArrayList<>(
        List.of(RelayTls.create(false, false, Optional.of(shipped))));
    if (RelayTls.runsOpenSsl()) {
      ends.add(RelayTls.create(false, true, Optional.of(shipped)));
    }

    for (RelayTls relay : ends) {
      List<Object> seen = connected(RelayTls.create(false, false, Optional.of(driver)), relay,
          (channel, accepted) -> List.of(
              accepted.pipeline().get(SslHandler.class).engine().getSession()
                  .getLocalCertificates()[0],
              peerCertificate(channel),
              HexFormat.of().formatHex(RelayTls.binding(channel, false)),
              HexFormat.of().formatHex(RelayTls.binding(accepted, true))));

      assertThat(seen.get(0)).isEqualTo(driver.certificate());
      assertThat(seen.get(1)).isEqualTo(driver.certificate());
      assertThat((String) seen.get(2)).hasSize(64).isEqualTo(seen.get(3));
    }
  }

  @Test
  void anIdentityComesOnlyFromAnEcKeyAndACertificateThatDecode() throws Exception {
    TlsIdentity identity = TlsIdentity.generate();

    assertThatThrownBy(() -> TlsIdentity.decode(new byte[] {0x30, 0x01},
        identity.encodedCertificate()))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("do not decode");
    assertThatThrownBy(() -> TlsIdentity.decode(identity.encodedKey(), new byte[] {0x30}))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("do not decode");
  }

  private static Certificate peerCertificate(Channel channel) {
    try {
      return channel.pipeline().get(SslHandler.class).engine().getSession()
          .getPeerCertificates()[0];
    } catch (SSLPeerUnverifiedException e) {
      throw new AssertionError("the handshake is done, so the peer is known", e);
    }
  }

  /** The suite a client of {@code client} and a server of {@code server} agree on. */
  private static String negotiated(RelayTls client, RelayTls server) throws Exception {
    return connected(client, server, (channel, accepted) ->
        channel.pipeline().get(SslHandler.class).engine().getSession().getCipherSuite());
  }

  /**
   * What {@code check} reads of a loopback connection from a client of {@code client} to a
   * server of {@code server} once its TLS handshake is done: the client's channel and the one
   * the server accepted.
   */
  private static <T> T connected(RelayTls client, RelayTls server,
      BiFunction<Channel, Channel, T> check) throws Exception {
    CompletableFuture<Channel> accepted = new CompletableFuture<>();
    Channel listener = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            server.addServer(channel);
            accepted.complete(channel);
          }
        })
        .bind("127.0.0.1", 0).sync().channel();
    try {
      Channel channel = new Bootstrap().group(loops).channel(NioSocketChannel.class)
          .handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel channel) {
              client.addClient(channel);
            }
          })
          .connect((InetSocketAddress) listener.localAddress()).sync().channel();
      try {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        assertThat(tls.handshakeFuture().await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(tls.handshakeFuture().isSuccess()).as("%s", tls.handshakeFuture().cause())
            .isTrue();
        // In TLS 1.3 the client is done before the server has read the client's certificate.
        Channel serverSide = accepted.get(10, TimeUnit.SECONDS);
        SslHandler serverTls = serverSide.pipeline().get(SslHandler.class);
        assertThat(serverTls.handshakeFuture().await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(serverTls.handshakeFuture().isSuccess())
            .as("%s", serverTls.handshakeFuture().cause()).isTrue();
        return check.apply(channel, serverSide);
      } finally {
        channel.close().sync();
      }
    } finally {
      listener.close().sync();
    }
  }
}
