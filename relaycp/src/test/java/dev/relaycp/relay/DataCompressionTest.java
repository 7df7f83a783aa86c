package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.relay.RelayMessage.CompressedData;
import dev.relaycp.relay.RelayMessage.Data;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.CorruptedFrameException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DataCompressionTest {
  static byte[] logLines(int bytes) {
    StringBuilder text = new StringBuilder();
    Random random = new Random(5);
    while (text.length() < bytes) {
      text.append("2026-11-25T13:").append(10 + random.nextInt(50)).append(" INFO  RouteWorker -"
          + " route ").append(random.nextInt(8)).append(" delivered chunk ")
          .append(random.nextInt(100_000)).append('\n');
    }
    return text.substring(0, bytes).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] random(int bytes) {
    byte[] data = new byte[bytes];
    new Random(9).nextBytes(data);
    return data;
  }

  @Test
  void textGoesCompressedAndComesBackWhole() {
    byte[] text = logLines(256 * 1024);

    RelayMessage sent = DataCompression.compress(Unpooled.wrappedBuffer(text));

    assertThat(sent).isInstanceOf(CompressedData.class);
    ByteBuf compressed = ((CompressedData) sent).content();
    assertThat(compressed.readableBytes()).isLessThan(text.length / 3);
    ByteBuf back = DataCompression.decompress(compressed, ByteBufAllocator.DEFAULT);
    try {
      assertThat(ByteBufUtil.getBytes(back)).isEqualTo(text);
    } finally {
      back.release();
      compressed.release();
    }
  }

  @Test
  void randomBytesCrossAsTheyAre() {
    byte[] noise = random(256 * 1024);
    ByteBuf raw = Unpooled.wrappedBuffer(noise);

    RelayMessage sent = DataCompression.compress(raw);

    assertThat(sent).isInstanceOf(Data.class);
    assertThat(((Data) sent).content()).isSameAs(raw);
    assertThat(raw.refCnt()).isEqualTo(1);
    raw.release();
  }

  @Test
  void theWireEstimateCountsFramesThatDoNotShrinkWhole() {
    byte[] mixed = new byte[512 * 1024];
    System.arraycopy(logLines(256 * 1024), 0, mixed, 0, 256 * 1024);
    System.arraycopy(random(256 * 1024), 0, mixed, 256 * 1024, 256 * 1024);

    long wire = DataCompression.wireBytes(mixed, 0, mixed.length, 256 * 1024);

    assertThat(wire).isGreaterThan(256 * 1024).isLessThan(256 * 1024 + 256 * 1024 / 3);
    assertThat(DataCompression.wireBytes(random(100_000), 0, 100_000, 4096)).isEqualTo(100_000);
  }

  @Test
  void aPayloadThatIsNotSnappyIsACorruptFrame() {
    ByteBuf garbage = Unpooled.wrappedBuffer("certainly not snappy".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> DataCompression.decompress(garbage, ByteBufAllocator.DEFAULT))
        .isInstanceOf(CorruptedFrameException.class);
  }
}
