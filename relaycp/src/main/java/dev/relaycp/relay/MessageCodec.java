package dev.relaycp.relay;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.fs.DatanodeAddress;
import dev.relaycp.relay.RelayMessage.Authenticated;
import dev.relaycp.relay.RelayMessage.Challenge;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkFailed;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.ChunkWritten;
import dev.relaycp.relay.RelayMessage.CompressedData;
import dev.relaycp.relay.RelayMessage.Data;
import dev.relaycp.relay.RelayMessage.EndOfChunk;
import dev.relaycp.relay.RelayMessage.KeepAlive;
import dev.relaycp.relay.RelayMessage.Proof;
import dev.relaycp.relay.RelayMessage.Transfer;
import dev.relaycp.relay.RelayMessage.WriteChunk;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.MessageToMessageCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Maps {@link RelayMessage}s to {@link Frame}s and back. Payloads of control frames are
 * written with {@link DataOutput}: integers big endian, strings as modified UTF-8 with a
 * two-byte length, byte arrays as a four-byte length and the bytes.
 *
 * <pre>
 * SEND_CHUNK / WRITE_CHUNK payload:
 * +---------+--------+--------+--------+---------+------+--------+----------------+------+-------+-------+
 * | chunkId | source | offset | length | writer  | kind | target | upload handle  | part | repl. | block |
 * | int64   | utf    | int64  | int64  | utf     | int8 | utf    | int32 + bytes  | int32| int16 | int64 |
 * +---------+--------+--------+--------+---------+------+--------+----------------+------+-------+-------+
 * +-----------------+----------------------------------------+-------------------------+
 * | favored count n | n favored datanodes, host:transferPort | times (optional)        |
 * | int16           | utf each                               | int64 mtime, int64 atime|
 * +-----------------+----------------------------------------+-------------------------+
 *             times: only where the order asks the writer to give a FILE target its source's
 *             times; a relay older than them rejects such an order as malformed, so a driver
 *             sends them only to relays of its own build (see RouteSource#runsThisBuild)
 * END_OF_CHUNK: chunkId int64, length int64
 * CHUNK_WRITTEN: chunkId int64, part handle, then, where the transfer asked for it and the
 *             destination gave one, the stored checksum
 * CHUNK_DONE: chunkId int64, bytes int64, wire bytes int64, part handle,
 *             then, where the reader knows it, the source bytes' CRC32C int32 (absent from
 *             relays older than it, so a frame that ends after the part handle has none),
 *             then, only after a CRC, the writer's stored checksum where it sent one
 * stored checksum:
 * +-----------+---------------+
 * | algorithm | checksum      |
 * | utf       | int32 + bytes |
 * +-----------+---------------+
 * CHUNK_FAILED: chunkId int64, error code utf, message utf
 * CHALLENGE: nonce bytes    PROOF: mac bytes, nonce bytes    AUTHENTICATED: mac bytes
 * TRANSFER:
 * +------+-------------+--------------+------------------------------------------+-------+
 * | user | source root | staging root | credentials (Hadoop token storage)       | flags |
 * | utf  | utf         | utf          | int32 + bytes                            | int8  |
 * +------+-------------+--------------+------------------------------------------+-------+
 * flags: bit 0 = compress (the reader may send COMPRESSED_DATA); bit 1 = stored checksums
 *        (writers return the stored checksum of each FILE target they write; older
 *        relays ignore the bit)
 * DATA: the bytes    COMPRESSED_DATA: the bytes in Snappy's raw format (one block)
 * KEEP_ALIVE: empty (sent by either end after a second with nothing else to send)
 * </pre>
 */
public final class MessageCodec extends MessageToMessageCodec<Frame, RelayMessage> {

  @Override
  protected void encode(ChannelHandlerContext ctx, RelayMessage message, List<Object> out)
      throws IOException {
    if (message instanceof Data data) {
      out.add(Frame.of(FrameType.DATA, data.content().retain()));
      return;
    }
    if (message instanceof CompressedData compressed) {
      out.add(Frame.of(FrameType.COMPRESSED_DATA, compressed.content().retain()));
      return;
    }
    ByteBuf payload = ctx.alloc().heapBuffer(64);
    try (ByteBufOutputStream output = new ByteBufOutputStream(payload)) {
      out.add(Frame.of(write(message, output), payload));
    } catch (IOException | RuntimeException e) {
      payload.release();
      throw e;
    }
  }

