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
 * The first handler on every accepted connection. It sends a fresh nonce and expects, as the
 * very next message, the HMAC of that nonce under the transfer's secret. A right proof swaps
 * this handler for the session handler; anything else (a wrong proof, any other message, a
 * malformed frame, or silence past the timeout) closes the connection, so nothing an
 * unauthenticated peer sends ever reaches a FileSystem.
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

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
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
    if (!secret.verifies(nonce, proof.mac())) {
      reject(ctx, "wrong secret");
      return;
    }
    timeout.cancel(false);
    counters.connectionAccepted();
    ctx.pipeline().replace(this, "session", sessionHandler.get());
    ctx.writeAndFlush(new Authenticated());
    ctx.read();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    reject(ctx, "unreadable handshake: " + cause.getMessage());
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (timeout != null) {
      timeout.cancel(false);
    }
    ctx.fireChannelInactive();
  }

  private void reject(ChannelHandlerContext ctx, String why) {
    if (!ctx.channel().isOpen()) {
      return;
    }
    counters.connectionRejected();
    LOG.warn("Rejected connection from {}: {}", ctx.channel().remoteAddress(), why);
    ctx.close().addListener(ChannelFutureListener.CLOSE);
  }
}
