package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.function.LongSupplier;

/**
 * Counts one route's delivered bytes and chunks and its busy time, from the driver's callbacks:
 * {@link #sent} when a chunk goes out on the route, {@link #delivered} or {@link #returned} when
 * it comes back done or not. Busy time runs while at least one chunk is out. Thread-safe.
 */
final class RouteCounters {
  private final Route route;
  private final LongSupplier nanoClock;
  private int inFlight;
  private long busySince;
  private long busyNanos;
  private long bytes;
  private long wireBytes;
  private int chunks;
  private boolean dropped;
  private final long joinedNanos;

  /** Counters of a route joining now, {@code copyStarted} being the copy's start on the clock. */
  RouteCounters(Route route, LongSupplier nanoClock, long copyStarted) {
    this.route = requireNonNull(route, "route is null");
    this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
    this.joinedNanos = Math.max(0, nanoClock.getAsLong() - copyStarted);
  }

  synchronized void sent() {
    if (inFlight++ == 0) {
      busySince = nanoClock.getAsLong();
    }
  }

  /** A chunk of {@code chunkBytes} is back done; {@code chunkWireBytes} crossed the relay hop. */
  synchronized void delivered(long chunkBytes, long chunkWireBytes) {
    bytes += chunkBytes;
    wireBytes += chunkWireBytes;
    chunks++;
    returned();
  }

  Route route() {
    return route;
  }

  /** A chunk that was out on the route is back without being delivered (failed, handed back). */
  synchronized void returned() {
    if (inFlight > 0 && --inFlight == 0) {
      busyNanos += nanoClock.getAsLong() - busySince;
    }
  }

  synchronized void dropped() {
    dropped = true;
  }

  synchronized RouteResult result() {
    long busy = busyNanos + (inFlight > 0 ? nanoClock.getAsLong() - busySince : 0);
    return new RouteResult(route.id(), route.reader(), route.writer(), bytes, chunks,
        busy / 1e9, dropped, joinedNanos / 1e9, wireBytes);
  }
}
