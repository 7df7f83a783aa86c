package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayMessage.Authenticated;
import dev.relaycp.relay.RelayMessage.Challenge;
import dev.relaycp.relay.RelayMessage.Proof;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.ssl.NotSslRecordException;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The client half of the handshake: answers the relay's challenge with its proof of the
 * secret for the relay's nonce and this connection's TLS binding, and a nonce of its own;
 * completes {@code authenticated} once the relay has proven the secret in turn (for both
 * nonces and the binding), then leaves the pipeline. If the relay closes the connection
 * instead, the secret was wrong (or the peer is no relay of this transfer), or the relay
 * stopped: a close says nothing more, so the failure names both.
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

  private byte[] relayNonce;
  private byte[] nonce;
  private byte[] binding;

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
    if (message instanceof Challenge challenge && relayNonce == null) {
      relayNonce = challenge.nonce();
      nonce = TransferSecret.newNonce();
      binding = RelayTls.binding(ctx.channel(), false);
      ctx.writeAndFlush(new Proof(secret.clientProof(relayNonce, binding), nonce));
    } else if (message instanceof Authenticated accepted && relayNonce != null) {
      if (!TransferSecret.same(secret.relayProof(relayNonce, nonce, binding), accepted.mac())) {
        fail(ctx, new RelayCpException(ErrorCode.RELAY_AUTHENTICATION_FAILED,
            "relay " + address + " could not prove the transfer's secret (another secret, or"
                + " something in the middle of the connection); give the driver and the relay"
                + " the same --secret-file"));
        return;
      }
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
        "relay " + address + " closed the connection during the handshake: it refused this"
            + " driver's secret, or it stopped; give the driver and the relay the same"
            + " --secret-file (and the same relaycp.relay.tls), and check that the relay runs"));
    ctx.fireChannelInactive();
  }

  /**
   * An I/O error (a reset, a broken pipe) means the relay or its host went away mid-handshake,
   * which a route survives by being dropped; anything else is a malformed exchange.
   */
  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof RelayCpException relay) {
      // The silence timeout (the relay stopped answering mid-handshake) keeps its own code.
      fail(ctx, relay);
    } else if (cause instanceof NotSslRecordException
        || cause.getCause() instanceof NotSslRecordException) {
      fail(ctx, new RelayCpException(ErrorCode.RELAY_AUTHENTICATION_FAILED,
          "relay " + address + " does not answer in TLS; start the relays and the driver with"
              + " the same relaycp.relay.tls (true by default)", cause));
    } else if (cause instanceof IOException) {
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
