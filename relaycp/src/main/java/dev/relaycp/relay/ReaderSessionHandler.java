package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.fs.HadoopRangeReader;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkFailed;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.ChunkWritten;
import dev.relaycp.relay.RelayMessage.Data;
import dev.relaycp.relay.RelayMessage.EndOfChunk;
import dev.relaycp.relay.RelayMessage.WriteChunk;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader's side of a connection from the driver: each SEND_CHUNK is read from the source
 * FileSystem and streamed to the writer relay it names, and answered CHUNK_DONE once the
 * writer has written it, or CHUNK_FAILED with the reason. The driver may send several ahead, so
 * that small files do not each wait a round trip. Up to {@code parallelStreams} orders are read
 * at once. Each chunk goes on a connection to the writer that has no chunk unanswered (a new
 * one when every open one is busy), so one file's close, which waits for the destination's
 * pipeline, never holds up the next; connections are kept for the session, so there are as
 * many as the driver has chunks outstanding at its busiest.
 *
 * <p>Every order is checked against the connection's {@link TransferScope} and read as its
 * caller; each connection to a writer begins with the same TRANSFER, so the writer does the
 * same.
 *
 * <p>Back-pressure: the reading thread waits for the writer connection to be writable before
 * each DATA frame, so at most the channel's high water mark is queued in memory.
 */
final class ReaderSessionHandler extends SimpleChannelInboundHandler<RelayMessage> {
  private static final Logger LOG = LoggerFactory.getLogger(ReaderSessionHandler.class);
  /** How long to keep trying a writer that answered before and is gone now. */
  private static final long WRITER_WAIT_SECONDS = 5;
  /**
   * How long to keep trying a writer never reached yet. Every route's writer listened before
   * the route joined (YARN's relays announce themselves once they listen, spawned ones have
   * answered the driver, running ones are named as running), so one that does not answer
   * within a few of TCP's retries is gone or cannot be reached from here: its chunks fail at
   * once (RELAY_UNREACHABLE) and the driver drops the route, rather than the route stalling
   * until the driver's stall deadline.
   */
  private static final long WRITER_FIRST_WAIT_SECONDS = 15;

  private final TransferScope scope;
  private final RelayConnector connector;
  private final HadoopRangeReader reader;
  private final RelayCounters counters;
  private final int dataFrameBytes;
  /** The relay's limit on what it sends, shared by all its sessions. */
  private final SendRateLimit limit;
  private final ExecutorService streams;
  private final Map<RelayAddress, java.util.concurrent.BlockingDeque<WriterLink>> idleLinks =
      new ConcurrentHashMap<>();
  private final java.util.Set<WriterLink> allLinks = ConcurrentHashMap.newKeySet();
  private final java.util.Set<RelayAddress> writersReached = ConcurrentHashMap.newKeySet();
  private Channel driver;

