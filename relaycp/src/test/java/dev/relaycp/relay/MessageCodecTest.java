package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.fs.DatanodeAddress;
import dev.relaycp.relay.RelayMessage.Authenticated;
import dev.relaycp.relay.RelayMessage.Challenge;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkFailed;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.ChunkWritten;
import dev.relaycp.relay.RelayMessage.Data;
import dev.relaycp.relay.RelayMessage.EndOfChunk;
import dev.relaycp.relay.RelayMessage.Proof;
import dev.relaycp.relay.RelayMessage.WriteChunk;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MessageCodecTest {
  private static final ChunkTarget FILE_TARGET =
      ChunkTarget.file(URI.create("hdfs://dst:8020/staging/f"), (short) 3, 128L << 20);
  private static final ChunkTarget PART_TARGET = ChunkTarget.part(
      URI.create("s3a://bucket/staging/big"), new byte[] {9, 8, 7, 6}, 42, (short) 1, 64L << 20);

  private final List<EmbeddedChannel> channels = new ArrayList<>();

  @AfterEach
  void releaseChannels() {
    for (EmbeddedChannel channel : channels) {
      channel.finishAndReleaseAll();
    }
  }

  private EmbeddedChannel newChannel() {
    EmbeddedChannel channel = new EmbeddedChannel(
        FrameCodec.newFrameDecoder(), new FrameCodec(), new MessageCodec());
    channels.add(channel);
    return channel;
  }

  private byte[] encode(Object message) {
    EmbeddedChannel sender = newChannel();
    assertThat(sender.writeOutbound(message)).isTrue();
    ByteBuf all = Unpooled.buffer();
    try {
      ByteBuf part;
      while ((part = sender.readOutbound()) != null) {
        all.writeBytes(part);
        part.release();
      }
      return ByteBufUtil.getBytes(all);
    } finally {
      all.release();
    }
  }

  private byte[] encodeFrame(FrameType type, byte[] payload) {
    EmbeddedChannel sender = new EmbeddedChannel(new FrameCodec());
    channels.add(sender);
    sender.writeOutbound(Frame.of(type, Unpooled.wrappedBuffer(payload)));
    ByteBuf all = Unpooled.buffer();
    try {
      ByteBuf part;
      while ((part = sender.readOutbound()) != null) {
        all.writeBytes(part);
        part.release();
      }
      return ByteBufUtil.getBytes(all);
    } finally {
      all.release();
    }
  }

  @SuppressWarnings("unchecked")
  private <T> T roundTrip(Object message) {
    byte[] bytes = encode(message);
    EmbeddedChannel receiver = newChannel();
    assertThat(receiver.writeInbound(Unpooled.wrappedBuffer(bytes))).isTrue();
    Object decoded = receiver.readInbound();
    assertThat((Object) receiver.readInbound()).isNull();
    return (T) decoded;
  }

  private static ChunkOrder order(ChunkTarget target) {
    return new ChunkOrder(123_456_789_012L, URI.create("hdfs://src:8020/data/part-00000"),
        3L << 30, 256L << 20, "writer.example.com:7070", target);
  }

  private static byte[] payload(IoAction action) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream output = new DataOutputStream(bytes);
    action.write(output);
    output.flush();
    return bytes.toByteArray();
  }

  /** A file order's payload by hand, as the codec's drawing has it, up to its block size. */
  private static void writeOrderUpToBlockSize(DataOutputStream output) throws IOException {
    output.writeLong(1L);
    output.writeUTF("hdfs://src/f");
    output.writeLong(0L);
    output.writeLong(10L);
    output.writeUTF("writer:7070");
    output.writeByte(ChunkTarget.Kind.FILE.ordinal());
    output.writeUTF("hdfs://dst/staging/f");
    output.writeInt(0);
    output.writeInt(0);
    output.writeShort(3);
    output.writeLong(1L << 20);
  }

  private interface IoAction {
    void write(DataOutputStream output) throws IOException;
  }

  @Test
  void chunkOrderWithFileTargetRoundTrips() {
    ChunkOrder order = order(FILE_TARGET);

    ChunkOrder decoded = roundTrip(order);

    assertThat(decoded).isEqualTo(order);
    assertThat(decoded.target().kind()).isEqualTo(ChunkTarget.Kind.FILE);
    assertThat(decoded.target().uploadHandle()).isEmpty();
  }

  @Test
  void chunkOrderWithFavoredDatanodesRoundTripsInTheirOrder() {
    ChunkOrder order = order(FILE_TARGET.favoring(List.of(DatanodeAddress.parse("10.0.1.13:9866"),
        DatanodeAddress.parse("10.0.1.11:9866"), DatanodeAddress.parse("[fd00::2]:9866"))));

    ChunkOrder decoded = roundTrip(order);

    assertThat(decoded).isEqualTo(order);
    assertThat(decoded.target().favoredDatanodes()).map(DatanodeAddress::toString)
        .containsExactly("10.0.1.13:9866", "10.0.1.11:9866", "[fd00::2]:9866");
  }

  @Test
  void chunkOrderWithTimesRoundTripsAndEndsInThem() {
    ChunkOrder order = order(FILE_TARGET.withTimes(
        new ChunkTarget.Times(1_600_000_000_000L, 1_600_000_600_000L)));

    ChunkOrder decoded = roundTrip(order);
    byte[] without = encode(order(FILE_TARGET));
    byte[] with = encode(order);

    assertThat(decoded).isEqualTo(order);
    assertThat(decoded.target().times()).contains(
        new ChunkTarget.Times(1_600_000_000_000L, 1_600_000_600_000L));
    assertThat(with.length - without.length).as("two int64 after the favored datanodes")
        .isEqualTo(16);
  }

  @Test
  void anOrderThatEndsAfterItsFavoredDatanodesHasNoTimes() throws IOException {
    byte[] payload = payload(output -> {
      writeOrderUpToBlockSize(output);
      output.writeShort(0);
    });
    EmbeddedChannel receiver = newChannel();

    assertThat(receiver.writeInbound(
        Unpooled.wrappedBuffer(encodeFrame(FrameType.SEND_CHUNK, payload)))).isTrue();
    ChunkOrder decoded = receiver.readInbound();

    assertThat(decoded.target().times()).isEmpty();
  }

  @Test
  void aFavoredDatanodeWithoutItsPortIsRejected() throws IOException {
    byte[] payload = payload(output -> {
      writeOrderUpToBlockSize(output);
      output.writeShort(1);
      output.writeUTF("10.0.1.13");
    });
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(
            Unpooled.wrappedBuffer(encodeFrame(FrameType.SEND_CHUNK, payload))))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("malformed SEND_CHUNK")
        .hasMessageContaining("a datanode address must be host:port, got '10.0.1.13'");
  }

  @Test
  void chunkOrderWithPartTargetRoundTrips() {
    ChunkOrder order = order(PART_TARGET);

    ChunkOrder decoded = roundTrip(order);

    assertThat(decoded).isEqualTo(order);
    assertThat(decoded.target().kind()).isEqualTo(ChunkTarget.Kind.PART);
    assertThat(decoded.target().uploadHandle()).containsExactly(9, 8, 7, 6);
    assertThat(decoded.target().partNumber()).isEqualTo(42);
  }

  @Test
  void keepAliveIsAnEmptyFrameOfItsOwnType() {
    byte[] frame = encode(RelayMessage.KeepAlive.INSTANCE);

    assertThat(frame[4]).isEqualTo((byte) FrameType.KEEP_ALIVE.code());
    assertThat((Object) roundTrip(RelayMessage.KeepAlive.INSTANCE))
        .isEqualTo(RelayMessage.KeepAlive.INSTANCE);
  }

  @Test
  void chunkOrderTravelsAsSendChunkAndWriteChunkAsWriteChunk() {
    byte[] send = encode(order(FILE_TARGET));
    byte[] write = encode(new WriteChunk(order(FILE_TARGET)));

    assertThat(send[4]).isEqualTo((byte) FrameType.SEND_CHUNK.code());
    assertThat(write[4]).isEqualTo((byte) FrameType.WRITE_CHUNK.code());
  }

  @Test
  void transferRoundTripsWithItsCredentials() {
    RelayMessage.Transfer transfer = new RelayMessage.Transfer("alice",
        URI.create("hdfs://src:8020/data"), URI.create("hdfs://dst:8020/.relaycp-staging-1"),
        new byte[] {'H', 'D', 'T', 'S', 0, 1, 2});

    byte[] frame = encode(transfer);
    RelayMessage.Transfer decoded = roundTrip(transfer);

    assertThat(frame[4]).isEqualTo((byte) FrameType.TRANSFER.code());
    assertThat(decoded).isEqualTo(transfer);
    assertThat(decoded.credentials()).containsExactly('H', 'D', 'T', 'S', 0, 1, 2);
  }

  @Test
  void compressedDataTravelsAsCompressedDataAndArrivesAsItsOriginalBytes() {
    byte[] text = DataCompressionTest.logLines(100_000);
    RelayMessage compressed = DataCompression.compress(Unpooled.wrappedBuffer(text));

    byte[] frame = encode(compressed);
    Data decoded = roundTrip(DataCompression.compress(Unpooled.wrappedBuffer(text)));

    assertThat(frame[4]).isEqualTo((byte) FrameType.COMPRESSED_DATA.code());
    assertThat(frame.length).isLessThan(text.length / 3);
    try {
      assertThat(ByteBufUtil.getBytes(decoded.content())).isEqualTo(text);
    } finally {
      decoded.release();
    }
  }

  @Test
  void aTransferAsksForCompressionInItsFlags() {
    RelayMessage.Transfer transfer = new RelayMessage.Transfer("alice",
        URI.create("hdfs://src:8020/data"), URI.create("hdfs://dst:8020/s"), new byte[0], true);

    RelayMessage.Transfer decoded = roundTrip(transfer);

    assertThat(decoded.compress()).isTrue();
    assertThat(decoded).isEqualTo(transfer);
  }

  @Test
  void writeChunkRoundTrips() {
    WriteChunk write = new WriteChunk(order(PART_TARGET));

    WriteChunk decoded = roundTrip(write);

    assertThat(decoded).isEqualTo(write);
  }

  @Test
  void dataRoundTripsWithItsBytes() {
    byte[] bytes = new byte[5000];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 31);
    }
    Data data = new Data(Unpooled.wrappedBuffer(bytes));

    Data decoded = roundTrip(data);

    try {
      assertThat(ByteBufUtil.getBytes(decoded.content())).isEqualTo(bytes);
      assertThat(decoded.refCnt()).isEqualTo(1);
    } finally {
      ReferenceCountUtil.release(decoded);
    }
    assertThat(data.refCnt()).isZero();
  }

  @Test
  void endOfChunkRoundTrips() {
    EndOfChunk end = new EndOfChunk(7L, Long.MAX_VALUE);

    assertThat((EndOfChunk) roundTrip(end)).isEqualTo(end);
  }

  @Test
  void chunkWrittenRoundTripsWithAndWithoutPartHandle() {
    ChunkWritten withHandle = new ChunkWritten(11L, new byte[] {1, 2, 3, 4, 5});
    ChunkWritten withoutHandle = new ChunkWritten(12L, new byte[0]);

    assertThat((ChunkWritten) roundTrip(withHandle)).isEqualTo(withHandle);
    assertThat((ChunkWritten) roundTrip(withoutHandle)).isEqualTo(withoutHandle);
  }

  @Test
  void chunkDoneRoundTrips() {
    ChunkDone done = new ChunkDone(13L, 1L << 33, 1L << 31, new byte[] {-1, 0, 1});

    ChunkDone decoded = roundTrip(done);

    assertThat(decoded).isEqualTo(done);
    assertThat(decoded.wireBytes()).isEqualTo(1L << 31);
    assertThat(decoded.partHandle()).containsExactly(-1, 0, 1);
    assertThat(decoded.sourceCrc32c()).isEmpty();
  }

  @Test
  void chunkDoneCarriesTheSourceCrcWhenTheReaderKnowsIt() {
    ChunkDone done = new ChunkDone(15L, 65_536, 65_536, new byte[0], OptionalInt.of(0xCAFEBABE));

    ChunkDone decoded = roundTrip(done);

    assertThat(decoded).isEqualTo(done);
    assertThat(decoded.sourceCrc32c()).hasValue(0xCAFEBABE);
    assertThat(decoded).isNotEqualTo(new ChunkDone(15L, 65_536, 65_536, new byte[0]));
  }

  @Test
  void aTransferAsksForStoredChecksumsInBitOneOfItsFlags() throws IOException {
    RelayMessage.Transfer both = new RelayMessage.Transfer("alice",
        URI.create("hdfs://src:8020/data"), URI.create("hdfs://dst:8020/s"), new byte[0], true,
        true);
    byte[] payload = payload(output -> {
      output.writeUTF("alice");
      output.writeUTF("hdfs://src:8020/data");
      output.writeUTF("hdfs://dst:8020/s");
      output.writeInt(0);
      output.writeByte(2);
    });
    EmbeddedChannel receiver = newChannel();

    receiver.writeInbound(Unpooled.wrappedBuffer(encodeFrame(FrameType.TRANSFER, payload)));

    RelayMessage.Transfer decoded = receiver.readInbound();
    assertThat(decoded.storedChecksums()).isTrue();
    assertThat(decoded.compress()).isFalse();
    assertThat((RelayMessage.Transfer) roundTrip(both)).isEqualTo(both);
    assertThat(((RelayMessage.Transfer) roundTrip(new RelayMessage.Transfer("alice",
        URI.create("hdfs://src:8020/data"), URI.create("hdfs://dst:8020/s"), new byte[0])))
        .storedChecksums()).isFalse();
  }

  @Test
  void chunkWrittenCarriesTheStoredChecksumWhenTheWriterHasOne() {
    StoredChecksum stored = new StoredChecksum("COMPOSITE-CRC32C", new byte[] {1, 2, 3, 4});
    ChunkWritten written = new ChunkWritten(16L, new byte[0], Optional.of(stored));

    ChunkWritten decoded = roundTrip(written);

    assertThat(decoded).isEqualTo(written);
    assertThat(decoded.storedChecksum()).contains(stored);
    assertThat(((ChunkWritten) roundTrip(new ChunkWritten(16L, new byte[0]))).storedChecksum())
        .isEmpty();
  }

  @Test
  void chunkDoneCarriesTheStoredChecksumAfterTheSourceCrc() {
    StoredChecksum stored = new StoredChecksum("COMPOSITE-CRC32C", new byte[] {9, 8, 7, 6});
    ChunkDone done = new ChunkDone(17L, 65_536, 65_536, new byte[0], OptionalInt.of(0x0BADF00D),
        Optional.of(stored));

    ChunkDone decoded = roundTrip(done);

    assertThat(decoded).isEqualTo(done);
    assertThat(decoded.sourceCrc32c()).hasValue(0x0BADF00D);
    assertThat(decoded.storedChecksum()).contains(stored);
    assertThat(decoded).isNotEqualTo(
        new ChunkDone(17L, 65_536, 65_536, new byte[0], OptionalInt.of(0x0BADF00D)));
  }

  @Test
  void aStoredChecksumNeedsASourceCrc() {
    assertThatThrownBy(() -> new ChunkDone(18L, 1, 1, new byte[0], OptionalInt.empty(),
        Optional.of(new StoredChecksum("COMPOSITE-CRC32C", new byte[4]))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("source CRC");
  }

  @Test
  void chunkFailedRoundTripsWithItsErrorCode() {
    ChunkFailed failed =
        new ChunkFailed(14L, ErrorCode.VERIFICATION_FAILED, "checksum \u00fc\u2260 mismatch");

    ChunkFailed decoded = roundTrip(failed);

    assertThat(decoded).isEqualTo(failed);
    assertThat(decoded.code()).isEqualTo(ErrorCode.VERIFICATION_FAILED);
  }

  @Test
  void challengeRoundTrips() {
    byte[] nonce = TransferSecret.newNonce();

    Challenge decoded = roundTrip(new Challenge(nonce));

    assertThat(decoded.nonce()).isEqualTo(nonce);
  }

  @Test
  void proofRoundTrips() {
    byte[] mac = TransferSecret.generate().prove(new byte[] {1, 2, 3});

    byte[] nonce = TransferSecret.newNonce();

    Proof decoded = roundTrip(new Proof(mac, nonce));

    assertThat(decoded.mac()).isEqualTo(mac);
    assertThat(decoded.nonce()).isEqualTo(nonce);
  }

  @Test
  void authenticatedRoundTripsWithTheRelaysProof() {
    byte[] mac = TransferSecret.generate().prove(new byte[] {4, 5, 6});

    byte[] bytes = encode(new Authenticated(mac));

    assertThat(bytes).hasSize(4 + 1 + 4 + mac.length + 4);
    assertThat(((Authenticated) roundTrip(new Authenticated(mac))).mac()).isEqualTo(mac);
  }

  @Test
  void chunkFailedWithAVeryLongMessageIsTruncatedNotFailed() {
    String message = "x".repeat(5_000) + "y".repeat(5_000);

    ChunkFailed decoded = roundTrip(new ChunkFailed(15L, ErrorCode.IO_ERROR, message));

    assertThat(decoded.chunkId()).isEqualTo(15L);
    assertThat(decoded.code()).isEqualTo(ErrorCode.IO_ERROR);
    assertThat(decoded.message()).hasSizeLessThan(message.length());
    assertThat(decoded.message()).startsWith("x".repeat(4_000)).endsWith("...");
  }

  @Test
  void chunkFailedWithAVeryLongMultiByteMessageIsTruncatedNotFailed() {
    String message = "\u20ac".repeat(30_000);

    ChunkFailed decoded = roundTrip(new ChunkFailed(16L, ErrorCode.IO_ERROR, message));

    assertThat(decoded.message()).startsWith("\u20ac".repeat(1_000)).endsWith("...");
  }

  @Test
  void trailingBytesInAControlFrameAreRejected() throws IOException {
    byte[] payload = payload(output -> {
      output.writeLong(1L);
      output.writeLong(2L);
      output.writeByte(0);
    });
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(
            Unpooled.wrappedBuffer(encodeFrame(FrameType.END_OF_CHUNK, payload))))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("1 trailing bytes");
    assertThat((Object) receiver.readInbound()).isNull();
  }

  @Test
  void trailingBytesInAnAuthenticatedFrameAreRejected() {
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(
            Unpooled.wrappedBuffer(encodeFrame(FrameType.AUTHENTICATED,
                new byte[] {0, 0, 0, 1, 7, 0}))))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("trailing bytes");
  }

  @Test
  void truncatedControlFrameIsRejected() {
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(
            Unpooled.wrappedBuffer(encodeFrame(FrameType.END_OF_CHUNK, new byte[12]))))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("malformed END_OF_CHUNK");
  }

  @Test
  void unknownErrorCodeIsRejected() throws IOException {
    byte[] payload = payload(output -> {
      output.writeLong(1L);
      output.writeUTF("NOT_A_CODE");
      output.writeUTF("boom");
    });
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(
            Unpooled.wrappedBuffer(encodeFrame(FrameType.CHUNK_FAILED, payload))))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("malformed CHUNK_FAILED");
  }

  @Test
  void negativeByteArrayLengthIsRejected() throws IOException {
    byte[] payload = payload(output -> output.writeInt(-1));
    EmbeddedChannel receiver = newChannel();

    assertThatThrownBy(() -> receiver.writeInbound(
            Unpooled.wrappedBuffer(encodeFrame(FrameType.CHALLENGE, payload))))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("out of range");
  }
}
