package dev.relaycp.bench;

import dev.relaycp.relay.FrameCodec;
import dev.relaycp.relay.MessageCodec;
import dev.relaycp.relay.RelayMessage;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One relay hop on loopback, memory to memory: a sender frames DATA messages with the relay's
 * own codecs (CRC32C on every frame), a receiver decodes and checks them with the same codecs
 * and discards the bytes. Back-pressure is the relay's: the sender waits for writability.
 * Measures what the protocol itself costs, with no FileSystem on either end.
 */
public final class RelayHopBenchmark {
  /** The outcome of one run. */
  public record Result(long bytes, int frameBytes, double seconds) {
    public double megabytesPerSecond() {
      return bytes / 1e6 / seconds;
    }
  }

  private RelayHopBenchmark() {}

  /** Opens a hop, sends {@code totalBytes} through it once, and closes it. */
  public static Result run(long totalBytes, int frameBytes) throws Exception {
    try (Hop hop = Hop.open(frameBytes)) {
      long started = System.nanoTime();
      long bytes = hop.transfer(totalBytes);
      return new Result(bytes, frameBytes, (System.nanoTime() - started) / 1e9);
    }
  }

  /**
   * A sender and a receiver joined by one loopback connection, kept open across transfers so
   * that a harness (JMH) can time many on a warm connection. Not thread-safe: one transfer at
   * a time.
   */
  public static final class Hop implements AutoCloseable {
    private final NioEventLoopGroup group;
    private final Channel server;
    private final Channel client;
    private final CountingSink sink;
    private final ByteBuf payload;
    private final int frameBytes;
    private final Object gate;

    private Hop(NioEventLoopGroup group, Channel server, Channel client, CountingSink sink,
        ByteBuf payload, int frameBytes, Object gate) {
      this.group = group;
      this.server = server;
      this.client = client;
      this.sink = sink;
      this.payload = payload;
      this.frameBytes = frameBytes;
      this.gate = gate;
    }

    /** Binds a receiver on 127.0.0.1 and connects a sender to it; frames of {@code frameBytes}. */
    public static Hop open(int frameBytes) throws InterruptedException {
      if (frameBytes < 1) {
        throw new IllegalArgumentException("frameBytes must be 1 or more, got " + frameBytes);
      }
      NioEventLoopGroup group = new NioEventLoopGroup(2);
      try {
        CountingSink sink = new CountingSink();
        Object gate = new Object();
        Channel server = new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel channel) {
                channel.pipeline().addLast(FrameCodec.newFrameDecoder(), new FrameCodec(),
                    new MessageCodec(), sink);
              }
            })
            .bind("127.0.0.1", 0).sync().channel();
        Channel client = new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(512 * 1024, 2 << 20))
            .handler(new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel channel) {
                channel.pipeline().addLast(new FrameCodec(), new MessageCodec(),
                    new WritabilityHandler(gate));
              }
            })
            .connect((InetSocketAddress) server.localAddress()).sync().channel();
        byte[] pattern = new byte[frameBytes];
        new Random(1).nextBytes(pattern);
        ByteBuf payload = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(frameBytes).writeBytes(pattern));
        return new Hop(group, server, client, sink, payload, frameBytes, gate);
      } catch (Throwable e) {
        // Netty's sync() rethrows a failed bind or connect as it is, checked or not.
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        throw e;
      }
    }

    /** Sends {@code totalBytes} and returns once the receiver has decoded them all. */
    public long transfer(long totalBytes) throws Exception {
      if (totalBytes < 1) {
        throw new IllegalArgumentException("totalBytes must be 1 or more, got " + totalBytes);
      }
      CompletableFuture<Long> received = sink.expect(totalBytes);
      long sent = 0;
      while (sent < totalBytes) {
        synchronized (gate) {
          while (client.isActive() && !client.isWritable()) {
            gate.wait(100);
          }
        }
        if (!client.isActive()) {
          throw new IOException("the hop's connection closed after " + sent + " bytes");
        }
        int size = (int) Math.min(frameBytes, totalBytes - sent);
        client.writeAndFlush(new RelayMessage.Data(payload.retainedSlice(0, size)));
        sent += size;
      }
      return received.get(10, TimeUnit.MINUTES);
    }

    @Override
    public void close() throws InterruptedException {
      try {
        client.close().sync();
        server.close().sync();
      } finally {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
      }
    }
  }

  /**
   * Wakes the sending thread as soon as the connection can take more, as the relay's own
   * connections do ({@code RelayConnection.awaitWritable}): a sender that napped instead would
   * leave the socket idle once the queue had drained.
   */
  private static final class WritabilityHandler extends ChannelInboundHandlerAdapter {
    private final Object gate;

    WritabilityHandler(Object gate) {
      this.gate = gate;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      synchronized (gate) {
        gate.notifyAll();
      }
      ctx.fireChannelWritabilityChanged();
    }
  }

  /**
   * Counts the bytes of DATA messages toward the transfer that is waiting for them. Shared
   * only in that one instance serves the hop's one connection; its count is touched only on
   * that connection's event loop.
   */
  @ChannelHandler.Sharable
  private static final class CountingSink extends SimpleChannelInboundHandler<RelayMessage> {
    private volatile CompletableFuture<Long> done = new CompletableFuture<>();
    private volatile long expected;
    private long count;

    /** The next transfer's {@code bytes}: the future completes once they have arrived. */
    CompletableFuture<Long> expect(long bytes) {
      CompletableFuture<Long> next = new CompletableFuture<>();
      expected = bytes;
      done = next;
      return next;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
      if (message instanceof RelayMessage.Data data) {
        count += data.content().readableBytes();
        if (count >= expected) {
          long arrived = count;
          count = 0;
          done.complete(arrived);
        }
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      done.completeExceptionally(cause);
      ctx.close();
    }
  }
}
