package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.Transfer;
import dev.relaycp.relay.RelayMessage.WriteChunk;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the first requests of an authenticated connection: TRANSFER, which registers the
 * transfer its orders belong to (see {@link TransferScope}), then the first order, which says
 * what the peer is: a driver sending SEND_CHUNK (this relay reads) or a reader relay sending
 * WRITE_CHUNK (this relay writes). It then replaces itself with that role's handler and passes
 * the order on. The transfer's scope is given back when the connection closes.
 */
final class RelayRoleHandler extends SimpleChannelInboundHandler<RelayMessage> {
  private static final Logger LOG = LoggerFactory.getLogger(RelayRoleHandler.class);

  private final TransferScopes scopes;
  private final Function<TransferScope, ChannelHandler> readerRole;
  private final Function<TransferScope, ChannelHandler> writerRole;
  private TransferScope scope;

  RelayRoleHandler(TransferScopes scopes,
      Function<TransferScope, ChannelHandler> readerRole,
      Function<TransferScope, ChannelHandler> writerRole) {
    super(false);
    this.scopes = requireNonNull(scopes, "scopes is null");
    this.readerRole = requireNonNull(readerRole, "readerRole is null");
    this.writerRole = requireNonNull(writerRole, "writerRole is null");
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
    if (scope == null) {
      if (message instanceof Transfer transfer) {
        TransferScope registered = scopes.acquire(transfer);
        scope = registered;
        ctx.channel().closeFuture().addListener(closed -> scopes.release(registered));
        ctx.read();
      } else {
        refuse(ctx, message, "it began with " + message.getClass().getSimpleName()
            + ", not TRANSFER");
      }
      return;
    }
    ChannelHandler role;
    if (message instanceof ChunkOrder) {
      role = readerRole.apply(scope);
    } else if (message instanceof WriteChunk) {
      role = writerRole.apply(scope);
    } else {
      refuse(ctx, message, "its first order was " + message.getClass().getSimpleName());
      return;
    }
    ctx.pipeline().replace(this, "role", role);
    // The replaced context forwards to its replacement, so the request reaches the role.
    ctx.fireChannelRead(message);
  }

  private static void refuse(ChannelHandlerContext ctx, RelayMessage message, String why) {
    LOG.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), why);
    ReferenceCountUtil.release(message);
    ctx.close();
  }
}
