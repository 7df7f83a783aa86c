package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a step for each index {@code 0..count-1} on a few of a pool's threads, each worker
 * taking the next index nobody has taken, so a tree of thousands of small files costs a few
 * threads, not one per file.
 *
 * <p>The contract, which callers that undo what the steps did rely on:
 * <ul>
 *   <li>once a step fails, no index that has not started is started (the steps running go on
 *       to their end);
 *   <li>{@link #forEachIndex} returns or throws only once no step runs any more, on every
 *       path, interruption included, so an undo never races a step still doing;
 *   <li>the first failure's cause is what is thrown, wrapped in an {@link ExecutionException}
 *       for the caller to translate.
 * </ul>
 */
final class ParallelSteps {
  /** What is done for one index. */
  interface Step<T> {
    T apply(int index) throws Exception;
  }

  private ParallelSteps() {}

  /**
   * @return each index's result, in index order (nulls kept)
   * @throws ExecutionException holding the first step failure's cause
   * @throws InterruptedException if this thread was interrupted while waiting; the steps
   *     running were interrupted and have ended
   */
  static <T> List<T> forEachIndex(ExecutorService pool, int count, int parallelism,
      Step<T> step) throws ExecutionException, InterruptedException {
    requireNonNull(pool, "pool is null");
    requireNonNull(step, "step is null");
    if (count < 0) {
      throw new IllegalArgumentException("count is negative: " + count);
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
    }
    Object[] results = new Object[count];
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Workers workers = new Workers();
    List<Future<?>> futures = new ArrayList<>();
    for (int worker = 0; worker < Math.min(count, parallelism); worker++) {
      futures.add(pool.submit(() -> {
        workers.enter();
        try {
          // Checked after entering: a worker the pool starts late, once the caller has
          // stopped waiting for running ones, sees the stop and does nothing.
          while (!workers.stopped() && failure.get() == null) {
            int index = next.getAndIncrement();
            if (index >= count) {
              break;
            }
            try {
              results[index] = step.apply(index);
            } catch (Throwable e) {
              failure.compareAndSet(null, e);
            }
          }
        } finally {
          workers.leave();
        }
      }));
    }
    try {
      for (Future<?> future : futures) {
        future.get();
      }
    } catch (InterruptedException e) {
      workers.stop();
      futures.forEach(future -> future.cancel(true));
      workers.awaitNoneRunning();
      throw e;
    }
    if (failure.get() != null) {
      throw new ExecutionException(failure.get());
    }
    @SuppressWarnings("unchecked")
    List<T> inOrder = (List<T>) Arrays.asList(results);
    return inOrder;
  }

  /** How many workers are inside their loop, and whether the caller has stopped them. */
  private static final class Workers {
    private int running;
    private boolean stopped;

    synchronized void enter() {
      running++;
    }

    synchronized void leave() {
      running--;
      notifyAll();
    }

    synchronized boolean stopped() {
      return stopped;
    }

    synchronized void stop() {
      stopped = true;
    }

    /** Waits, not to be interrupted again, until every worker that entered has left. */
    synchronized void awaitNoneRunning() {
      boolean interrupted = false;
      while (running > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
