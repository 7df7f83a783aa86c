package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;

/**
 * How many lost relays one site may still replace: at most {@code perWindow} within any
 * {@code window}. A relay that cannot start (a bad option, a node that kills it) is lost again
 * at once, and the budget ends that loop within minutes; a copy of many hours or a relay pool
 * kept for a day, whose containers YARN preempts or whose nodes go down now and then, keeps
 * replacing them, as long as they do not go faster than that. Not thread-safe: its owner
 * holds its own lock.
 */
final class ReplacementBudget {
  /** The window of {@code relaycp.yarn.replacements-per-site}. */
  static final Duration HOUR = Duration.ofHours(1);

  private final int perWindow;
  private final long windowNanos;
  private final LongSupplier nanoTime;
  private final Deque<Long> taken = new ArrayDeque<>();

  private ReplacementBudget(int perWindow, long windowNanos, LongSupplier nanoTime) {
    this.perWindow = perWindow;
    this.windowNanos = windowNanos;
    this.nanoTime = nanoTime;
  }

  /** At most {@code perWindow} replacements within any hour. */
  static ReplacementBudget perHour(int perWindow) {
    return of(perWindow, HOUR, System::nanoTime);
  }

  static ReplacementBudget of(int perWindow, Duration window, LongSupplier nanoTime) {
    requireNonNull(window, "window is null");
    requireNonNull(nanoTime, "nanoTime is null");
    if (perWindow < 0) {
      throw new IllegalArgumentException("replacements per window must not be negative, got "
          + perWindow);
    }
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("the window must be positive, got " + window);
    }
    return new ReplacementBudget(perWindow, window.toNanos(), nanoTime);
  }

  /** Takes one replacement if the window has one left; false if not. */
  boolean take() {
    if (!anyLeft()) {
      return false;
    }
    taken.addLast(nanoTime.getAsLong());
    return true;
  }

  /** Whether a replacement may be taken now. */
  boolean anyLeft() {
    long now = nanoTime.getAsLong();
    while (!taken.isEmpty() && now - taken.peekFirst() >= windowNanos) {
      taken.removeFirst();
    }
    return taken.size() < perWindow;
  }

  /** Replacements taken within the window up to now. */
  int used() {
    anyLeft();
    return taken.size();
  }
}
