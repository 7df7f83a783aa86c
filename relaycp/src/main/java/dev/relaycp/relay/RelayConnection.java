package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * An authenticated client connection to a relay. Messages the relay sends go to the {@link
 * Listener} on the connection's event loop; {@link #send} may be called from any thread, and
 * a thread that produces bulk data calls {@link #awaitWritable()} before each send so that at
 * most the channel's high water mark is ever queued (back-pressure).
 */
public final class RelayConnection implements AutoCloseable {
  /** Receives what the relay sends. Called on the connection's event loop; must not block. */
  public interface Listener {
    void onMessage(RelayMessage message);

    /** The connection is gone; {@code cause} is null after a clean close. */
    void onClosed(Throwable cause);

    /** For a connection made only to show that the relay answers: drops what arrives. */
    Listener IGNORING = new Listener() {
      @Override
      public void onMessage(RelayMessage message) {
        ReferenceCountUtil.release(message);
      }

      @Override
      public void onClosed(Throwable cause) {}
    };
  }

  private final RelayAddress address;
  private final Channel channel;
  private final Object writability = new Object();

  RelayConnection(RelayAddress address, Channel channel) {
    this.address = requireNonNull(address, "address is null");
    this.channel = requireNonNull(channel, "channel is null");
  }

  public RelayAddress address() {
    return address;
  }

  public boolean isOpen() {
    return channel.isActive();
  }

  public ChannelFuture send(RelayMessage message) {
    return channel.writeAndFlush(message);
  }

  /**
   * Sends {@code messages} in order as one task on the connection's event loop with one flush,
   * so a small file's few frames cost one wake-up of the loop, one TLS record where they fit in
   * one and one write to the socket, not one each. The future is the last message's; a message
   * that cannot be written is released, as {@link #send} releases it.
   */
  public ChannelFuture sendTogether(List<? extends RelayMessage> messages) {
    List<RelayMessage> batch = List.copyOf(messages);
    if (batch.isEmpty()) {
      throw new IllegalArgumentException("no messages to send");
    }
    ChannelPromise last = channel.newPromise();
    try {
      channel.eventLoop().execute(() -> {
        for (int message = 0; message < batch.size() - 1; message++) {
          channel.write(batch.get(message), channel.voidPromise());
        }
        channel.writeAndFlush(batch.get(batch.size() - 1), last);
      });
    } catch (RejectedExecutionException e) {
      batch.forEach(ReferenceCountUtil::release);
      last.setFailure(e);
    }
    return last;
  }

  /**
   * Blocks until the channel can take more writes, or throws when it has closed. Must not be
   * called on an event loop.
   */
  public void awaitWritable() throws IOException, InterruptedException {
    synchronized (writability) {
      while (channel.isActive() && !channel.isWritable()) {
        writability.wait(100);
      }
    }
    if (!channel.isActive()) {
      throw new IOException("connection to relay " + address + " closed");
    }
  }

  /** Closes the connection without waiting, so it is safe to call on any thread. */
  @Override
  public void close() {
    channel.close();
  }

  /** The last handler of a client pipeline: hands messages on and wakes blocked senders. */
  static final class DeliveryHandler extends SimpleChannelInboundHandler<RelayMessage> {
    private final Listener listener;
    private RelayConnection connection;
    private Throwable failure;

    DeliveryHandler(Listener listener) {
      super(false);
      this.listener = requireNonNull(listener, "listener is null");
    }

    void attach(RelayConnection connection) {
      this.connection = connection;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
      listener.onMessage(message);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      wakeSenders();
      ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      failure = cause;
      ctx.close();
    }

    /**
     * Tells the listener only about a connection it was handed: an attempt that failed before
     * (refused, timed out, not authenticated) is reported by the connect future alone, so a
     * caller trying again is not told its connection closed.
     */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      wakeSenders();
      if (connection != null) {
        listener.onClosed(failure);
      }
      ctx.fireChannelInactive();
    }

    private void wakeSenders() {
      if (connection != null) {
        synchronized (connection.writability) {
          connection.writability.notifyAll();
        }
      }
    }
  }

  static RelayCpException unreachable(RelayAddress address, Throwable cause) {
    return new RelayCpException(ErrorCode.RELAY_UNREACHABLE,
        "cannot connect to relay " + address + ": " + cause.getMessage()
            + "; check that it runs and the port is open", cause);
  }
}
