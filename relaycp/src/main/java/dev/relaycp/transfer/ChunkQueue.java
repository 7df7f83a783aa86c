package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one queue chunks are pulled from by whichever route is free, so a fast route simply
 * takes more chunks. A chunk whose route failed goes back to the front, to be taken by
 * another route. The queue knows how many chunks are not yet done, so waiting routes learn
 * when there is nothing left, and the driver learns when the copy is complete or has failed.
 */
public final class ChunkQueue {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Deque<Chunk> waiting = new ArrayDeque<>();
  private int unfinished;
  private RelayCpException failure;

  public ChunkQueue(Collection<Chunk> chunks) {
    waiting.addAll(requireNonNull(chunks, "chunks is null"));
    unfinished = chunks.size();
  }

  /**
   * The next chunk to send, waiting while every unfinished chunk is in flight; null once all
   * chunks are done or the copy has failed.
   */
  public Chunk take() throws InterruptedException {
    lock.lock();
    try {
      while (waiting.isEmpty() && unfinished > 0 && failure == null) {
        changed.await();
      }
      return failure != null || waiting.isEmpty() ? null : waiting.poll();
    } finally {
      lock.unlock();
    }
  }

  /** A taken chunk is done. */
  public void done(Chunk chunk) {
    requireNonNull(chunk, "chunk is null");
    lock.lock();
    try {
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
      waiting.addFirst(chunk);
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
      return waiting.size();
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
