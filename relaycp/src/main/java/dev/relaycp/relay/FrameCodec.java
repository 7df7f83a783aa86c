package dev.relaycp.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.MessageToMessageCodec;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Turns frames into bytes and back, checking a CRC32C on every frame.
 *
 * <pre>
 * +----------------+--------+---------------------------+----------------+
 * | length         | type   | payload                   | crc32c         |
 * | uint32, 4 B    | 1 B    | length - 5 bytes          | uint32, 4 B    |
 * +----------------+--------+---------------------------+----------------+
 *                  |&lt;------------------ length ------------------------&gt;|
 * </pre>
 *
 * {@code length} counts the type, payload and CRC bytes but not itself; all integers are big
 * endian. The CRC32C covers the type byte and the payload. The length prefix is stripped
 * before this codec by a {@link LengthFieldBasedFrameDecoder} (see {@link #newFrameDecoder()}),
 * which also bounds how large a frame can be. A frame whose CRC does not match, or whose type
 * is unknown, raises a {@link CorruptedFrameException}: the stream cannot be trusted past it,
 * so the handlers report the chunk as failed and close the connection.
 *
 * <p>Encoding writes the header, the payload itself (no copy) and the trailer as three
 * buffers, so a DATA frame's bytes are never copied on the way out.
 */
public final class FrameCodec extends MessageToMessageCodec<ByteBuf, Frame> {
  /** The largest payload any frame may carry. DATA frames are smaller; see the senders. */
  public static final int MAX_PAYLOAD_BYTES = 1 << 20;

  static final int LENGTH_BYTES = 4;
  static final int TYPE_BYTES = 1;
  static final int CRC_BYTES = 4;

  /**
   * A decoder for the length-prefixed framing that must sit before this codec. Its maximum
   * frame length counts the length field too, so a frame with the largest payload fits.
   */
  public static LengthFieldBasedFrameDecoder newFrameDecoder() {
    return new LengthFieldBasedFrameDecoder(
        LENGTH_BYTES + TYPE_BYTES + MAX_PAYLOAD_BYTES + CRC_BYTES,
        0, LENGTH_BYTES, 0, LENGTH_BYTES);
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, Frame frame, List<Object> out) {
    ByteBuf payload = frame.content();
    int payloadBytes = payload.readableBytes();
    if (payloadBytes > MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException(
          "frame payload of " + payloadBytes + " bytes exceeds " + MAX_PAYLOAD_BYTES);
    }
    CRC32C crc = new CRC32C();
    crc.update(frame.type().code());
    update(crc, payload);

    ByteBuf header = ctx.alloc().buffer(LENGTH_BYTES + TYPE_BYTES);
    header.writeInt(TYPE_BYTES + payloadBytes + CRC_BYTES);
    header.writeByte(frame.type().code());
    ByteBuf trailer = ctx.alloc().buffer(CRC_BYTES);
    trailer.writeInt((int) crc.getValue());
    out.add(header);
    out.add(payload.retain());
    out.add(trailer);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
    int bytes = frame.readableBytes();
    if (bytes < TYPE_BYTES + CRC_BYTES) {
      throw new CorruptedFrameException("frame of " + bytes + " bytes is shorter than its header");
    }
    int code = frame.getUnsignedByte(frame.readerIndex());
    int payloadBytes = bytes - TYPE_BYTES - CRC_BYTES;
    ByteBuf payload = frame.slice(frame.readerIndex() + TYPE_BYTES, payloadBytes);
    long expected = frame.getUnsignedInt(frame.readerIndex() + TYPE_BYTES + payloadBytes);
    CRC32C crc = new CRC32C();
    crc.update(code);
    update(crc, payload);
    if (crc.getValue() != expected) {
      throw new CorruptedFrameException(String.format(
          "CRC32C mismatch on a frame of type %d with %d payload bytes: expected %08x, computed %08x",
          code, payloadBytes, expected, crc.getValue()));
    }
    FrameType type = FrameType.fromCode(code);
    if (type == null) {
      throw new CorruptedFrameException("unknown frame type " + code);
    }
    out.add(Frame.of(type, payload.retain()));
  }

  private static void update(CRC32C crc, ByteBuf bytes) {
    if (bytes.nioBufferCount() == 1) {
      crc.update(bytes.nioBuffer());
    } else {
      for (java.nio.ByteBuffer part : bytes.nioBuffers()) {
        crc.update(part);
      }
    }
  }
}
