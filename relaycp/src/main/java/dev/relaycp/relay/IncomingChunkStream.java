package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.relay.RelayMessage.Data;
import dev.relaycp.relay.RelayMessage.EndOfChunk;
import io.netty.buffer.ByteBuf;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.BlockingQueue;

/**
 * The bytes of one chunk as an {@link InputStream}, taken from the DATA messages a writer
 * session queues. End of stream comes only with the chunk's END_OF_CHUNK message and only
 * when exactly the announced number of bytes arrived; anything else (a corrupt frame, a lost
 * connection, too few or too many bytes) is thrown as a {@link ChunkStreamException}, so a
 * FileSystem writer never completes a file or part from a damaged stream.
 */
final class IncomingChunkStream extends InputStream {
  /** Queued in place of a message when the stream must stop. */
  record Stop(ErrorCode code, String reason) {}

  private final BlockingQueue<Object> queue;
  private final long chunkId;
  private final long length;
  private ByteBuf current;
  private long received;
  private boolean ended;
  private ChunkStreamException failure;

  IncomingChunkStream(BlockingQueue<Object> queue, long chunkId, long length) {
    this.queue = requireNonNull(queue, "queue is null");
    this.chunkId = chunkId;
    this.length = length;
  }

  /** The failure this stream threw, or null: tells the stream's faults from the writer's. */
  ChunkStreamException failure() {
    return failure;
  }

  /** Whether END_OF_CHUNK has been consumed. */
  boolean ended() {
    return ended;
  }

  @Override
  public int read() throws ChunkStreamException, InterruptedIOException {
    byte[] one = new byte[1];
    int read = read(one, 0, 1);
    return read < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int count)
      throws ChunkStreamException, InterruptedIOException {
    if (count == 0) {
      return 0;
    }
    while (current == null || !current.isReadable()) {
      if (ended) {
        return -1;
      }
      releaseCurrent();
      if (!advance()) {
        return -1;
      }
    }
    int read = Math.min(count, current.readableBytes());
    current.readBytes(buffer, offset, read);
    return read;
  }

  /** Takes the next message; false at a good end of chunk. */
  private boolean advance() throws ChunkStreamException, InterruptedIOException {
    Object next;
    try {
      next = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while receiving chunk " + chunkId);
    }
    if (next instanceof Data data) {
      current = data.content();
      received += current.readableBytes();
      if (received > length) {
        throw fail(ErrorCode.PROTOCOL_ERROR,
            "chunk " + chunkId + " sent more than its " + length + " bytes");
      }
      return true;
    }
    if (next instanceof EndOfChunk end) {
      ended = true;
      if (end.chunkId() != chunkId || received != length || end.length() != length) {
        throw fail(ErrorCode.PROTOCOL_ERROR, "chunk " + chunkId + " ended after " + received
            + " of " + length + " bytes");
      }
      return false;
    }
    if (next instanceof Stop stop) {
      throw fail(stop.code(), stop.reason());
    }
    throw fail(ErrorCode.PROTOCOL_ERROR,
        "unexpected " + next.getClass().getSimpleName() + " inside chunk " + chunkId);
  }

  private ChunkStreamException fail(ErrorCode code, String message) {
    releaseCurrent();
    failure = new ChunkStreamException(code, message);
    return failure;
  }

  private void releaseCurrent() {
    if (current != null) {
      current.release();
      current = null;
    }
  }

  @Override
  public void close() {
    releaseCurrent();
  }
}
