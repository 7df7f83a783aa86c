package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.RelayMessage.Authenticated;
import dev.relaycp.relay.RelayMessage.Challenge;
import dev.relaycp.relay.RelayMessage.Proof;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first handler on every accepted connection (after TLS). It sends a fresh nonce and
 * expects, as the very next message, the client's proof of the transfer's secret for that
 * nonce and this connection's TLS binding ({@link RelayTls#binding}); it answers a right proof
 * with a proof of its own for both nonces and the binding, so that the client knows it
 * reached a relay of its transfer, and swaps itself for the session handler. Anything else (a
 * wrong proof, any other message, a malformed frame, more bytes than a handshake takes, or
 * silence past the timeout) closes the connection, so nothing an unauthenticated peer sends
 * ever reaches a FileSystem. At most {@link #MAX_UNAUTHENTICATED} connections per relay may
 * be authenticating at once; more are closed at once, which bounds what unauthenticated
 * peers can make a relay hold.
 */
final class ServerAuthenticationHandler extends SimpleChannelInboundHandler<RelayMessage> {
  private static final Logger LOG = LoggerFactory.getLogger(ServerAuthenticationHandler.class);

  private final TransferSecret secret;
  private final Supplier<ChannelHandler> sessionHandler;
  private final RelayCounters counters;
  private final long timeoutMillis;
  private byte[] nonce;
  private ScheduledFuture<?> timeout;

  ServerAuthenticationHandler(
      TransferSecret secret,
      Supplier<ChannelHandler> sessionHandler,
      RelayCounters counters,
      long timeoutMillis) {
    this.secret = requireNonNull(secret, "secret is null");
    this.sessionHandler = requireNonNull(sessionHandler, "sessionHandler is null");
    this.counters = requireNonNull(counters, "counters is null");
    this.timeoutMillis = timeoutMillis;
  }

  /** Connections a relay lets authenticate at once. */
  static final int MAX_UNAUTHENTICATED = 128;
  /** Bytes a connection may send before it is authenticated: a handshake takes a few hundred. */
  static final int MAX_UNAUTHENTICATED_BYTES = 16 * 1024;

  private boolean counted;
  private boolean rejected;

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    counted = true;
    if (counters.handshakeStarted() > MAX_UNAUTHENTICATED) {
      reject(ctx, "more than " + MAX_UNAUTHENTICATED + " connections are authenticating at once");
      return;
    }
    nonce = TransferSecret.newNonce();
    ctx.writeAndFlush(new Challenge(nonce));
    timeout = ctx.executor().schedule(
        () -> reject(ctx, "no proof within " + timeoutMillis + " ms"),
        timeoutMillis, TimeUnit.MILLISECONDS);
    ctx.read();
    ctx.fireChannelActive();
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
    if (!(message instanceof Proof proof)) {
      reject(ctx, "sent " + message.getClass().getSimpleName() + " before proving the secret");
      return;
    }
    byte[] binding = RelayTls.binding(ctx.channel(), true);
    if (!TransferSecret.same(secret.clientProof(nonce, binding), proof.mac())) {
      reject(ctx, "wrong secret (or a party in the middle of the connection)");
      return;
    }
    timeout.cancel(false);
    handshakeEnded();
    counters.connectionAccepted();
    if (ctx.pipeline().get(UnauthenticatedLimitHandler.class) != null) {
      ctx.pipeline().remove(UnauthenticatedLimitHandler.class);
    }
    ctx.pipeline().replace(this, "session", sessionHandler.get());
    ctx.writeAndFlush(new Authenticated(secret.relayProof(nonce, proof.nonce(), binding)));
    ctx.read();
  }

  private void handshakeEnded() {
    if (counted) {
      counted = false;
      counters.handshakeEnded();
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    reject(ctx, "unreadable handshake: " + cause.getMessage());
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    handshakeEnded();
    if (timeout != null) {
      timeout.cancel(false);
    }
    ctx.fireChannelInactive();
  }

  private void reject(ChannelHandlerContext ctx, String why) {
    // Once per connection, even if TLS has closed it already (a peer not speaking TLS).
    if (rejected) {
      return;
    }
    rejected = true;
    counters.connectionRejected();
    LOG.warn("Rejected connection from {}: {}", ctx.channel().remoteAddress(), why);
    ctx.close().addListener(ChannelFutureListener.CLOSE);
  }
}
