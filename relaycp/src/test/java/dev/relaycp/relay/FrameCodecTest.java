package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FrameCodecTest {
  private final List<EmbeddedChannel> channels = new ArrayList<>();

  @AfterEach
  void releaseChannels() {
    for (EmbeddedChannel channel : channels) {
      channel.finishAndReleaseAll();
    }
  }

  private EmbeddedChannel newChannel() {
    EmbeddedChannel channel = new EmbeddedChannel(FrameCodec.newFrameDecoder(), new FrameCodec());
    channels.add(channel);
    return channel;
  }

  private byte[] encode(Frame frame) {
    EmbeddedChannel channel = newChannel();
    assertThat(channel.writeOutbound(frame)).isTrue();
    ByteBuf all = Unpooled.buffer();
    try {
      ByteBuf part;
      while ((part = channel.readOutbound()) != null) {
        all.writeBytes(part);
        part.release();
      }
      return ByteBufUtil.getBytes(all);
    } finally {
      all.release();
    }
  }

  private static byte[] wire(int type, byte[] payload) {
    CRC32C crc = new CRC32C();
    crc.update(type);
    crc.update(payload);
    ByteBuf buf = Unpooled.buffer();
    try {
      buf.writeInt(1 + payload.length + 4);
      buf.writeByte(type);
      buf.writeBytes(payload);
      buf.writeInt((int) crc.getValue());
      return ByteBufUtil.getBytes(buf);
    } finally {
      buf.release();
    }
  }

  private static byte[] randomBytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  private static byte[] payloadOf(Frame frame) {
    return ByteBufUtil.getBytes(frame.content());
  }

  @Test
  void encodedFrameDecodesToSameTypeAndPayload() {
    byte[] payload = randomBytes(1000, 1);
    byte[] bytes = encode(Frame.of(FrameType.DATA, Unpooled.wrappedBuffer(payload)));

    EmbeddedChannel receiver = newChannel();
    assertThat(receiver.writeInbound(Unpooled.wrappedBuffer(bytes))).isTrue();
    Frame decoded = receiver.readInbound();
    try {
      assertThat(decoded.type()).isEqualTo(FrameType.DATA);
      assertThat(payloadOf(decoded)).isEqualTo(payload);
      assertThat(decoded.refCnt()).isEqualTo(1);
    } finally {
      ReferenceCountUtil.release(decoded);
    }
    assertThat(decoded.refCnt()).isZero();
    assertThat((Object) receiver.readInbound()).isNull();
  }

  @Test
  void encodedBytesMatchTheDocumentedWireFormat() {
    byte[] payload = "hello, relay".getBytes(StandardCharsets.US_ASCII);

    byte[] bytes = encode(Frame.of(FrameType.CHUNK_FAILED, Unpooled.wrappedBuffer(payload)));

    CRC32C crc = new CRC32C();
    crc.update(new byte[] {16});
    crc.update(payload);
    ByteBuf expected = Unpooled.buffer();
    expected.writeInt(1 + payload.length + 4);
    expected.writeByte(16);
    expected.writeBytes(payload);
    expected.writeInt((int) crc.getValue());
    assertThat(bytes).isEqualTo(ByteBufUtil.getBytes(expected));
    assertThat(bytes).hasSize(4 + 1 + payload.length + 4);
    expected.release();
  }

  @Test
  void emptyPayloadIsEncodedAsTypeAndCrcOnly() {
    byte[] bytes = encode(Frame.of(FrameType.AUTHENTICATED, Unpooled.EMPTY_BUFFER));

    assertThat(bytes).isEqualTo(wire(FrameType.AUTHENTICATED.code(), new byte[0]));
    EmbeddedChannel receiver = newChannel();
    receiver.writeInbound(Unpooled.wrappedBuffer(bytes));
    Frame decoded = receiver.readInbound();
    assertThat(decoded.type()).isEqualTo(FrameType.AUTHENTICATED);
    assertThat(decoded.content().readableBytes()).isZero();
    ReferenceCountUtil.release(decoded);
  }

  @Test
  void encodingDoesNotCopyOrLeakThePayload() {
    ByteBuf payload = Unpooled.wrappedBuffer(randomBytes(64, 2));
    EmbeddedChannel channel = newChannel();

    channel.writeOutbound(Frame.of(FrameType.DATA, payload));

    ByteBuf header = channel.readOutbound();
    ByteBuf body = channel.readOutbound();
    ByteBuf trailer = channel.readOutbound();
    assertThat(header.readableBytes()).isEqualTo(5);
    assertThat(body).isSameAs(payload);
    assertThat(trailer.readableBytes()).isEqualTo(4);
    assertThat(payload.refCnt()).isEqualTo(1);
    ReferenceCountUtil.release(header);
    ReferenceCountUtil.release(body);
    ReferenceCountUtil.release(trailer);
    assertThat(payload.refCnt()).isZero();
  }

  @Test
  void frameFedOneByteAtATimeDecodesOnlyOnceComplete() {
    byte[] payload = randomBytes(37, 3);
    byte[] bytes = encode(Frame.of(FrameType.CHUNK_DONE, Unpooled.wrappedBuffer(payload)));
    EmbeddedChannel receiver = newChannel();

    for (int i = 0; i < bytes.length - 1; i++) {
      receiver.writeInbound(Unpooled.wrappedBuffer(bytes, i, 1));
      assertThat((Object) receiver.readInbound()).as("after %d bytes", i + 1).isNull();
    }
    receiver.writeInbound(Unpooled.wrappedBuffer(bytes, bytes.length - 1, 1));

    Frame decoded = receiver.readInbound();
    assertThat(decoded.type()).isEqualTo(FrameType.CHUNK_DONE);
    assertThat(payloadOf(decoded)).isEqualTo(payload);
    ReferenceCountUtil.release(decoded);
  }

  @Test
  void twoFramesInOneBufferDecodeAsTwoFrames() {
    byte[] first =
        encode(Frame.of(FrameType.WRITE_CHUNK, Unpooled.wrappedBuffer(new byte[] {1, 2})));
    byte[] second =
        encode(Frame.of(FrameType.END_OF_CHUNK, Unpooled.wrappedBuffer(new byte[] {3})));
    EmbeddedChannel receiver = newChannel();

    receiver.writeInbound(Unpooled.wrappedBuffer(first, second));

    Frame one = receiver.readInbound();
    Frame two = receiver.readInbound();
    assertThat(one.type()).isEqualTo(FrameType.WRITE_CHUNK);
    assertThat(payloadOf(one)).containsExactly(1, 2);
    assertThat(two.type()).isEqualTo(FrameType.END_OF_CHUNK);
    assertThat(payloadOf(two)).containsExactly(3);
    assertThat((Object) receiver.readInbound()).isNull();
    ReferenceCountUtil.release(one);
    ReferenceCountUtil.release(two);
  }

  @Test
  void flippedPayloadByteIsACorruptedFrame() {
    byte[] bytes = encode(Frame.of(FrameType.DATA, Unpooled.wrappedBuffer(randomBytes(100, 4))));
    bytes[4 + 1 + 50] ^= 0x01;
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(Unpooled.wrappedBuffer(bytes)))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("CRC32C mismatch");
    assertThat((Object) receiver.readInbound()).isNull();
  }

  @Test
  void flippedTypeByteIsACorruptedFrame() {
    byte[] bytes = encode(Frame.of(FrameType.PROOF, Unpooled.wrappedBuffer(randomBytes(8, 5))));
    bytes[4] = (byte) FrameType.CHALLENGE.code();
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(Unpooled.wrappedBuffer(bytes)))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("CRC32C mismatch");
  }

  @Test
  void unknownTypeCodeWithValidCrcIsRejected() {
    byte[] bytes = wire(99, new byte[] {7, 7, 7});
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(Unpooled.wrappedBuffer(bytes)))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("unknown frame type 99");
    assertThat((Object) receiver.readInbound()).isNull();
  }

  @Test
  void frameShorterThanTypeAndCrcIsRejected() {
    ByteBuf bytes = Unpooled.buffer().writeInt(4).writeInt(0);
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(bytes))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("shorter than its header");
  }

  @Test
  void lengthBeyondTheLargestFrameIsRejected() {
    ByteBuf bytes = Unpooled.buffer()
        .writeInt(1 + FrameCodec.MAX_PAYLOAD_BYTES + 4 + 1)
        .writeByte(FrameType.DATA.code());
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(bytes))
        .isInstanceOf(TooLongFrameException.class);
    assertThat(bytes.refCnt()).isZero();
  }

  @Test
  void frameWithTheLargestPayloadRoundTrips() {
    byte[] payload = randomBytes(FrameCodec.MAX_PAYLOAD_BYTES, 6);
    byte[] bytes = encode(Frame.of(FrameType.DATA, Unpooled.wrappedBuffer(payload)));
    EmbeddedChannel receiver = newChannel();

    receiver.writeInbound(Unpooled.wrappedBuffer(bytes));

    Frame decoded = receiver.readInbound();
    assertThat(decoded).isNotNull();
    assertThat(payloadOf(decoded)).isEqualTo(payload);
    ReferenceCountUtil.release(decoded);
  }

  @Test
  void payloadLargerThanTheMaximumIsNotEncodedAndIsReleased() {
    ByteBuf payload = Unpooled.wrappedBuffer(new byte[FrameCodec.MAX_PAYLOAD_BYTES + 1]);
    EmbeddedChannel channel = newChannel();

    assertThatThrownBy(() -> channel.writeOutbound(Frame.of(FrameType.DATA, payload)))
        .isInstanceOf(EncoderException.class)
        .hasRootCauseInstanceOf(IllegalArgumentException.class);
    assertThat(payload.refCnt()).isZero();
    assertThat((Object) channel.readOutbound()).isNull();
  }
}
