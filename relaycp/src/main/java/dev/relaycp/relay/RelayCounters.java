package dev.relaycp.relay;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** What a relay has done since it started; read by tests, logs and the daemon's status. */
public final class RelayCounters {
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicInteger authenticating = new AtomicInteger();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong chunksRead = new AtomicLong();
  private final AtomicLong chunksWritten = new AtomicLong();
  private final AtomicLong bytesWritten = new AtomicLong();
  private final AtomicLong corruptFrames = new AtomicLong();

  /** Counts a connection that starts authenticating; returns how many are at it now. */
  int handshakeStarted() {
    return authenticating.incrementAndGet();
  }

  void handshakeEnded() {
    authenticating.decrementAndGet();
  }

  void connectionAccepted() {
    accepted.incrementAndGet();
  }

  void connectionRejected() {
    rejected.incrementAndGet();
  }

  void chunkRead() {
    chunksRead.incrementAndGet();
  }

  void chunkWritten(long bytes) {
    chunksWritten.incrementAndGet();
    bytesWritten.addAndGet(bytes);
  }

  void corruptFrame() {
    corruptFrames.incrementAndGet();
  }

  public long connectionsAccepted() {
    return accepted.get();
  }

  public long connectionsRejected() {
    return rejected.get();
  }

  public long chunksRead() {
    return chunksRead.get();
  }

  public long chunksWritten() {
    return chunksWritten.get();
  }

  public long bytesWritten() {
    return bytesWritten.get();
  }

  public long corruptFrames() {
    return corruptFrames.get();
  }
}
