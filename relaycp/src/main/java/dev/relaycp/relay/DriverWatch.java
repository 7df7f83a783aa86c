package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.HeartbeatFile;
import java.io.IOException;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a relay that a driver started for one copy once the driver is gone: when the driver's
 * {@link HeartbeatFile} is removed (the driver ended and cleaned up) or has not changed for
 * the timeout (the driver was killed, or cannot reach this cluster). A relay started by hand
 * has no watch and runs until stopped.
 */
public final class DriverWatch {
  private static final Logger LOG = LoggerFactory.getLogger(DriverWatch.class);

  /** Why the relay stops. */
  public enum Verdict { DRIVER_ENDED, DRIVER_SILENT }

  private final HeartbeatFile heartbeat;
  private final long timeoutNanos;
  private final LongSupplier clock;
  private long lastBeat = Long.MIN_VALUE;
  private long lastChangeNanos;

  private DriverWatch(HeartbeatFile heartbeat, Duration timeout, LongSupplier clock) {
    this.heartbeat = requireNonNull(heartbeat, "heartbeat is null");
    requireNonNull(timeout, "timeout is null");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the driver timeout must be positive, got " + timeout);
    }
    this.timeoutNanos = timeout.toNanos();
    this.clock = requireNonNull(clock, "clock is null");
    this.lastChangeNanos = clock.getAsLong();
  }

  public static DriverWatch of(HeartbeatFile heartbeat, Duration timeout) {
    return new DriverWatch(heartbeat, timeout, System::nanoTime);
  }

  /** A watch on the given clock (nanoseconds), for tests. */
  static DriverWatch of(HeartbeatFile heartbeat, Duration timeout, LongSupplier clock) {
    return new DriverWatch(heartbeat, timeout, clock);
  }

  /** Reads the heartbeat once; a verdict when the relay should stop, else null. */
  public Verdict check() {
    long now = clock.getAsLong();
    try {
      OptionalLong beat = heartbeat.lastBeat();
      if (beat.isEmpty()) {
        return Verdict.DRIVER_ENDED;
      }
      if (beat.getAsLong() != lastBeat) {
        lastBeat = beat.getAsLong();
        lastChangeNanos = now;
      }
    } catch (IOException e) {
      LOG.debug("Cannot read the driver's heartbeat {}", heartbeat.path(), e);
    }
    return now - lastChangeNanos >= timeoutNanos ? Verdict.DRIVER_SILENT : null;
  }

  /**
   * Checks every {@code period} until a verdict, then returns it; returns null if
   * interrupted.
   */
  public Verdict await(Duration period) {
    try {
      while (true) {
        Verdict verdict = check();
        if (verdict != null) {
          return verdict;
        }
        Thread.sleep(period.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
