package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayMessage.KeepAlive;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * Proves that both ends of a relay connection are alive, so that no one waits forever on a
 * peer that stopped answering (a relay paused with SIGSTOP, a host gone, a half-open TCP
 * connection across a WAN, which never reports its own death). Each end sends KEEP_ALIVE
 * after {@link #INTERVAL_MILLIS} without sending anything else; an end that has received
 * nothing at all for its silence timeout fails the connection with RELAY_UNREACHABLE, which
 * drops the route, and the route's chunks go to the others.
 *
 * <p>It sits after {@link MessageCodec} and works with the {@link IdleStateHandler} from
 * {@link #idleStateHandler} at the head of the pipeline, which sees every byte in and every
 * write out. KEEP_ALIVE messages stop here; every other message passes on.
 */
final class KeepAliveHandler extends ChannelDuplexHandler {
  /** How long an end stays quiet before it sends KEEP_ALIVE; part of the protocol. */
  static final long INTERVAL_MILLIS = 1_000;
  /** The least silence timeout: several intervals, so one late keep-alive drops nothing. */
  static final long MIN_SILENCE_MILLIS = 3 * INTERVAL_MILLIS;

  private final String peer;
  private final long silenceMillis;

  KeepAliveHandler(String peer, long silenceMillis) {
    this.peer = requireNonNull(peer, "peer is null");
    this.silenceMillis = checkSilence(silenceMillis);
  }

  /** The head of the pipeline: notices silence both ways. */
  static IdleStateHandler idleStateHandler(long silenceMillis) {
    return new IdleStateHandler(checkSilence(silenceMillis), INTERVAL_MILLIS, 0,
        TimeUnit.MILLISECONDS);
  }

  static long checkSilence(long silenceMillis) {
    if (silenceMillis < MIN_SILENCE_MILLIS) {
      throw new IllegalArgumentException("the silence timeout must be at least "
          + MIN_SILENCE_MILLIS + " ms, got " + silenceMillis);
    }
    return silenceMillis;
  }

  /**
   * Swallows KEEP_ALIVE. A relay's sessions read on demand (auto-read off, for back-pressure):
   * the read that brought a keep-alive was asked for a real message, so another is asked for.
   */
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object message) {
    if (message instanceof KeepAlive) {
      if (!ctx.channel().config().isAutoRead()) {
        ctx.read();
      }
      return;
    }
    ctx.fireChannelRead(message);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof IdleStateEvent idle) {
      if (idle.state() == IdleState.WRITER_IDLE) {
        ctx.writeAndFlush(KeepAlive.INSTANCE);
      } else if (idle.state() == IdleState.READER_IDLE) {
        ctx.fireExceptionCaught(new RelayCpException(ErrorCode.RELAY_UNREACHABLE,
            peer + " sent nothing for " + silenceMillis / 1000.0 + " s (relaycp.relay."
                + "silence-timeout-seconds): it is stopped, gone or cut off"));
        ctx.close();
      }
      return;
    }
    ctx.fireUserEventTriggered(event);
  }
}
