package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.fs.HadoopChunkWriter;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.relay.IncomingChunkStream.Stop;
import dev.relaycp.relay.RelayMessage.ChunkFailed;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.ChunkWritten;
import dev.relaycp.relay.RelayMessage.Data;
import dev.relaycp.relay.RelayMessage.EndOfChunk;
import dev.relaycp.relay.RelayMessage.WriteChunk;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer's side of a connection from a reader relay: WRITE_CHUNK, DATA..., END_OF_CHUNK,
 * repeated. Messages go into a queue that one worker thread drains into the destination
 * FileSystem, chunk after chunk, answering CHUNK_WRITTEN or CHUNK_FAILED for each in order.
 *
 * <p>Every chunk is checked against the connection's {@link TransferScope} and written as its
 * caller.
 *
 * <p>Back-pressure: the channel does not read by itself (auto-read is off). The handler asks
 * for the next read only while fewer than {@link #HIGH_WATER_BYTES} are queued; the worker
 * asks again once it has drained below {@link #LOW_WATER_BYTES}. So a slow destination slows
 * the TCP stream down to the reader, and memory per stream stays bounded by the high mark
 * plus one socket read, however large the chunk.
 *
 * <p>A corrupt frame makes the rest of the byte stream untrustworthy: the current chunk is
 * answered CORRUPT_FRAME (so the driver re-sends it) and the connection is closed.
 */
final class WriterSessionHandler extends SimpleChannelInboundHandler<RelayMessage> {
  static final long HIGH_WATER_BYTES = 2L << 20;
  static final long LOW_WATER_BYTES = 1L << 20;
  private static final Logger LOG = LoggerFactory.getLogger(WriterSessionHandler.class);

  private final TransferScope scope;
  private final HadoopChunkWriter writer;
  private final Executor workers;
  private final RelayCounters counters;
  private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final AtomicLong queuedBytes = new AtomicLong();
  private Channel channel;
  /** Written on the event loop only; read by the worker to skip needless wake-ups. */
  private volatile boolean suspended;
  private boolean stopped;

  WriterSessionHandler(TransferScope scope, HadoopChunkWriter writer, Executor workers,
      RelayCounters counters) {
    super(false);
    this.scope = requireNonNull(scope, "scope is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.workers = requireNonNull(workers, "workers is null");
    this.counters = requireNonNull(counters, "counters is null");
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    workers.execute(this::drain);
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
    if (stopped) {
      ReferenceCountUtil.release(message);
      return;
    }
    if (message instanceof Data data) {
      queuedBytes.addAndGet(data.content().readableBytes());
    }
    queue.add(message);
    if (queuedBytes.get() < HIGH_WATER_BYTES) {
      ctx.read();
    } else {
      suspended = true;
    }
  }

  /** Runs on the event loop when the worker has drained below the low mark. */
  private void resumeIfSuspended() {
    if (suspended && !stopped && queuedBytes.get() < HIGH_WATER_BYTES) {
      suspended = false;
      channel.read();
    }
  }

  private void consumed(long bytes) {
    if (queuedBytes.addAndGet(-bytes) < LOW_WATER_BYTES && suspended) {
      channel.eventLoop().execute(this::resumeIfSuspended);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof DecoderException) {
      counters.corruptFrame();
      LOG.warn("Corrupt frame from {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
      stop(new Stop(ErrorCode.CORRUPT_FRAME, "corrupt frame: " + cause.getMessage()));
    } else {
      LOG.warn("Connection from {} failed", ctx.channel().remoteAddress(), cause);
      stop(new Stop(ErrorCode.CHUNK_FAILED, "connection failed: " + cause.getMessage()));
      ctx.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    stop(new Stop(ErrorCode.CHUNK_FAILED, "connection from the reader relay closed"));
    ctx.fireChannelInactive();
  }

  private void stop(Stop stop) {
    if (!stopped) {
      stopped = true;
      queue.add(stop);
    }
  }

  /** The worker: one chunk at a time, in arrival order, until the connection stops. */
  private void drain() {
    try {
      while (true) {
        Object next = queue.take();
        if (next instanceof Stop) {
          return;
        }
        if (next instanceof WriteChunk write) {
          if (!writeChunk(write.order())) {
            return;
          }
        } else {
          // Bytes of a chunk that already failed; its failure has been answered.
          if (next instanceof Data data) {
            consumed(data.content().readableBytes());
          }
          ReferenceCountUtil.release(next);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      releaseQueued();
    }
  }

  /** Writes one chunk and answers for it; false when the connection must end. */
  private boolean writeChunk(ChunkOrder order) {
    IncomingChunkStream bytes = new IncomingChunkStream(queue, order.chunkId(), order.length());
    QueueAccounting accounting = new QueueAccounting(bytes);
    long started = System.nanoTime();
    try {
      scope.checkTarget(order.target());
      byte[] partHandle =
          scope.asCaller(() -> writer.write(order.target(), accounting, order.length()));
      counters.chunkWritten(order.length());
      LOG.debug("Chunk {}: {} bytes written to {} in {} ms", order.chunkId(), order.length(),
          order.target().path(), (System.nanoTime() - started) / 1_000_000);
      Optional<StoredChecksum> checksum = storedChecksum(order);
      // After the checksum: reading a file may move its access time on.
      giveTimes(order);
      channel.writeAndFlush(new ChunkWritten(order.chunkId(), partHandle, checksum));
      return true;
    } catch (IOException | RelayCpException | IllegalArgumentException e) {
      ChunkStreamException streamFailure = bytes.failure();
      if (streamFailure != null) {
        // The byte stream itself is broken: answer for this chunk if the connection still
        // stands, then close it; the reader fails whatever else it had sent on it.
        if (channel.isActive()) {
          channel.writeAndFlush(new ChunkFailed(
                  order.chunkId(), streamFailure.code(), streamFailure.getMessage()))
              .addListener(ChannelFutureListener.CLOSE);
        }
        return false;
      }
      ErrorCode code = e instanceof RelayCpException relay ? relay.code()
          : e instanceof IOException io ? HadoopFailures.translate(io, "writing").code()
          : ErrorCode.IO_ERROR;
      LOG.warn("Writing chunk {} to {} failed", order.chunkId(), order.target().path(), e);
      if (!bytes.ended() && !skipToEndOfChunk()) {
        return false;
      }
      channel.writeAndFlush(new ChunkFailed(order.chunkId(), code,
          "writing " + order.target().path() + " failed: " + e.getMessage()));
      return true;
    } finally {
      bytes.close();
    }
  }

  /**
   * The written file's checksum as the destination gives it, where the transfer asked for it
   * and the chunk was a file of its own: asked here, inside the destination's site, so that
   * the driver need not ask across the WAN, a round trip or more for every file. Empty
   * otherwise, and where the destination gave none or the call failed: the driver then asks
   * itself, so that does not fail the chunk.
   */
  private Optional<StoredChecksum> storedChecksum(ChunkOrder order) {
    if (!scope.transfer().storedChecksums() || order.target().kind() != ChunkTarget.Kind.FILE) {
      return Optional.empty();
    }
    try {
      return scope.asCaller(() -> writer.storedChecksum(order.target()))
          .map(checksum -> new StoredChecksum(checksum.getAlgorithmName(), checksum.getBytes()));
    } catch (IOException | RuntimeException e) {
      LOG.debug("No checksum of {} for its driver: {}", order.target().path(), e.toString());
      return Optional.empty();
    }
  }

  /**
   * Gives a file the times its order carries, its source's: set here, inside the destination's
   * site, the driver need not set them across the WAN when it commits the file (it sets them
   * where the staged file's listing shows other times). A failure does not fail the chunk: the
   * driver then sets them, or reports them not kept.
   */
  private void giveTimes(ChunkOrder order) {
    if (order.target().times().isEmpty()) {
      return;
    }
    try {
      scope.asCaller(() -> {
        writer.setTimes(order.target());
        return null;
      });
    } catch (IOException | RuntimeException e) {
      LOG.debug("Times of {} left to the driver: {}", order.target().path(), e.toString());
    }
  }

  /** Discards the rest of a failed chunk; false when the connection stopped first. */
  private boolean skipToEndOfChunk() {
    try {
      while (true) {
        Object next = queue.take();
        if (next instanceof EndOfChunk) {
          return true;
        }
        if (next instanceof Stop) {
          return false;
        }
        if (next instanceof Data data) {
          consumed(data.content().readableBytes());
        }
        ReferenceCountUtil.release(next);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void releaseQueued() {
    Object left;
    while ((left = queue.poll()) != null) {
      ReferenceCountUtil.release(left);
    }
  }

  /** Counts bytes out of the queue as the FileSystem reads them, to drive back-pressure. */
  private final class QueueAccounting extends java.io.FilterInputStream {
    QueueAccounting(IncomingChunkStream bytes) {
      super(bytes);
    }

    @Override
    public int read() throws IOException {
      int value = super.read();
      if (value >= 0) {
        consumed(1);
      }
      return value;
    }

    @Override
    public int read(byte[] buffer, int offset, int count) throws IOException {
      int read = super.read(buffer, offset, count);
      if (read > 0) {
        consumed(read);
      }
      return read;
    }
  }
}
