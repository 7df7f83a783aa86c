package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class UninterruptedTest {

  @Test
  void aCleanUpEndsEvenWhenItsCallerIsInterruptedAgainWhileItRuns() throws Exception {
    CountDownLatch cleanUpStarted = new CountDownLatch(1);
    CountDownLatch interruptsSent = new CountDownLatch(1);
    AtomicReference<String> cleanUpSaw = new AtomicReference<>();
    AtomicBoolean callerInterruptedAfter = new AtomicBoolean();
    // A clean-up that waits, interruptibly, as an SDK request in flight does.
    Thread caller = new Thread(() -> {
      Thread.currentThread().interrupt();
      Uninterrupted.run(() -> {
        cleanUpStarted.countDown();
        try {
          cleanUpSaw.set(interruptsSent.await(30, TimeUnit.SECONDS) ? "ended" : "timed out");
        } catch (InterruptedException e) {
          cleanUpSaw.set("interrupted");
        }
      });
      callerInterruptedAfter.set(Thread.currentThread().isInterrupted());
    });
    caller.start();
    assertThat(cleanUpStarted.await(30, TimeUnit.SECONDS)).isTrue();

    // An executor shut down twice as a copy ends interrupts its worker twice.
    caller.interrupt();
    caller.interrupt();
    interruptsSent.countDown();
    caller.join(30_000);

    assertThat(caller.isAlive()).isFalse();
    assertThat(cleanUpSaw.get()).isEqualTo("ended");
    assertThat(callerInterruptedAfter.get()).isTrue();
  }

  @Test
  void aCallerThatWasNotInterruptedIsNotInterruptedAfter() {
    AtomicBoolean ran = new AtomicBoolean();

    Uninterrupted.run(() -> ran.set(true));

    assertThat(ran.get()).isTrue();
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void whatTheCleanUpThrowsIsThrownToTheCaller() {
    assertThatThrownBy(() -> Uninterrupted.run(() -> {
      throw new IllegalStateException("host not found");
    })).isInstanceOf(IllegalStateException.class).hasMessage("host not found");
  }
}
