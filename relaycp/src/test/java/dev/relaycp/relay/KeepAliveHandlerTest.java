package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.KeepAlive;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
import org.junit.jupiter.api.Test;

class KeepAliveHandlerTest {
  private final EmbeddedChannel channel =
      new EmbeddedChannel(new KeepAliveHandler("relay dn1:7070", 3_000));

  @Test
  void aQuietEndSendsAKeepAlive() {
    channel.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT);

    assertThat((Object) channel.readOutbound()).isEqualTo(KeepAlive.INSTANCE);
    assertThat(channel.isOpen()).isTrue();
  }

  @Test
  void keepAlivesStopHereAndEverythingElsePasses() {
    ChunkDone done = new ChunkDone(7, 100, new byte[0]);

    channel.writeInbound(KeepAlive.INSTANCE, done, KeepAlive.INSTANCE);

    assertThat((Object) channel.readInbound()).isEqualTo(done);
    assertThat((Object) channel.readInbound()).isNull();
  }

  @Test
  void aSwallowedKeepAliveAsksForTheReadItUsedWhereReadsAreOnDemand() {
    ReadCounter reads = new ReadCounter();
    EmbeddedChannel onDemand = new EmbeddedChannel(reads, new KeepAliveHandler("driver", 3_000));
    onDemand.config().setAutoRead(false);
    int before = reads.count;

    onDemand.writeInbound(KeepAlive.INSTANCE);

    assertThat(reads.count - before).isEqualTo(1);
    assertThat((Object) onDemand.readInbound()).isNull();
  }

  /** Counts the reads asked for from beyond it. */
  private static final class ReadCounter extends ChannelOutboundHandlerAdapter {
    int count;

    @Override
    public void read(ChannelHandlerContext ctx) throws Exception {
      count++;
      super.read(ctx);
    }
  }

  @Test
  void aSilentPeerFailsTheConnectionAsUnreachable() {
    channel.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);

    assertThat(channel.isOpen()).isFalse();
    assertThatThrownBy(channel::checkException)
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.RELAY_UNREACHABLE))
        .hasMessageContaining("relay dn1:7070 sent nothing for 3.0 s");
  }

  @Test
  void aSilenceTimeoutShorterThanThreeKeepAlivesIsRefused() {
    assertThatThrownBy(() -> new KeepAliveHandler("relay", 2_999))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 3000 ms");
  }
}
