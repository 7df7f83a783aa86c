package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one queue chunks are pulled from by whichever route is free, so a fast route simply
 * takes more chunks. A chunk whose route failed goes back to the front, to be taken by
 * another route. The queue knows how many chunks are not yet done, so waiting routes learn
 * when there is nothing left, and the driver learns when the copy is complete or has failed.
 *
 * <p>Locality: {@link #take(String)} gives a reader relay the chunks whose blocks its host
 * holds first, so they are read from local disk. A reader with no local work left takes,
 * in order, chunks of a host that has no reader (nobody reads those locally) or of no known
 * host, then chunks from the holder whose link has the most to spare: the most chunks waiting
 * per remote read it serves already (each chunk in flight to a reader on another host counts
 * on each of its holders). A holder's one link carries its own reader's traffic and every
 * remote read of its blocks, so readers that all steal from the longest backlog would crowd
 * one link while another holder's sits idle. Each chunk waits in the global queue and in a
 * queue per host that holds it; a chunk taken through one queue is skipped in the others when
 * they reach it.
 */
public final class ChunkQueue {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Deque<Chunk> global = new ArrayDeque<>();
  private final Map<String, Deque<Chunk>> byHost = new HashMap<>();
  /** Chunks whose place is not known (no block locations). */
  private final Deque<Chunk> unplaced = new ArrayDeque<>();
  /** Per host, how many of the chunks in its queue still wait (its queue may hold taken ones). */
  private final Map<String, Integer> waitingByHost = new HashMap<>();
  private final Map<String, Integer> readerHosts = new HashMap<>();
  /** Per holder host, chunks of its blocks in flight to readers on other hosts. */
  private final Map<String, Integer> remoteReadsByHost = new HashMap<>();
  /** Chunks in flight to a reader that holds none of their blocks, by chunk id. */
  private final Map<Integer, Chunk> takenRemotely = new HashMap<>();
  private final boolean[] queued;
  private int waiting;
  private int unfinished;
  private RelayCpException failure;

  public ChunkQueue(Collection<Chunk> chunks) {
    requireNonNull(chunks, "chunks is null");
    int largestId = chunks.stream().mapToInt(Chunk::id).max().orElse(-1);
    queued = new boolean[largestId + 1];
    for (Chunk chunk : chunks) {
      enqueue(chunk, false);
    }
    unfinished = chunks.size();
  }

  private void enqueue(Chunk chunk, boolean front) {
    if (queued[chunk.id()]) {
      return;
    }
    queued[chunk.id()] = true;
    waiting++;
    push(global, chunk, front);
    for (String host : chunk.localHosts()) {
      push(byHost.computeIfAbsent(host, any -> new ArrayDeque<>()), chunk, front);
      waitingByHost.merge(host, 1, Integer::sum);
    }
    if (chunk.localHosts().isEmpty()) {
      push(unplaced, chunk, front);
    }
  }

  private static void push(Deque<Chunk> queue, Chunk chunk, boolean front) {
    if (front) {
      queue.addFirst(chunk);
    } else {
      queue.addLast(chunk);
    }
  }

  /** Marks a waiting chunk taken; it stays in the other queues until they reach it. */
  private Chunk dequeued(Chunk chunk) {
    queued[chunk.id()] = false;
    waiting--;
    for (String host : chunk.localHosts()) {
      waitingByHost.merge(host, -1, Integer::sum);
    }
    return chunk;
  }

  /** The first chunk of {@code queue} still waiting, taken; null if none. */
  private Chunk pollWaiting(Deque<Chunk> queue) {
    while (queue != null && !queue.isEmpty()) {
      Chunk chunk = queue.poll();
      if (queued[chunk.id()]) {
        return dequeued(chunk);
      }
    }
    return null;
  }

  /**
   * A waiting chunk held by a host with no reader, or held nowhere known; null if none. In
   * the number of hosts, not of chunks.
   */
  private Chunk pollOrphan() {
    for (Map.Entry<String, Deque<Chunk>> host : byHost.entrySet()) {
      if (!readerHosts.containsKey(host.getKey())
          && waitingByHost.getOrDefault(host.getKey(), 0) > 0) {
        Chunk chunk = pollWaiting(host.getValue());
        if (chunk != null) {
          return chunk;
        }
      }
    }
    return pollWaiting(unplaced);
  }

  /** The next chunk for a reader on {@code readerHost}; null if none waits. */
  private Chunk next(String readerHost) {
    if (readerHost != null) {
      Chunk local = pollWaiting(byHost.get(readerHost));
      if (local != null) {
        return local;
      }
      if (!readerHosts.isEmpty()) {
        Chunk orphan = pollOrphan();
        if (orphan != null) {
          return takenBy(orphan, readerHost);
        }
        String freest = null;
        for (Map.Entry<String, Integer> host : waitingByHost.entrySet()) {
          if (host.getValue() > 0 && (freest == null || spare(host.getKey()) > spare(freest))) {
            freest = host.getKey();
          }
        }
        if (freest != null) {
          return takenBy(pollWaiting(byHost.get(freest)), readerHost);
        }
      }
    }
    return pollWaiting(global);
  }

  /**
   * What a holder's link has to spare for one more remote read: its chunks waiting over the
   * remote reads it would then serve (those in flight and this one). Ties go to the longer
   * backlog.
   */
  private double spare(String host) {
    int waitingHere = waitingByHost.getOrDefault(host, 0);
    return waitingHere / (1.0 + remoteReadsByHost.getOrDefault(host, 0)) + waitingHere * 1e-9;
  }

  /** Counts {@code chunk} as a remote read on each of its holders, unless the reader is one. */
  private Chunk takenBy(Chunk chunk, String readerHost) {
    if (chunk != null && !chunk.localHosts().isEmpty()
        && !chunk.localHosts().contains(readerHost)) {
      takenRemotely.put(chunk.id(), chunk);
      for (String host : chunk.localHosts()) {
        remoteReadsByHost.merge(host, 1, Integer::sum);
      }
    }
    return chunk;
  }

  /** A chunk taken remotely has left flight (done or sent back). */
  private void landed(Chunk chunk) {
    if (takenRemotely.remove(chunk.id()) != null) {
      for (String host : chunk.localHosts()) {
        remoteReadsByHost.computeIfPresent(host, (any, count) -> count > 1 ? count - 1 : null);
      }
    }
  }

  /** Chunks of {@code host}'s blocks in flight to readers on other hosts. */
  public int remoteReads(String host) {
    requireNonNull(host, "host is null");
    lock.lock();
    try {
      return remoteReadsByHost.getOrDefault(host, 0);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next chunk to send, waiting while every unfinished chunk is in flight; null once all
   * chunks are done or the copy has failed. No preference of place: {@code take(null)}.
   */
  public Chunk take() throws InterruptedException {
    return take(null);
  }

  /**
   * As {@link #take()}, for a reader relay on {@code readerHost} (as {@link
   * HostAddresses#normalize} names it; null for no preference): a chunk local to it if one
   * waits, else one nobody reads locally, else one from the longest backlog.
   */
  public Chunk take(String readerHost) throws InterruptedException {
    lock.lock();
    try {
      while (waiting == 0 && unfinished > 0 && failure == null) {
        changed.await();
      }
      return failure != null || waiting == 0 ? null : next(readerHost);
    } finally {
      lock.unlock();
    }
  }

  /**
   * A reader relay on {@code host} takes chunks from now on; counted, so two readers on one
   * host need two removals.
   */
  public void addReaderHost(String host) {
    requireNonNull(host, "host is null");
    lock.lock();
    try {
      readerHosts.merge(host, 1, Integer::sum);
    } finally {
      lock.unlock();
    }
  }

  /** A reader relay on {@code host} takes no more chunks (its route ended). */
  public void removeReaderHost(String host) {
    requireNonNull(host, "host is null");
    lock.lock();
    try {
      readerHosts.computeIfPresent(host, (any, count) -> count > 1 ? count - 1 : null);
    } finally {
      lock.unlock();
    }
  }

  /** A taken chunk is done. */
  public void done(Chunk chunk) {
    requireNonNull(chunk, "chunk is null");
    lock.lock();
    try {
      landed(chunk);
      unfinished--;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** A taken chunk must be sent again; it goes to the front so that no file lags behind. */
  public void requeue(Chunk chunk) {
    requireNonNull(chunk, "chunk is null");
    lock.lock();
    try {
      landed(chunk);
      enqueue(chunk, true);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Ends the copy: every waiting route and the driver wake up; the first failure wins. */
  public void fail(RelayCpException cause) {
    requireNonNull(cause, "cause is null");
    lock.lock();
    try {
      if (failure == null) {
        failure = cause;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until every chunk is done (returns true), the copy fails (throws its failure), or
   * the timeout passes (returns false).
   */
  public boolean awaitCompletion(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    lock.lock();
    try {
      while (unfinished > 0 && failure == null) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        changed.awaitNanos(left);
      }
      if (failure != null) {
        throw failure;
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Chunks waiting to be taken (not those in flight). */
  public int waiting() {
    lock.lock();
    try {
      return waiting;
    } finally {
      lock.unlock();
    }
  }

  public int unfinished() {
    lock.lock();
    try {
      return unfinished;
    } finally {
      lock.unlock();
    }
  }
}
