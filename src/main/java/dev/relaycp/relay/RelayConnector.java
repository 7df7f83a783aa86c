package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.traffic.ChannelTrafficShapingHandler;
import java.util.concurrent.CompletableFuture;

/** Opens authenticated connections to relays on a given event loop group. */
public final class RelayConnector {
  /** Channels stop taking writes past this many queued bytes, and resume below the low mark. */
  static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(512 * 1024, 2 << 20);
  private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

  private final EventLoopGroup group;
  private final TransferSecret secret;
  private final long bytesPerSecondLimit;

  private RelayConnector(EventLoopGroup group, TransferSecret secret, long bytesPerSecondLimit) {
    this.group = requireNonNull(group, "group is null");
    this.secret = requireNonNull(secret, "secret is null");
    if (bytesPerSecondLimit < 0) {
      throw new IllegalArgumentException(
          "bytesPerSecondLimit must not be negative, got " + bytesPerSecondLimit);
    }
    this.bytesPerSecondLimit = bytesPerSecondLimit;
  }

  public static RelayConnector of(EventLoopGroup group, TransferSecret secret) {
    return new RelayConnector(group, secret, 0);
  }

  /** A connector whose connections send at most {@code bytesPerSecond} each (0: no limit). */
  public static RelayConnector limited(
      EventLoopGroup group, TransferSecret secret, long bytesPerSecond) {
    return new RelayConnector(group, secret, bytesPerSecond);
  }

  /**
   * Connects and authenticates. The future fails with a {@link RelayCpException}:
   * RELAY_UNREACHABLE when nothing answers, RELAY_AUTHENTICATION_FAILED when the relay refuses
   * the proof.
   */
  public CompletableFuture<RelayConnection> connect(
      RelayAddress address, RelayConnection.Listener listener) {
    requireNonNull(address, "address is null");
    CompletableFuture<Void> authenticated = new CompletableFuture<>();
    RelayConnection.DeliveryHandler delivery = new RelayConnection.DeliveryHandler(listener);
    Bootstrap bootstrap = new Bootstrap()
        .group(group)
        .channel(NioSocketChannel.class)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
        .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            ChannelPipeline pipeline = channel.pipeline();
            if (bytesPerSecondLimit > 0) {
              pipeline.addLast(new ChannelTrafficShapingHandler(bytesPerSecondLimit, 0, 100));
            }
            pipeline.addLast(FrameCodec.newFrameDecoder());
            pipeline.addLast(new FrameCodec());
            pipeline.addLast(new MessageCodec());
            pipeline.addLast(new ClientAuthenticationHandler(secret, address, authenticated));
            pipeline.addLast(delivery);
          }
        });
    CompletableFuture<RelayConnection> result = new CompletableFuture<>();
    ChannelFuture connecting = bootstrap.connect(address.toSocketAddress());
    Channel channel = connecting.channel();
    connecting.addListener(future -> {
      if (!future.isSuccess()) {
        result.completeExceptionally(RelayConnection.unreachable(address, future.cause()));
      }
    });
    // The connection is handed out only once the relay has accepted the proof.
    authenticated.whenComplete((ignored, failure) -> {
      if (failure != null) {
        result.completeExceptionally(failure);
      } else {
        RelayConnection connection = new RelayConnection(address, channel);
        delivery.attach(connection);
        result.complete(connection);
      }
    });
    return result;
  }
}