  private static FrameType write(RelayMessage message, DataOutput output) throws IOException {
    if (message instanceof Challenge challenge) {
      writeBytes(output, challenge.nonce());
      return FrameType.CHALLENGE;
    } else if (message instanceof Proof proof) {
      writeBytes(output, proof.mac());
      writeBytes(output, proof.nonce());
      return FrameType.PROOF;
    } else if (message instanceof Authenticated authenticated) {
      writeBytes(output, authenticated.mac());
      return FrameType.AUTHENTICATED;
    } else if (message instanceof KeepAlive) {
      return FrameType.KEEP_ALIVE;
    } else if (message instanceof Transfer transfer) {
      output.writeUTF(transfer.user());
      output.writeUTF(transfer.sourceRoot().toString());
      output.writeUTF(transfer.stagingRoot().toString());
      writeBytes(output, transfer.credentials());
      output.writeByte((transfer.compress() ? 1 : 0) | (transfer.storedChecksums() ? 2 : 0));
      return FrameType.TRANSFER;
    } else if (message instanceof ChunkOrder order) {
      writeOrder(output, order);
      return FrameType.SEND_CHUNK;
    } else if (message instanceof WriteChunk write) {
      writeOrder(output, write.order());
      return FrameType.WRITE_CHUNK;
    } else if (message instanceof EndOfChunk end) {
      output.writeLong(end.chunkId());
      output.writeLong(end.length());
      return FrameType.END_OF_CHUNK;
    } else if (message instanceof ChunkWritten written) {
      output.writeLong(written.chunkId());
      writeBytes(output, written.partHandle());
      if (written.storedChecksum().isPresent()) {
        writeChecksum(output, written.storedChecksum().get());
      }
      return FrameType.CHUNK_WRITTEN;
    } else if (message instanceof ChunkDone done) {
      output.writeLong(done.chunkId());
      output.writeLong(done.bytes());
      output.writeLong(done.wireBytes());
      writeBytes(output, done.partHandle());
      if (done.sourceCrc32c().isPresent()) {
        output.writeInt(done.sourceCrc32c().getAsInt());
        if (done.storedChecksum().isPresent()) {
          writeChecksum(output, done.storedChecksum().get());
        }
      }
      return FrameType.CHUNK_DONE;
    } else if (message instanceof ChunkFailed failed) {
      output.writeLong(failed.chunkId());
      output.writeUTF(failed.code().name());
      output.writeUTF(truncate(failed.message()));
      return FrameType.CHUNK_FAILED;
    }
    throw new IllegalArgumentException("no frame for message " + message);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, Frame frame, List<Object> out)
      throws IOException {
    if (frame.type() == FrameType.DATA) {
      out.add(new Data(frame.content().retain()));
      return;
    }
    if (frame.type() == FrameType.COMPRESSED_DATA) {
      out.add(new Data(DataCompression.decompress(frame.content(), ctx.alloc())));
      return;
    }
    ByteBufInputStream input = new ByteBufInputStream(frame.content());
    RelayMessage message;
    try {
      message = read(frame.type(), input);
    } catch (IOException | IllegalArgumentException e) {
      throw new CorruptedFrameException("malformed " + frame.type() + " frame: " + e.getMessage());
    }
    if (input.available() != 0) {
      throw new CorruptedFrameException(
          frame.type() + " frame has " + input.available() + " trailing bytes");
    }
    out.add(message);
  }

  private static RelayMessage read(FrameType type, ByteBufInputStream input) throws IOException {
    return switch (type) {
      case CHALLENGE -> new Challenge(readBytes(input));
      case PROOF -> new Proof(readBytes(input), readBytes(input));
      case AUTHENTICATED -> new Authenticated(readBytes(input));
      case KEEP_ALIVE -> KeepAlive.INSTANCE;
      case TRANSFER -> readTransfer(input);
      case SEND_CHUNK -> readOrder(input);
      case WRITE_CHUNK -> new WriteChunk(readOrder(input));
      case END_OF_CHUNK -> new EndOfChunk(input.readLong(), input.readLong());
      case CHUNK_WRITTEN -> new ChunkWritten(input.readLong(), readBytes(input),
          input.available() > 0 ? Optional.of(readChecksum(input)) : Optional.empty());
      case CHUNK_DONE -> readChunkDone(input);
      case CHUNK_FAILED ->
          new ChunkFailed(input.readLong(), ErrorCode.valueOf(input.readUTF()), input.readUTF());
      case DATA, COMPRESSED_DATA ->
          throw new IllegalStateException("DATA frames are decoded without a copy");
    };
  }

