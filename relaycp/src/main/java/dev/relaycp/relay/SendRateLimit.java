package dev.relaycp.relay;

import java.util.concurrent.TimeUnit;

/**
 * The most bytes per second a reader relay sends to writer relays, over all its streams and
 * connections together ({@code relaycp.relay.bytes-per-second-limit}). A stream takes its
 * frame's bytes here before it sends the frame, so the wait is the stream's own: no bytes
 * queue up behind the limit inside a connection, where they would hold back its keep-alives
 * and, on a fresh connection, its handshake. (A reader opens a connection for each chunk in
 * flight, since a writer answers a connection's chunks one after another; a limit on each
 * connection would let a relay send a multiple of it.)
 *
 * <p>A token bucket that keeps at most a tenth of a second's bytes while idle. Guava's
 * RateLimiter (which Hadoop ships) keeps a whole second's and lets the first request through
 * free, so a short send after an idle spell, such as a spawned pair's pre-test, would run at
 * up to twice the limit.
 */
final class SendRateLimit {
  /** No limit: {@link #acquire} returns at once. */
  static final SendRateLimit NONE = new SendRateLimit(0);

  private final double bytesPerNano;
  private final double mostStored;
  /** Bytes that may go now; below zero, what those already taken still owe. */
  private double stored;
  private long updatedNanos = System.nanoTime();

  private SendRateLimit(long bytesPerSecond) {
    this.bytesPerNano = bytesPerSecond / 1e9;
    this.mostStored = bytesPerSecond / 10.0;
  }

  /** A limit of {@code bytesPerSecond}; {@link #NONE} where it is 0. */
  static SendRateLimit of(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException(
          "bytesPerSecond must not be negative, got " + bytesPerSecond);
    }
    return bytesPerSecond == 0 ? NONE : new SendRateLimit(bytesPerSecond);
  }

  /**
   * Takes {@code bytes} and waits until the limit has paid for them (and for those taken before
   * by other streams); an interrupt ends the wait.
   */
  void acquire(int bytes) throws InterruptedException {
    if (bytesPerNano == 0 || bytes <= 0) {
      return;
    }
    long waitNanos;
    synchronized (this) {
      long now = System.nanoTime();
      stored = Math.min(mostStored, stored + (now - updatedNanos) * bytesPerNano);
      updatedNanos = now;
      stored -= bytes;
      waitNanos = stored < 0 ? (long) (-stored / bytesPerNano) : 0;
    }
    if (waitNanos > 0) {
      TimeUnit.NANOSECONDS.sleep(waitNanos);
    }
  }
}