  ReaderSessionHandler(
      TransferScope scope,
      RelayConnector connector,
      HadoopRangeReader reader,
      RelayCounters counters,
      int dataFrameBytes,
      int parallelStreams,
      SendRateLimit limit,
      ThreadFactory threads) {
    this.scope = requireNonNull(scope, "scope is null");
    this.limit = requireNonNull(limit, "limit is null");
    this.connector = requireNonNull(connector, "connector is null");
    this.reader = requireNonNull(reader, "reader is null");
    this.counters = requireNonNull(counters, "counters is null");
    this.dataFrameBytes = dataFrameBytes;
    this.streams = Executors.newFixedThreadPool(parallelStreams, threads);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    driver = ctx.channel();
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, RelayMessage message) {
    if (message instanceof ChunkOrder order) {
      streams.execute(() -> send(order));
      ctx.read();
    } else {
      LOG.warn("Closing connection from {}: unexpected {}", ctx.channel().remoteAddress(),
          message.getClass().getSimpleName());
      ctx.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    streams.shutdownNow();
    allLinks.forEach(link -> link.connection.close());
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.warn("Closing connection from the driver at {}: {}", ctx.channel().remoteAddress(),
        cause.getMessage());
    ctx.close();
  }

  private void send(ChunkOrder order) {
    WriterLink link;
    try {
      scope.checkSource(order.source());
      scope.checkTarget(order.target());
      link = linkTo(RelayAddress.parse(order.writerAddress()));
    } catch (RelayCpException e) {
      driver.writeAndFlush(new ChunkFailed(order.chunkId(), e.code(), e.getMessage()));
      return;
    }
    CompletableFuture<ChunkWritten> written = link.expect(order.chunkId());
    CompletableFuture<Void> streamed = new CompletableFuture<>();
    // A writer drains each connection one chunk after another, and closing a file waits for
    // the destination to acknowledge its block: a chunk sent behind an unanswered one would
    // wait for that close. So a link takes its next chunk only once its last is answered.
    written.handle((done, failure) -> null)
        .thenCombine(streamed, (answered, sent) -> null)
        .thenRun(() -> release(link));
    try {
      stream(order, link, written);
    } finally {
      streamed.complete(null);
    }
  }

  private void stream(ChunkOrder order, WriterLink link,
      CompletableFuture<ChunkWritten> written) {
    AtomicLong wireBytes = new AtomicLong();
    // Set before END_OF_CHUNK goes, so before the writer can answer; read when it has.
    AtomicInteger sourceCrc = new AtomicInteger();
    boolean compress = scope.transfer().compress();
    written.whenComplete((done, failure) -> driver.writeAndFlush(done != null
        ? new ChunkDone(order.chunkId(), order.length(), wireBytes.get(), done.partHandle(),
            OptionalInt.of(sourceCrc.get()), done.storedChecksum())
        : failedMessage(order.chunkId(), failure)));
    long started = System.nanoTime();
    // WRITE_CHUNK goes with the first DATA frame and END_OF_CHUNK with the last, so a small
    // file is one send, not three.
    List<RelayMessage> unsent = new ArrayList<>(3);
    unsent.add(new WriteChunk(order));
    try (InputStream source =
        scope.asCaller(() -> reader.open(order.source(), order.offset()))) {
      long remaining = order.length();
      CRC32C crc = new CRC32C();
      while (remaining > 0) {
        int size = (int) Math.min(dataFrameBytes, remaining);
        ByteBuf bytes = readFully(source, size, order);
        crc.update(bytes.nioBuffer());
        RelayMessage frame = compress ? DataCompression.compress(bytes) : new Data(bytes);
        unsent.add(frame);
        int frameBytes = ((ByteBufHolder) frame).content().readableBytes();
        wireBytes.addAndGet(frameBytes);
        limit.acquire(frameBytes);
        remaining -= size;
        if (remaining > 0) {
          link.connection.awaitWritable();
          sendAll(link, unsent);
        }
      }
      sourceCrc.set((int) crc.getValue());
      unsent.add(new EndOfChunk(order.chunkId(), order.length()));
      link.connection.awaitWritable();
      sendAll(link, unsent);
      counters.chunkRead();
      LOG.debug("Chunk {}: {} bytes of {} streamed to {} in {} ms", order.chunkId(),
          order.length(), order.source(), link.address, (System.nanoTime() - started) / 1_000_000);
    } catch (RelayCpException e) {
      abandon(link, written, e);
    } catch (IOException e) {
      abandon(link, written, written.isDone()
          ? new RelayCpException(ErrorCode.CHUNK_FAILED, e.getMessage(), e)
          : HadoopFailures.translate(e, "reading " + order.source()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abandon(link, written, new RelayCpException(ErrorCode.INTERRUPTED, "relay stopping"));
    } finally {
      unsent.forEach(ReferenceCountUtil::release);
    }
  }

  private static void sendAll(WriterLink link, List<RelayMessage> messages) {
    link.connection.sendTogether(messages);
    messages.clear();
  }

  private ByteBuf readFully(InputStream source, int size, ChunkOrder order) throws IOException {
    ByteBuf bytes = ByteBufAllocator.DEFAULT.heapBuffer(size, size);
    try {
      while (bytes.isWritable()) {
        if (bytes.writeBytes(source, bytes.writableBytes()) < 0) {
          throw new RelayCpException(ErrorCode.IO_ERROR, order.source() + " ended before offset "
              + (order.offset() + order.length()) + "; was it changed during the copy?");
        }
      }
      return bytes;
    } catch (IOException | RuntimeException e) {
      bytes.release();
      throw e;
    }
  }

  /** The writer holds part of a chunk that will never be finished: drop the connection. */
  private void abandon(WriterLink link, CompletableFuture<ChunkWritten> written,
      RelayCpException failure) {
    written.completeExceptionally(failure);
    link.connection.close();
  }

  private static ChunkFailed failedMessage(long chunkId, Throwable failure) {
    Throwable cause = failure instanceof java.util.concurrent.CompletionException
        ? failure.getCause()
        : failure;
    if (cause instanceof RelayCpException relay) {
      return new ChunkFailed(chunkId, relay.code(), relay.getMessage());
    }
    return new ChunkFailed(chunkId, ErrorCode.CHUNK_FAILED, String.valueOf(cause.getMessage()));
  }

  /** An idle open connection to the writer, or a new one; each stream uses its own. */
  private WriterLink linkTo(RelayAddress address) {
    java.util.concurrent.BlockingDeque<WriterLink> idle =
        idleLinks.computeIfAbsent(address, ignored -> new java.util.concurrent.LinkedBlockingDeque<>());
    WriterLink link;
    while ((link = idle.pollFirst()) != null) {
      if (link.connection.isOpen()) {
        return link;
      }
      allLinks.remove(link);
    }
    WriterLink fresh = new WriterLink(address);
    try {
      long waitSeconds =
          writersReached.contains(address) ? WRITER_WAIT_SECONDS : WRITER_FIRST_WAIT_SECONDS;
      long started = System.nanoTime();
      try {
        fresh.connection = connector.connectWaiting(address, fresh, waitSeconds, 500);
      } catch (RelayCpException e) {
        InetSocketAddress here = (InetSocketAddress) driver.localAddress();
        String reader = "the reader relay at " + here.getAddress().getHostAddress() + ":"
            + here.getPort();
        if (e.code() == ErrorCode.RELAY_UNREACHABLE) {
          Throwable cause = e.getCause() == null ? e : e.getCause();
          throw new RelayCpException(ErrorCode.RELAY_UNREACHABLE, reader
              + " cannot reach writer relay " + address + " (" + cause.getMessage() + ")", e);
        }
        if (e.code() == ErrorCode.RELAY_AUTHENTICATION_FAILED) {
          throw new RelayCpException(ErrorCode.RELAY_AUTHENTICATION_FAILED, "writer relay "
              + address + " refused " + reader + " in the handshake: the two were started"
              + " with different secrets or relaycp.relay.tls settings, or the writer stopped;"
              + " give the copy the running relays' --secret-file", e);
        }
        throw e;
      }
      fresh.connection.send(scope.transfer());
      writersReached.add(address);
      LOG.debug("Connected to writer relay {} in {} ms ({} connections open)", address,
          (System.nanoTime() - started) / 1_000_000, allLinks.size() + 1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "relay stopping");
    }
    allLinks.add(fresh);
    return fresh;
  }

  /** {@code link} has sent its chunk and had its answer: it is free for the next. */
  private void release(WriterLink link) {
    if (link.connection.isOpen()) {
      idleLinks.get(link.address).addFirst(link);
    } else {
      allLinks.remove(link);
    }
  }

  /** One connection to a writer relay and the chunks sent on it still waiting for an answer. */
  private static final class WriterLink implements RelayConnection.Listener {
    private final RelayAddress address;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private RelayConnection connection;

    private record Pending(long chunkId, CompletableFuture<ChunkWritten> written) {}

    WriterLink(RelayAddress address) {
      this.address = address;
    }

    synchronized CompletableFuture<ChunkWritten> expect(long chunkId) {
      CompletableFuture<ChunkWritten> written = new CompletableFuture<>();
      pending.add(new Pending(chunkId, written));
      return written;
    }

    @Override
    public void onMessage(RelayMessage message) {
      Pending first;
      synchronized (this) {
        first = pending.poll();
      }
      try {
        if (first == null) {
          LOG.warn("Writer relay {} answered for no chunk: {}", address, message);
        } else if (message instanceof ChunkWritten written && written.chunkId() == first.chunkId) {
          first.written.complete(written);
        } else if (message instanceof ChunkFailed failed && failed.chunkId() == first.chunkId) {
          first.written.completeExceptionally(
              new RelayCpException(failed.code(), failed.message()));
        } else {
          first.written.completeExceptionally(new RelayCpException(ErrorCode.PROTOCOL_ERROR,
              "writer relay " + address + " answered " + message + " for chunk "
                  + first.chunkId));
        }
      } finally {
        ReferenceCountUtil.release(message);
      }
    }

    @Override
    public void onClosed(Throwable cause) {
      // A writer that fell silent is gone for this route: RELAY_UNREACHABLE drops the route,
      // where a mere CHUNK_FAILED would send the chunk again, maybe to the same writer.
      ErrorCode code = cause instanceof RelayCpException relay
          && relay.code() == ErrorCode.RELAY_UNREACHABLE
          ? ErrorCode.RELAY_UNREACHABLE : ErrorCode.CHUNK_FAILED;
      RelayCpException failure = new RelayCpException(code,
          "connection to writer relay " + address + " closed"
              + (cause == null ? "" : ": " + cause.getMessage()));
      synchronized (this) {
        pending.forEach(waiting -> waiting.written.completeExceptionally(failure));
        pending.clear();
      }
    }
  }
}
