package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.relay.RelayMessage.Data;
import dev.relaycp.relay.RelayMessage.EndOfChunk;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

class IncomingChunkStreamTest {
  private static final long CHUNK = 42L;

  private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final List<ByteBuf> buffers = new ArrayList<>();

  private void data(byte[] bytes) {
    ByteBuf buffer = Unpooled.wrappedBuffer(bytes);
    buffers.add(buffer);
    queue.add(new Data(buffer));
  }

  private static byte[] bytes(int from, int count) {
    byte[] bytes = new byte[count];
    for (int i = 0; i < count; i++) {
      bytes[i] = (byte) (from + i);
    }
    return bytes;
  }

  private static byte[] readAll(IncomingChunkStream stream) throws IOException {
    byte[] buffer = new byte[7];
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    int read;
    while ((read = stream.read(buffer, 0, buffer.length)) != -1) {
      all.write(buffer, 0, read);
    }
    return all.toByteArray();
  }

  @Test
  void readsTheExactBytesThenEndOfStream() throws IOException {
    byte[] first = bytes(0, 10);
    byte[] second = bytes(10, 25);
    data(first);
    data(second);
    queue.add(new EndOfChunk(CHUNK, 35));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 35);

    byte[] read = readAll(stream);

    assertThat(read).isEqualTo(bytes(0, 35));
    assertThat(stream.read()).isEqualTo(-1);
    assertThat(stream.read(new byte[4], 0, 4)).isEqualTo(-1);
    assertThat(stream.ended()).isTrue();
    assertThat(stream.failure()).isNull();
    assertThat(buffers).allSatisfy(buffer -> assertThat(buffer.refCnt()).isZero());
  }

  @Test
  void singleByteReadsReturnUnsignedValues() throws IOException {
    data(new byte[] {(byte) 0xff, 0x00, 0x7f});
    queue.add(new EndOfChunk(CHUNK, 3));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 3);

    assertThat(stream.read()).isEqualTo(0xff);
    assertThat(stream.read()).isEqualTo(0x00);
    assertThat(stream.read()).isEqualTo(0x7f);
    assertThat(stream.read()).isEqualTo(-1);
  }

  @Test
  void emptyChunkEndsAtOnce() throws IOException {
    queue.add(new EndOfChunk(CHUNK, 0));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 0);

    assertThat(stream.read()).isEqualTo(-1);
    assertThat(stream.ended()).isTrue();
  }

  @Test
  void tooFewBytesBeforeEndOfChunkIsAProtocolError() throws IOException {
    data(bytes(0, 9));
    queue.add(new EndOfChunk(CHUNK, 10));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 10);
    byte[] buffer = new byte[100];
    assertThat(stream.read(buffer, 0, buffer.length)).isEqualTo(9);

    assertThatThrownBy(() -> stream.read(buffer, 0, buffer.length))
        .isInstanceOfSatisfying(ChunkStreamException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PROTOCOL_ERROR))
        .hasMessageContaining("9 of 10");
    assertThat(stream.failure()).isNotNull();
  }

  @Test
  void endOfChunkAnnouncingAnotherLengthIsAProtocolError() {
    data(bytes(0, 10));
    queue.add(new EndOfChunk(CHUNK, 11));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 10);

    assertThatThrownBy(() -> readAll(stream))
        .isInstanceOfSatisfying(ChunkStreamException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PROTOCOL_ERROR));
  }

  @Test
  void endOfAnotherChunkIsAProtocolError() {
    data(bytes(0, 10));
    queue.add(new EndOfChunk(CHUNK + 1, 10));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 10);

    assertThatThrownBy(() -> readAll(stream))
        .isInstanceOfSatisfying(ChunkStreamException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PROTOCOL_ERROR));
  }

  @Test
  void tooManyBytesIsAProtocolErrorAndReleasesTheBuffer() {
    data(bytes(0, 6));
    data(bytes(6, 6));
    queue.add(new EndOfChunk(CHUNK, 12));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 10);

    assertThatThrownBy(() -> readAll(stream))
        .isInstanceOfSatisfying(ChunkStreamException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PROTOCOL_ERROR))
        .hasMessageContaining("more than its 10 bytes");
    assertThat(stream.ended()).isFalse();
    assertThat(buffers).allSatisfy(buffer -> assertThat(buffer.refCnt()).isZero());
  }

  @Test
  void extraDataAfterTheAnnouncedLengthIsAProtocolError() throws IOException {
    data(bytes(0, 10));
    data(bytes(10, 1));
    queue.add(new EndOfChunk(CHUNK, 10));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 10);
    byte[] buffer = new byte[10];
    assertThat(stream.read(buffer, 0, 10)).isEqualTo(10);

    assertThatThrownBy(stream::read)
        .isInstanceOfSatisfying(ChunkStreamException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PROTOCOL_ERROR));
  }

  @Test
  void stopInTheQueueThrowsItsCodeAndIsRecordedAsTheFailure() {
    data(bytes(0, 4));
    queue.add(new IncomingChunkStream.Stop(ErrorCode.CORRUPT_FRAME, "x"));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 10);

    Throwable thrown = catchThrowable(() -> readAll(stream));

    assertThat(thrown).isInstanceOf(ChunkStreamException.class).hasMessage("x");
    assertThat(((ChunkStreamException) thrown).code()).isEqualTo(ErrorCode.CORRUPT_FRAME);
    assertThat(stream.failure()).isSameAs(thrown);
  }

  @Test
  void unexpectedMessageInsideAChunkIsAProtocolError() {
    queue.add(new RelayMessage.Authenticated(new byte[32]));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 10);

    assertThatThrownBy(stream::read)
        .isInstanceOfSatisfying(ChunkStreamException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PROTOCOL_ERROR))
        .hasMessageContaining("Authenticated");
  }

  @Test
  void interruptionWhileWaitingIsAnInterruptedIoException() {
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 10);
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(stream::read).isInstanceOf(InterruptedIOException.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void closeReleasesAPartlyReadBuffer() throws IOException {
    data(bytes(0, 10));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, 10);
    assertThat(stream.read()).isZero();

    stream.close();

    assertThat(buffers.get(0).refCnt()).isZero();
  }

  @Test
  void readsAcrossManyDataMessagesInOrder() throws IOException {
    byte[] expected = bytes(0, 1000);
    for (int from = 0; from < expected.length; from += 33) {
      data(Arrays.copyOfRange(expected, from, Math.min(from + 33, expected.length)));
    }
    queue.add(new EndOfChunk(CHUNK, expected.length));
    IncomingChunkStream stream = new IncomingChunkStream(queue, CHUNK, expected.length);

    assertThat(readAll(stream)).isEqualTo(expected);
  }
}
