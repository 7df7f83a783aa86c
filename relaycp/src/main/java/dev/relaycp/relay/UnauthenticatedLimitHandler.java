package dev.relaycp.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes an accepted connection that sends more than a handshake's bytes before it has
 * authenticated, before the frame decoder could gather a large frame from it; the
 * authentication handler removes it once the peer has proven the secret.
 */
final class UnauthenticatedLimitHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(UnauthenticatedLimitHandler.class);

  private final int limit;
  private long received;

  UnauthenticatedLimitHandler(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive, got " + limit);
    }
    this.limit = limit;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object message) {
    if (message instanceof ByteBuf bytes) {
      received += bytes.readableBytes();
      if (received > limit) {
        ReferenceCountUtil.release(message);
        LOG.warn("Rejected connection from {}: {} bytes before authenticating (at most {})",
            ctx.channel().remoteAddress(), received, limit);
        ctx.close();
        return;
      }
    }
    ctx.fireChannelRead(message);
  }
}
