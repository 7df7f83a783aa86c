package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayConnection;
import dev.relaycp.relay.RelayConnector;
import dev.relaycp.relay.RelayMessage;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkFailed;
import dev.relaycp.relay.RelayMessage.Transfer;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one route: takes chunks from the shared queue while it has room in its window,
 * orders its reader relay to send each one to its writer relay, and reports what comes
 * back.
 *
 * <p>The reader relay is given chunks whose blocks its host holds first (see {@link
 * ChunkQueue#take(String)}), so a relay on a datanode reads them from local disk.
 *
 * <p>The window: a route always may hold one chunk. It takes another only while it holds
 * fewer than {@code windowChunks} chunks of fewer than {@code windowBytes} bytes in all, and
 * while the queue has more chunks waiting than there are routes. So many small files stream
 * back to back, a large block travels alone, and a route never hoards the last chunks that a
 * route joining late (a spawned relay still booting) or finishing early could send. When the
 * route breaks (the reader's connection drops, or a relay on it is unreachable) the worker
 * stops and hands its chunks in flight back, to be re-sent on the other routes.
 *
 * <p>A route whose relays stay connected and keep the connection alive but answer no chunk
 * (a writer stuck on its file system, a reader starved of its disk) is dropped too, once it
 * has answered nothing for its deadline ({@link #deadlineNanos}): the longer of the copy's
 * stall time and four times what its chunks in flight would take at the rate the route has
 * shown (250 kB/s before it has shown one). Its chunks go to the other routes.
 */
final class RouteWorker implements Runnable, RelayConnection.Listener {
  private static final Logger LOG = LoggerFactory.getLogger(RouteWorker.class);
  private static final long RETRY_MILLIS = 1_000;
  /** The rate a route is assumed to move before it has delivered a chunk: 250 kB/s. */
  private static final double FLOOR_BYTES_PER_NANO = 250e3 / 1e9;
  /** A route that has answered nothing for this long with chunks in flight shows as stalled. */
  static final long STALLED_AFTER_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** What the worker needs from the driver. Called on the worker's and the event loop's threads. */
  interface Driver {
    /** The request that opens every connection to a reader relay: whose copy this is. */
    Transfer transfer();

    ChunkOrder order(Chunk chunk, Route route);

    void chunkDone(Chunk chunk, ChunkDone done);

    void chunkFailed(Chunk chunk, ErrorCode code, String message);

    void routeDropped(Route route, ErrorCode cause, String why, List<Chunk> inFlight);
  }

  private final Route route;
  private final RelayConnector connector;
  private final ChunkQueue queue;
  private final Driver driver;
  private final int windowChunks;
  private final long windowBytes;
  private final IntSupplier routeCount;
  private final String readerHost;
  private final long connectTimeoutSeconds;
  private final Map<Long, Chunk> inFlight = new HashMap<>();
  private final long stallNanos;
  private final LongSupplier clock;
  private long bytesInFlight;
  /** When the route last answered a chunk, or began to wait for one (guarded by this). */
  private long lastAnswerNanos;
  private long firstSendNanos = -1;
  private long bytesDelivered;
  private RelayConnection connection;
  private boolean dropped;

  RouteWorker(Route route, RelayConnector connector, ChunkQueue queue, Driver driver,
      int windowChunks, long windowBytes, IntSupplier routeCount, long connectTimeoutSeconds,
      long stallSeconds) {
    this(route, connector, queue, driver, windowChunks, windowBytes, routeCount,
        connectTimeoutSeconds, stallSeconds, System::nanoTime);
  }

  RouteWorker(Route route, RelayConnector connector, ChunkQueue queue, Driver driver,
      int windowChunks, long windowBytes, IntSupplier routeCount, long connectTimeoutSeconds,
      long stallSeconds, LongSupplier clock) {
    if (stallSeconds < 1) {
      throw new IllegalArgumentException("stallSeconds must be 1 or more, got " + stallSeconds);
    }
    this.stallNanos = TimeUnit.SECONDS.toNanos(stallSeconds);
    this.clock = requireNonNull(clock, "clock is null");
    this.route = requireNonNull(route, "route is null");
    this.connector = requireNonNull(connector, "connector is null");
    this.queue = requireNonNull(queue, "queue is null");
    this.driver = requireNonNull(driver, "driver is null");
    if (windowChunks < 1 || windowBytes < 1) {
      throw new IllegalArgumentException("window of " + windowChunks + " chunks, " + windowBytes
          + " bytes: each must be 1 or more");
    }
    this.windowChunks = windowChunks;
    this.windowBytes = windowBytes;
    this.routeCount = requireNonNull(routeCount, "routeCount is null");
    this.readerHost = HostAddresses.normalize(route.reader().host());
    this.connectTimeoutSeconds = connectTimeoutSeconds;
  }

  @Override
  public void run() {
    try {
      // A spawned relay is named before its machine has booted: keep trying until it listens.
      long started = System.nanoTime();
      connection = connector.connectWaiting(route.reader(), this, connectTimeoutSeconds,
          RETRY_MILLIS);
      LOG.info("{}: reader relay reached after {} ms", route,
          (System.nanoTime() - started) / 1_000_000);
    } catch (RelayCpException e) {
      drop(e.code(), e.getMessage());
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    queue.addReaderHost(readerHost);
    try {
      connection.send(driver.transfer());
      while (awaitRoom()) {
        Chunk chunk = queue.take(readerHost);
        if (chunk == null) {
          break;
        }
        ChunkOrder order;
        synchronized (this) {
          if (dropped) {
            queue.requeue(chunk);
            break;
          }
          order = driver.order(chunk, route);
          long now = clock.getAsLong();
          if (inFlight.isEmpty()) {
            lastAnswerNanos = now;
          }
          if (firstSendNanos < 0) {
            firstSendNanos = now;
          }
          inFlight.put((long) chunk.id(), chunk);
          bytesInFlight += chunk.length();
        }
        connection.send(order);
      }
      // Everything taken is answered (or handed back) before the connection closes.
      awaitAllAnswered();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      drop(ErrorCode.INTERRUPTED, "the copy is stopping");
    } catch (RelayCpException e) {
      drop(e.code(), e.getMessage());
    } finally {
      retire();
      queue.removeReaderHost(readerHost);
      connection.close();
    }
  }

  /** Waits until the window has room for one more chunk; false once the route is dropped. */
  private synchronized boolean awaitRoom() throws InterruptedException {
    while (!dropped && !hasRoom()) {
      wait();
    }
    return !dropped;
  }

  private boolean hasRoom() {
    return inFlight.isEmpty()
        || (inFlight.size() < windowChunks && bytesInFlight < windowBytes
            && queue.waiting() > Math.max(1, routeCount.getAsInt()));
  }

  private synchronized void awaitAllAnswered() throws InterruptedException {
    while (!dropped && !inFlight.isEmpty()) {
      wait();
    }
  }

  /** The worker is done with the route; closing it from here is no failure. */
  private synchronized void retire() {
    dropped = true;
  }

  @Override
  public void onMessage(RelayMessage message) {
    if (message instanceof ChunkDone done) {
      Chunk chunk = answered(done.chunkId());
      if (chunk != null) {
        driver.chunkDone(chunk, done);
      }
    } else if (message instanceof ChunkFailed failed) {
      Chunk chunk = answered(failed.chunkId());
      if (chunk == null) {
        return;
      }
      if (failed.code() == ErrorCode.RELAY_UNREACHABLE
          || failed.code() == ErrorCode.RELAY_AUTHENTICATION_FAILED) {
        // The writer of this route is gone: the route is, too. The chunk goes back as it is.
        synchronized (this) {
          inFlight.put(failed.chunkId(), chunk);
          bytesInFlight += chunk.length();
        }
        drop(failed.code(), failed.message());
      } else {
        driver.chunkFailed(chunk, failed.code(), failed.message());
      }
    } else {
      LOG.warn("{}: reader relay sent unexpected {}", route, message);
    }
  }

  @Override
  public void onClosed(Throwable cause) {
    drop(ErrorCode.RELAY_UNREACHABLE, "connection to reader relay " + route.reader()
        + " lost" + (cause == null ? "" : ": " + cause.getMessage()));
  }

  /** Takes an answered chunk out of the window and wakes the worker; null if not held. */
  private synchronized Chunk answered(long chunkId) {
    Chunk chunk = inFlight.remove(chunkId);
    if (chunk != null) {
      bytesInFlight -= chunk.length();
      bytesDelivered += chunk.length();
      lastAnswerNanos = clock.getAsLong();
      notifyAll();
    }
    return chunk;
  }

  /**
   * How long this route may answer nothing while it holds chunks: the copy's stall time, or
   * four times what its chunks in flight take at the rate it has shown, whichever is longer.
   */
  synchronized long deadlineNanos() {
    long now = clock.getAsLong();
    double rate = bytesDelivered > 0 && now > firstSendNanos
        ? (double) bytesDelivered / (now - firstSendNanos)
        : FLOOR_BYTES_PER_NANO;
    return Math.max(stallNanos, (long) (4 * bytesInFlight / Math.max(rate, 1e-12)));
  }

  /** Nanoseconds since the route last answered while holding chunks; 0 when it holds none. */
  synchronized long silentNanos() {
    return dropped || inFlight.isEmpty() ? 0 : clock.getAsLong() - lastAnswerNanos;
  }

  /**
   * Whether the route holds chunks and has answered none for {@link #STALLED_AFTER_NANOS}
   * (or half the stall time, where that is shorter), which the progress line shows.
   */
  boolean stalled() {
    return silentNanos() >= Math.min(STALLED_AFTER_NANOS, stallNanos / 2);
  }

  /**
   * Drops the route if it has answered nothing past its deadline; called by the driver every
   * half second. Returns whether it did.
   */
  boolean dropIfStalled() {
    long silent = silentNanos();
    long deadline = deadlineNanos();
    if (silent > 0 && silent >= deadline) {
      drop(ErrorCode.CHUNK_FAILED, String.format(Locale.ROOT, "no chunk answered for %.0f s"
              + " with %d in flight (its deadline at the rate it has shown); its chunks go to"
              + " the others", silent / 1e9, inFlightCount()));
      return true;
    }
    return false;
  }

  private synchronized int inFlightCount() {
    return inFlight.size();
  }

  /** Drops the route for {@code why}, a failure of {@code cause}; once only. */
  private void drop(ErrorCode cause, String why) {
    List<Chunk> handedBack;
    synchronized (this) {
      if (dropped) {
        return;
      }
      dropped = true;
      handedBack = new ArrayList<>(inFlight.values());
      inFlight.clear();
      bytesInFlight = 0;
      notifyAll();
    }
    LOG.warn("Dropping {}: {}", route, why);
    driver.routeDropped(route, cause, why, handedBack);
    if (connection != null) {
      connection.close();
    }
  }

}
