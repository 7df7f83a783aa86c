package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.relay.RelayMessage.Authenticated;
import dev.relaycp.relay.RelayMessage.Challenge;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.EndOfChunk;
import dev.relaycp.relay.RelayMessage.Proof;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AuthenticationHandlerTest {
  private static final long TIMEOUT_MILLIS = 60_000;
  private static final RelayAddress RELAY = RelayAddress.of("relay.example.com", 7070);

  private final TransferSecret secret = TransferSecret.generate();
  private final RelayCounters counters = new RelayCounters();
  private final RecordingHandler session = new RecordingHandler();
  private final CountingSupplier sessions = new CountingSupplier(session);
  private final List<EmbeddedChannel> channels = new ArrayList<>();

  @AfterEach
  void releaseChannels() {
    for (EmbeddedChannel channel : channels) {
      channel.finishAndReleaseAll();
    }
  }

  private static final class RecordingHandler extends ChannelInboundHandlerAdapter {
    final List<Object> received = new ArrayList<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      received.add(message);
    }
  }

  private static final class CountingSupplier implements Supplier<ChannelHandler> {
    private final ChannelHandler handler;
    int calls;

    CountingSupplier(ChannelHandler handler) {
      this.handler = handler;
    }

    @Override
    public ChannelHandler get() {
      calls++;
      return handler;
    }
  }

  private EmbeddedChannel newServerChannel() {
    EmbeddedChannel channel = new EmbeddedChannel(
        new ServerAuthenticationHandler(secret, sessions, counters, TIMEOUT_MILLIS));
    channels.add(channel);
    return channel;
  }

  private EmbeddedChannel newClientChannel(CompletableFuture<Void> authenticated) {
    EmbeddedChannel channel = new EmbeddedChannel(
        new ClientAuthenticationHandler(secret, RELAY, authenticated));
    channels.add(channel);
    return channel;
  }

  private static byte[] challengeNonce(EmbeddedChannel channel) {
    Object first = channel.readOutbound();
    assertThat(first).isInstanceOf(Challenge.class);
    return ((Challenge) first).nonce();
  }

  private static ChunkOrder anOrder() {
    return new ChunkOrder(1L, URI.create("hdfs://nn:8020/f"), 0, 10, "writer:7070",
        ChunkTarget.file(URI.create("hdfs://dst:8020/f"), (short) 1, 1024));
  }

  private static Throwable failureOf(CompletableFuture<Void> future) {
    assertThat(future).isCompletedExceptionally();
    try {
      future.get();
      throw new AssertionError("future did not fail");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** Without TLS (an EmbeddedChannel), a connection's binding is empty. */
  private static final byte[] NO_BINDING = new byte[0];

  /** The right client proof for {@code relayNonce}, with a fresh client nonce. */
  private Proof clientProof(byte[] relayNonce) {
    return new Proof(secret.clientProof(relayNonce, NO_BINDING), TransferSecret.newNonce());
  }

  @Test
  void serverSendsAFreshChallengeWhenTheConnectionBecomesActive() {
    EmbeddedChannel first = newServerChannel();
    EmbeddedChannel second = newServerChannel();

    byte[] firstNonce = challengeNonce(first);
    byte[] secondNonce = challengeNonce(second);

    assertThat(firstNonce).hasSize(32);
    assertThat(secondNonce).hasSize(32).isNotEqualTo(firstNonce);
    assertThat(first.isOpen()).isTrue();
    assertThat(sessions.calls).isZero();
  }

  @Test
  void rightProofSwapsInTheSessionHandlerAndAnswersAuthenticated() {
    EmbeddedChannel channel = newServerChannel();
    byte[] nonce = challengeNonce(channel);

    channel.writeInbound(clientProof(nonce));

    assertThat((Object) channel.readOutbound()).isInstanceOf(Authenticated.class);
    assertThat(channel.isOpen()).isTrue();
    assertThat(sessions.calls).isEqualTo(1);
    assertThat(channel.pipeline().get("session")).isSameAs(session);
    assertThat(channel.pipeline().get(ServerAuthenticationHandler.class)).isNull();
    assertThat(counters.connectionsAccepted()).isEqualTo(1);
    assertThat(counters.connectionsRejected()).isZero();
    assertThat(session.received).isEmpty();
  }

  @Test
  void messagesAfterTheProofReachTheSessionHandler() {
    EmbeddedChannel channel = newServerChannel();
    channel.writeInbound(clientProof(challengeNonce(channel)));
    ChunkOrder order = anOrder();

    channel.writeInbound(order);

    assertThat(session.received).containsExactly(order);
  }

  @Test
  void wrongProofClosesTheChannelAndCountsARejection() {
    EmbeddedChannel channel = newServerChannel();
    byte[] nonce = challengeNonce(channel);

    channel.writeInbound(new Proof(TransferSecret.generate().clientProof(nonce, NO_BINDING),
        TransferSecret.newNonce()));

    assertThat(channel.isOpen()).isFalse();
    assertThat(counters.connectionsRejected()).isEqualTo(1);
    assertThat(counters.connectionsAccepted()).isZero();
    assertThat(sessions.calls).isZero();
    assertThat((Object) channel.readOutbound()).isNull();
  }

  @Test
  void proofForAnotherConnectionsNonceIsRejected() {
    EmbeddedChannel earlier = newServerChannel();
    byte[] earlierNonce = challengeNonce(earlier);
    EmbeddedChannel channel = newServerChannel();
    challengeNonce(channel);

    channel.writeInbound(clientProof(earlierNonce));

    assertThat(channel.isOpen()).isFalse();
    assertThat(counters.connectionsRejected()).isEqualTo(1);
    assertThat(sessions.calls).isZero();
  }

  @Test
  void otherMessageBeforeTheProofClosesTheChannelAndNeverReachesTheSession() {
    EmbeddedChannel channel = newServerChannel();
    challengeNonce(channel);

    channel.writeInbound(anOrder());

    assertThat(channel.isOpen()).isFalse();
    assertThat(counters.connectionsRejected()).isEqualTo(1);
    assertThat(sessions.calls).isZero();
    assertThat(session.received).isEmpty();
    assertThat((Object) channel.readInbound()).isNull();
  }

  @Test
  void exceptionDuringTheHandshakeClosesTheChannel() {
    EmbeddedChannel channel = newServerChannel();
    challengeNonce(channel);

    channel.pipeline().fireExceptionCaught(new IllegalStateException("bad frame"));

    assertThat(channel.isOpen()).isFalse();
    assertThat(counters.connectionsRejected()).isEqualTo(1);
    assertThat(sessions.calls).isZero();
  }

  @Test
  void silencePastTheTimeoutClosesTheChannel() {
    EmbeddedChannel channel = newServerChannel();
    challengeNonce(channel);

    // EmbeddedChannel's clock also runs with real time: leave a second for the test itself.
    channel.advanceTimeBy(TIMEOUT_MILLIS - 1_000, TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();
    assertThat(channel.isOpen()).isTrue();

    channel.advanceTimeBy(2_000, TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();

    assertThat(channel.isOpen()).isFalse();
    assertThat(counters.connectionsRejected()).isEqualTo(1);
  }

  @Test
  void timeoutDoesNotCloseAnAuthenticatedChannel() {
    EmbeddedChannel channel = newServerChannel();
    channel.writeInbound(clientProof(challengeNonce(channel)));

    channel.advanceTimeBy(TIMEOUT_MILLIS * 2, TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();

    assertThat(channel.isOpen()).isTrue();
    assertThat(counters.connectionsRejected()).isZero();
  }

  @Test
  void clientAnswersAChallengeWithTheHmacProof() {
    CompletableFuture<Void> authenticated = new CompletableFuture<>();
    EmbeddedChannel channel = newClientChannel(authenticated);
    byte[] nonce = TransferSecret.newNonce();

    channel.writeInbound(new Challenge(nonce));

    Object answer = channel.readOutbound();
    assertThat(answer).isInstanceOf(Proof.class);
    assertThat(((Proof) answer).mac()).isEqualTo(secret.clientProof(nonce, NO_BINDING));
    assertThat(((Proof) answer).mac()).isNotEqualTo(secret.prove(nonce));
    assertThat(((Proof) answer).nonce()).hasSize(32);
    assertThat(authenticated).isNotDone();
  }

  @Test
  void clientCompletesOnTheRelaysProofAndLeavesThePipeline() {
    CompletableFuture<Void> authenticated = new CompletableFuture<>();
    EmbeddedChannel channel = newClientChannel(authenticated);
    byte[] relayNonce = TransferSecret.newNonce();
    channel.writeInbound(new Challenge(relayNonce));
    Proof proof = channel.readOutbound();

    channel.writeInbound(new Authenticated(
        secret.relayProof(relayNonce, proof.nonce(), NO_BINDING)));

    assertThat(authenticated).isCompleted().isNotCompletedExceptionally();
    assertThat(channel.pipeline().get(ClientAuthenticationHandler.class)).isNull();
    assertThat(channel.isOpen()).isTrue();
  }

  @Test
  void aRelayThatCannotProveTheSecretIsRefusedByTheClient() {
    CompletableFuture<Void> authenticated = new CompletableFuture<>();
    EmbeddedChannel channel = newClientChannel(authenticated);
    byte[] relayNonce = TransferSecret.newNonce();
    channel.writeInbound(new Challenge(relayNonce));
    Proof proof = channel.readOutbound();

    // A relay that passes the client's own proof back, or proves another secret.
    channel.writeInbound(new Authenticated(proof.mac()));

    Throwable failure = failureOf(authenticated);
    assertThat(((RelayCpException) failure).code())
        .isEqualTo(ErrorCode.RELAY_AUTHENTICATION_FAILED);
    assertThat(failure).hasMessageContaining("could not prove the transfer's secret");
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void theRelaysAnswerProvesTheSecretForBothNonces() {
    EmbeddedChannel channel = newServerChannel();
    byte[] relayNonce = challengeNonce(channel);
    byte[] clientNonce = TransferSecret.newNonce();

    channel.writeInbound(new Proof(secret.clientProof(relayNonce, NO_BINDING), clientNonce));

    Authenticated answer = channel.readOutbound();
    assertThat(answer.mac())
        .isEqualTo(secret.relayProof(relayNonce, clientNonce, NO_BINDING))
        .isNotEqualTo(TransferSecret.generate().relayProof(relayNonce, clientNonce, NO_BINDING));
  }

  @Test
  void aPeerSendingMoreThanAHandshakeBeforeAuthenticatingIsClosed() {
    EmbeddedChannel channel = new EmbeddedChannel(
        new UnauthenticatedLimitHandler(ServerAuthenticationHandler.MAX_UNAUTHENTICATED_BYTES),
        FrameCodec.newFrameDecoder(), new FrameCodec(), new MessageCodec(),
        new ServerAuthenticationHandler(secret, sessions, counters, TIMEOUT_MILLIS));
    channels.add(channel);
    // The first bytes of one frame that claims almost the largest payload.
    ByteBuf start = Unpooled.buffer().writeInt(FrameCodec.MAX_PAYLOAD_BYTES).writeByte(1)
        .writeZero(8 * 1024);
    channel.writeInbound(start);
    assertThat(channel.isOpen()).isTrue();

    channel.writeInbound(Unpooled.buffer().writeZero(9 * 1024));

    assertThat(channel.isOpen()).isFalse();
    assertThat(sessions.calls).isZero();
  }

  @Test
  void connectionsBeyondTheCapOfThoseAuthenticatingAreClosedAtOnce() {
    for (int open = 0; open < ServerAuthenticationHandler.MAX_UNAUTHENTICATED; open++) {
      assertThat(newServerChannel().isOpen()).isTrue();
    }

    EmbeddedChannel oneTooMany = newServerChannel();

    assertThat(oneTooMany.isOpen()).isFalse();
    assertThat(counters.connectionsRejected()).isEqualTo(1);
    // One that authenticates makes room again.
    channels.get(0).writeInbound(clientProof(challengeNonce(channels.get(0))));
    assertThat(newServerChannel().isOpen()).isTrue();
  }

  @Test
  void clientFailsWithAuthenticationFailedWhenTheRelayClosesFirst() {
    CompletableFuture<Void> authenticated = new CompletableFuture<>();
    EmbeddedChannel channel = newClientChannel(authenticated);
    channel.writeInbound(new Challenge(TransferSecret.newNonce()));

    channel.close();

    Throwable failure = failureOf(authenticated);
    assertThat(failure).isInstanceOf(RelayCpException.class);
    assertThat(((RelayCpException) failure).code())
        .isEqualTo(ErrorCode.RELAY_AUTHENTICATION_FAILED);
    assertThat(failure).hasMessageContaining(RELAY.toString());
  }

  @Test
  void clientFailsWithProtocolErrorOnAnUnexpectedMessageAndCloses() {
    CompletableFuture<Void> authenticated = new CompletableFuture<>();
    EmbeddedChannel channel = newClientChannel(authenticated);

    channel.writeInbound(new EndOfChunk(1L, 1L));

    Throwable failure = failureOf(authenticated);
    assertThat(((RelayCpException) failure).code()).isEqualTo(ErrorCode.PROTOCOL_ERROR);
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void clientFailsWithRelayUnreachableWhenTheConnectionBreaksMidHandshake() {
    CompletableFuture<Void> authenticated = new CompletableFuture<>();
    EmbeddedChannel channel = newClientChannel(authenticated);
    channel.writeInbound(new Challenge(TransferSecret.newNonce()));

    channel.pipeline().fireExceptionCaught(new java.net.SocketException("Connection reset"));

    Throwable failure = failureOf(authenticated);
    assertThat(((RelayCpException) failure).code()).isEqualTo(ErrorCode.RELAY_UNREACHABLE);
    assertThat(failure).hasMessageContaining("Connection reset").hasMessageContaining(RELAY.toString());
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void clientAndServerHandlersAuthenticateEachOther() {
    CompletableFuture<Void> authenticated = new CompletableFuture<>();
    EmbeddedChannel server = newServerChannel();
    EmbeddedChannel client = newClientChannel(authenticated);

    client.writeInbound((Object) server.readOutbound());
    server.writeInbound((Object) client.readOutbound());
    client.writeInbound((Object) server.readOutbound());

    assertThat(authenticated).isCompleted().isNotCompletedExceptionally();
    assertThat(server.pipeline().get("session")).isSameAs(session);
    assertThat(counters.connectionsAccepted()).isEqualTo(1);
  }

  @Test
  void proofFrameWithTrailingBytesDoesNotAuthenticate() {
    EmbeddedChannel channel = new EmbeddedChannel(FrameCodec.newFrameDecoder(), new FrameCodec(),
        new MessageCodec(),
        new ServerAuthenticationHandler(secret, sessions, counters, TIMEOUT_MILLIS));
    channels.add(channel);
    EmbeddedChannel decoder = new EmbeddedChannel(
        FrameCodec.newFrameDecoder(), new FrameCodec(), new MessageCodec());
    channels.add(decoder);
    ByteBuf challengeBytes = Unpooled.buffer();
    ByteBuf part;
    while ((part = channel.readOutbound()) != null) {
      challengeBytes.writeBytes(part);
      part.release();
    }
    decoder.writeInbound(challengeBytes);
    byte[] mac = secret.clientProof(((Challenge) decoder.readInbound()).nonce(), NO_BINDING);
    byte[] clientNonce = TransferSecret.newNonce();
    ByteBuf payload = Unpooled.buffer().writeInt(mac.length).writeBytes(mac)
        .writeInt(clientNonce.length).writeBytes(clientNonce).writeByte(0);
    EmbeddedChannel framer = new EmbeddedChannel(new FrameCodec());
    channels.add(framer);
    framer.writeOutbound(Frame.of(FrameType.PROOF, payload));
    ByteBuf proofBytes = Unpooled.buffer();
    while ((part = framer.readOutbound()) != null) {
      proofBytes.writeBytes(part);
      part.release();
    }

    channel.writeInbound(proofBytes);

    assertThat(channel.isOpen()).isFalse();
    assertThat(sessions.calls).isZero();
    assertThat(counters.connectionsAccepted()).isZero();
    assertThat(counters.connectionsRejected()).isEqualTo(1);
  }
}
