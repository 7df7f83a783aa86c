package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.RelayMessage.CompressedData;
import dev.relaycp.relay.RelayMessage.Data;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.CorruptedFrameException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xerial.snappy.Snappy;

/**
 * Snappy on the relay hop's DATA frames ({@code --compress}): each frame on its own, so a lost
 * connection loses no shared dictionary and a writer decodes frames as they come. A frame goes
 * compressed only when that saves at least an eighth of it: random or already compressed data
 * crosses as it is, for the cost of one try per frame. Snappy is Hadoop's own (snappy-java, on
 * every Hadoop class path), a few hundred MB/s per core or more, well above any one WAN link.
 */
public final class DataCompression {
  private static final Logger LOG = LoggerFactory.getLogger(DataCompression.class);
  private static volatile boolean unavailable;

  private DataCompression() {}

  /**
   * {@code raw} as the message to send: compressed where that pays, else as it is. Takes over
   * {@code raw}'s reference.
   */
  static RelayMessage compress(ByteBuf raw) {
    requireNonNull(raw, "raw is null");
    if (unavailable || raw.readableBytes() == 0) {
      return new Data(raw);
    }
    int length = raw.readableBytes();
    byte[] input;
    int offset;
    if (raw.hasArray()) {
      input = raw.array();
      offset = raw.arrayOffset() + raw.readerIndex();
    } else {
      input = ByteBufUtil.getBytes(raw);
      offset = 0;
    }
    ByteBuf compressed = compressIfItPays(input, offset, length);
    if (compressed == null) {
      return new Data(raw);
    }
    raw.release();
    return new CompressedData(compressed);
  }

  /**
   * How many bytes {@code length} bytes of {@code raw} from {@code offset} would take on the
   * relay hop, sent in DATA frames of {@code frameBytes} as a reader relay sends them: for
   * estimating a copy's compression from a sample of its files.
   */
  public static long wireBytes(byte[] raw, int offset, int length, int frameBytes) {
    requireNonNull(raw, "raw is null");
    if (frameBytes < 1 || offset < 0 || length < 0 || offset + length > raw.length) {
      throw new IllegalArgumentException("frames of " + frameBytes + " over " + length
          + " bytes from " + offset + " of " + raw.length);
    }
    long wire = 0;
    for (int start = offset; start < offset + length; start += frameBytes) {
      int size = Math.min(frameBytes, offset + length - start);
      ByteBuf compressed = compressIfItPays(raw, start, size);
      wire += compressed == null ? size : compressed.readableBytes();
    }
    return wire;
  }

  /**
   * {@code length} bytes of {@code input} from {@code offset}, compressed, where that saves at
   * least an eighth of them; null where it does not (the frame goes as it is), and where Snappy
   * cannot run here (said once).
   */
  private static ByteBuf compressIfItPays(byte[] input, int offset, int length) {
    if (unavailable || length == 0) {
      return null;
    }
    try {
      byte[] output = new byte[Snappy.maxCompressedLength(length)];
      int compressed = Snappy.compress(input, offset, length, output, 0);
      return compressed > length - length / 8 ? null
          : Unpooled.wrappedBuffer(output, 0, compressed);
    } catch (IOException | LinkageError e) {
      // No native Snappy for this platform: the transfer goes on uncompressed.
      if (!unavailable) {
        unavailable = true;
        LOG.warn("Snappy is not available here, sending uncompressed: {}", e.toString());
      }
      return null;
    }
  }

  /** The bytes of a COMPRESSED_DATA frame's payload, decompressed into a new buffer. */
  static ByteBuf decompress(ByteBuf compressed, ByteBufAllocator allocator) {
    byte[] input = ByteBufUtil.getBytes(compressed);
    try {
      int length = Snappy.uncompressedLength(input);
      if (length < 0 || length > FrameCodec.MAX_PAYLOAD_BYTES) {
        throw new CorruptedFrameException("compressed DATA frame of " + length + " bytes");
      }
      ByteBuf output = allocator.heapBuffer(length, length);
      try {
        int written = Snappy.uncompress(input, 0, input.length, output.array(),
            output.arrayOffset());
        output.writerIndex(written);
        return output;
      } catch (IOException | RuntimeException e) {
        output.release();
        throw e;
      }
    } catch (IOException e) {
      throw new CorruptedFrameException("compressed DATA frame does not decompress: "
          + e.getMessage());
    }
  }
}
