package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.Data;
import dev.relaycp.relay.RelayMessage.EndOfChunk;
import dev.relaycp.relay.RelayMessage.WriteChunk;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class RelayConnectionTest {
  private final FlushCounter flushes = new FlushCounter();
  private final EmbeddedChannel channel = new EmbeddedChannel(flushes);
  private final RelayConnection connection =
      new RelayConnection(RelayAddress.of("writer", 7070), channel);

  @Test
  void messagesSentTogetherLeaveInOrderWithOneFlush() {
    ByteBuf bytes = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
    WriteChunk start = new WriteChunk(anOrder());
    Data data = new Data(bytes);
    EndOfChunk end = new EndOfChunk(1L, 3);

    ChannelFuture sent = connection.sendTogether(List.of(start, data, end));
    channel.runPendingTasks();

    assertThat(flushes.count).isEqualTo(1);
    assertThat(sent.isSuccess()).isTrue();
    assertThat((Object) channel.readOutbound()).isSameAs(start);
    assertThat((Object) channel.readOutbound()).isSameAs(data);
    assertThat((Object) channel.readOutbound()).isSameAs(end);
    data.release();
  }

  @Test
  void messagesSentTogetherOnAClosedConnectionAreReleasedAndTheFutureFails() {
    ByteBuf bytes = Unpooled.buffer(4).writeInt(42);
    channel.close();

    ChannelFuture sent = connection.sendTogether(
        List.of(new WriteChunk(anOrder()), new Data(bytes), new EndOfChunk(1L, 4)));
    channel.runPendingTasks();

    assertThat(sent.isDone()).isTrue();
    assertThat(sent.isSuccess()).isFalse();
    assertThat(bytes.refCnt()).isZero();
  }

  @Test
  void nothingToSendIsRefused() {
    assertThatThrownBy(() -> connection.sendTogether(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no messages");
  }

  private static ChunkOrder anOrder() {
    return new ChunkOrder(1L, URI.create("hdfs://nn:8020/f"), 0, 3, "writer:7070",
        ChunkTarget.file(URI.create("hdfs://dst:8020/f"), (short) 1, 1024));
  }

  private static final class FlushCounter extends ChannelOutboundHandlerAdapter {
    private int count;

    @Override
    public void flush(ChannelHandlerContext ctx) {
      count++;
      ctx.flush();
    }
  }
}
