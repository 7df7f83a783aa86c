package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ParallelStepsTest {
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void everyIndexRunsOnceOnAtMostTheThreadsAskedForWithResultsInOrder() throws Exception {
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    AtomicInteger calls = new AtomicInteger();

    List<Integer> squares = ParallelSteps.forEachIndex(pool, 1000, 3, index -> {
      threads.add(Thread.currentThread());
      calls.incrementAndGet();
      return index * index;
    });

    assertThat(squares).hasSize(1000);
    for (int index = 0; index < 1000; index++) {
      assertThat(squares.get(index)).isEqualTo(index * index);
    }
    assertThat(calls).hasValue(1000);
    assertThat(threads).hasSizeBetween(1, 3);
  }

  @Test
  void noIndexesGiveNoResults() throws Exception {
    assertThat(ParallelSteps.forEachIndex(pool, 0, 4, index -> index)).isEmpty();
  }

  @Test
  void aFailureStartsNoMoreIndexesAndThrowsOnlyOnceTheRunningStepHasEnded() {
    CountDownLatch slowStarted = new CountDownLatch(1);
    AtomicBoolean slowEnded = new AtomicBoolean();
    Set<Integer> started = ConcurrentHashMap.newKeySet();
    IOException broken = new IOException("disk gone");

    assertThatThrownBy(() -> ParallelSteps.forEachIndex(pool, 100, 2, index -> {
      started.add(index);
      if (index == 0) {
        slowStarted.countDown();
        Thread.sleep(300);
        slowEnded.set(true);
        return index;
      }
      slowStarted.await();
      throw broken;
    })).isInstanceOf(ExecutionException.class).hasCause(broken);

    // Index 0 was still running when index 1 failed; the caller heard of the failure only
    // after it ended, and nothing past the two started.
    assertThat(slowEnded).isTrue();
    assertThat(started).containsExactlyInAnyOrder(0, 1);
  }

  @Test
  void theFirstFailureIsTheOneThrown() {
    IllegalStateException first = new IllegalStateException("first");

    assertThatThrownBy(() -> ParallelSteps.forEachIndex(pool, 10, 1, index -> {
      throw index == 0 ? first : new IllegalStateException("never reached");
    })).isInstanceOf(ExecutionException.class).hasCause(first);
  }

  @Test
  void anInterruptedCallerInterruptsTheStepsAndReturnsOnlyOnceTheyHaveEnded() throws Exception {
    CountDownLatch bothRunning = new CountDownLatch(2);
    AtomicInteger ended = new AtomicInteger();
    AtomicInteger startedAfterInterrupt = new AtomicInteger();
    AtomicBoolean interrupted = new AtomicBoolean();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicInteger endedWhenCallerReturned = new AtomicInteger(-1);

    Thread caller = new Thread(() -> {
      try {
        ParallelSteps.forEachIndex(pool, 50, 2, index -> {
          if (interrupted.get()) {
            startedAfterInterrupt.incrementAndGet();
          }
          bothRunning.countDown();
          try {
            new CountDownLatch(1).await();
            return index;
          } finally {
            // A step that cleans up slowly after its interrupt.
            busyFor(100);
            ended.incrementAndGet();
          }
        });
      } catch (Throwable e) {
        thrown.set(e);
      }
      endedWhenCallerReturned.set(ended.get());
    });
    caller.start();
    assertThat(bothRunning.await(10, TimeUnit.SECONDS)).isTrue();
    interrupted.set(true);
    caller.interrupt();
    caller.join(10_000);

    assertThat(caller.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    assertThat(endedWhenCallerReturned).hasValue(2);
    assertThat(startedAfterInterrupt).hasValue(0);
  }

  private static void busyFor(long millis) {
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }
}
