package dev.relaycp.bench;

import dev.relaycp.relay.FrameCodec;
import dev.relaycp.relay.MessageCodec;
import dev.relaycp.relay.RelayMessage;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
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

  public static Result run(long totalBytes, int frameBytes) throws Exception {
    NioEventLoopGroup group = new NioEventLoopGroup(2);
    try {
      CompletableFuture<Long> received = new CompletableFuture<>();
      Channel server = new ServerBootstrap()
          .group(group)
          .channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel channel) {
              channel.pipeline().addLast(FrameCodec.newFrameDecoder(), new FrameCodec(),
                  new MessageCodec(), new CountingSink(totalBytes, received));
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
              channel.pipeline().addLast(new FrameCodec(), new MessageCodec());
            }
          })
          .connect((InetSocketAddress) server.localAddress()).sync().channel();

      byte[] pattern = new byte[frameBytes];
      new Random(1).nextBytes(pattern);
      ByteBuf payload = Unpooled.unreleasableBuffer(
          Unpooled.directBuffer(frameBytes).writeBytes(pattern));
      long started = System.nanoTime();
      long sent = 0;
      Object gate = new Object();
      while (sent < totalBytes) {
        while (!client.isWritable()) {
          synchronized (gate) {
            gate.wait(0, 200_000);
          }
        }
        int size = (int) Math.min(frameBytes, totalBytes - sent);
        client.writeAndFlush(new RelayMessage.Data(payload.retainedSlice(0, size)));
        sent += size;
      }
      long bytes = received.get(10, TimeUnit.MINUTES);
      double seconds = (System.nanoTime() - started) / 1e9;
      client.close().sync();
      server.close().sync();
      return new Result(bytes, frameBytes, seconds);
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }

  private static final class CountingSink extends SimpleChannelInboundHandler<RelayMessage> {
    private final long expected;
    private final CompletableFuture<Long> done;
    private long count;

    CountingSink(long expected, CompletableFuture<Long> done) {
      this.expected = expected;
      this.done = done;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
      if (message instanceof RelayMessage.Data data) {
        count += data.content().readableBytes();
        if (count >= expected) {
          done.complete(count);
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