  private static ChunkDone readChunkDone(ByteBufInputStream input) throws IOException {
    long chunkId = input.readLong();
    long bytes = input.readLong();
    long wireBytes = input.readLong();
    byte[] partHandle = readBytes(input);
    if (input.available() < Integer.BYTES) {
      return new ChunkDone(chunkId, bytes, wireBytes, partHandle);
    }
    OptionalInt crc = OptionalInt.of(input.readInt());
    return new ChunkDone(chunkId, bytes, wireBytes, partHandle, crc,
        input.available() > 0 ? Optional.of(readChecksum(input)) : Optional.empty());
  }

  private static Transfer readTransfer(DataInput input) throws IOException {
    String user = input.readUTF();
    URI sourceRoot = URI.create(input.readUTF());
    URI stagingRoot = URI.create(input.readUTF());
    byte[] credentials = readBytes(input);
    int flags = input.readUnsignedByte();
    return new Transfer(user, sourceRoot, stagingRoot, credentials, (flags & 1) != 0,
        (flags & 2) != 0);
  }

  private static void writeChecksum(DataOutput output, StoredChecksum checksum)
      throws IOException {
    output.writeUTF(checksum.algorithm());
    writeBytes(output, checksum.value());
  }

  private static StoredChecksum readChecksum(DataInput input) throws IOException {
    return new StoredChecksum(input.readUTF(), readBytes(input));
  }

  private static void writeOrder(DataOutput output, ChunkOrder order) throws IOException {
    ChunkTarget target = order.target();
    output.writeLong(order.chunkId());
    output.writeUTF(order.source().toString());
    output.writeLong(order.offset());
    output.writeLong(order.length());
    output.writeUTF(order.writerAddress());
    output.writeByte(target.kind().ordinal());
    output.writeUTF(target.path().toString());
    writeBytes(output, target.uploadHandle());
    output.writeInt(target.partNumber());
    output.writeShort(target.replication());
    output.writeLong(target.blockSize());
    output.writeShort(target.favoredDatanodes().size());
    for (DatanodeAddress datanode : target.favoredDatanodes()) {
      output.writeUTF(datanode.toString());
    }
    if (target.times().isPresent()) {
      output.writeLong(target.times().get().modificationTime());
      output.writeLong(target.times().get().accessTime());
    }
  }

  private static ChunkOrder readOrder(ByteBufInputStream input) throws IOException {
    long chunkId = input.readLong();
    URI source = URI.create(input.readUTF());
    long offset = input.readLong();
    long length = input.readLong();
    String writer = input.readUTF();
    int kind = input.readUnsignedByte();
    if (kind >= ChunkTarget.Kind.values().length) {
      throw new IOException("unknown chunk target kind " + kind);
    }
    URI path = URI.create(input.readUTF());
    byte[] uploadHandle = readBytes(input);
    int partNumber = input.readInt();
    short replication = input.readShort();
    long blockSize = input.readLong();
    int favoredCount = input.readUnsignedShort();
    List<DatanodeAddress> favored = new ArrayList<>(favoredCount);
    for (int index = 0; index < favoredCount; index++) {
      favored.add(DatanodeAddress.parse(input.readUTF()));
    }
    Optional<ChunkTarget.Times> times = input.available() > 0
        ? Optional.of(new ChunkTarget.Times(input.readLong(), input.readLong()))
        : Optional.empty();
    ChunkTarget target = new ChunkTarget(ChunkTarget.Kind.values()[kind], path, uploadHandle,
        partNumber, replication, blockSize, favored, times);
    return new ChunkOrder(chunkId, source, offset, length, writer, target);
  }

  private static void writeBytes(DataOutput output, byte[] bytes) throws IOException {
    output.writeInt(bytes.length);
    output.write(bytes);
  }

  private static byte[] readBytes(DataInput input) throws IOException {
    int length = input.readInt();
    if (length < 0 || length > FrameCodec.MAX_PAYLOAD_BYTES) {
      throw new IOException("byte array length " + length + " out of range");
    }
    byte[] bytes = new byte[length];
    input.readFully(bytes);
    return bytes;
  }

  /** writeUTF takes at most 65535 bytes; error messages are cut well below that. */
  private static String truncate(String message) {
    return message.length() > 4000 ? message.substring(0, 4000) + "..." : message;
  }

}
