package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.WriteChunk;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, from the first request on an authenticated connection, what the peer is: a driver
 * sending SEND_CHUNK orders (this relay reads) or a reader relay sending WRITE_CHUNK (this
 * relay writes). It then replaces itself with that role's handler and passes the request on.
 */
final class RelayRoleHandler extends SimpleChannelInboundHandler<RelayMessage> {
  private static final Logger LOG = LoggerFactory.getLogger(RelayRoleHandler.class);

  private final Supplier<ChannelHandler> readerRole;
  private final Supplier<ChannelHandler> writerRole;

  RelayRoleHandler(Supplier<ChannelHandler> readerRole, Supplier<ChannelHandler> writerRole) {
    super(false);
    this.readerRole = requireNonNull(readerRole, "readerRole is null");
    this.writerRole = requireNonNull(writerRole, "writerRole is null");
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
    ChannelHandler role;
    if (message instanceof ChunkOrder) {
      role = readerRole.get();
    } else if (message instanceof WriteChunk) {
      role = writerRole.get();
    } else {
      LOG.warn("Closing connection from {}: it began with {}", ctx.channel().remoteAddress(),
          message.getClass().getSimpleName());
      io.netty.util.ReferenceCountUtil.release(message);
      ctx.close();
      return;
    }
    ctx.pipeline().replace(this, "role", role);
    // The replaced context forwards to its replacement, so the request reaches the role.
    ctx.fireChannelRead(message);
  }
}
