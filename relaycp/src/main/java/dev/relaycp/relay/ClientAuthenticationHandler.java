package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayMessage.Authenticated;
import dev.relaycp.relay.RelayMessage.Challenge;
import dev.relaycp.relay.RelayMessage.Proof;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The client half of the handshake: answers the relay's challenge with the proof and
 * completes {@code authenticated} when the relay accepts it, then leaves the pipeline. If the
 * relay closes the connection instead, the secret was wrong (or the peer is no relay).
 */
final class ClientAuthenticationHandler extends SimpleChannelInboundHandler<RelayMessage> {
  private final TransferSecret secret;
  private final RelayAddress address;
  private final CompletableFuture<Void> authenticated;

  ClientAuthenticationHandler(
      TransferSecret secret, RelayAddress address, CompletableFuture<Void> authenticated) {
    this.secret = requireNonNull(secret, "secret is null");
    this.address = requireNonNull(address, "address is null");
    this.authenticated = requireNonNull(authenticated, "authenticated is null");
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
    if (message instanceof Challenge challenge) {
      ctx.writeAndFlush(new Proof(secret.prove(challenge.nonce())));
    } else if (message instanceof Authenticated) {
      ctx.pipeline().remove(this);
      authenticated.complete(null);
    } else {
      fail(ctx, new RelayCpException(ErrorCode.PROTOCOL_ERROR,
          "relay " + address + " sent " + message.getClass().getSimpleName()
              + " during the handshake"));
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    fail(ctx, new RelayCpException(ErrorCode.RELAY_AUTHENTICATION_FAILED,
        "relay " + address + " closed the connection during the handshake; "
            + "give the driver and the relay the same --secret-file"));
    ctx.fireChannelInactive();
  }

  /**
   * An I/O error (a reset, a broken pipe) means the relay or its host went away mid-handshake,
   * which a route survives by being dropped; anything else is a malformed exchange.
   */
  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof IOException) {
      fail(ctx, new RelayCpException(ErrorCode.RELAY_UNREACHABLE,
          "connection to relay " + address + " broke during the handshake (" + cause.getMessage()
              + "); check that the relay still runs", cause));
    } else {
      fail(ctx, new RelayCpException(ErrorCode.PROTOCOL_ERROR,
          "handshake with relay " + address + " failed: " + cause.getMessage(), cause));
    }
  }

  private void fail(ChannelHandlerContext ctx, RelayCpException failure) {
    if (authenticated.completeExceptionally(failure)) {
      ctx.close();
    }
  }
}
