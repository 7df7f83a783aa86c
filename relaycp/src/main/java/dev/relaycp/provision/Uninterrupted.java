package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a clean-up step (stopping a host, ending an application, deleting a secret) out of the
 * reach of interrupts, and then gives the caller back any interrupt it had or got meanwhile.
 * Clean-ups run precisely when a start was interrupted (the copy ended, failed or was stopped
 * while relays started), often from the interrupted thread; there the AWS SDK sends no request,
 * Hadoop's RPC fails every call at once ("Call interrupted") and {@link Process#waitFor}
 * returns at once, so without this a host or application the clean-up was meant to end would
 * keep running, and billing.
 *
 * <p>Clearing the caller's interrupt is not enough: whoever interrupted it may do so again
 * while the clean-up runs (an executor shut down twice as a copy ends), and the AWS SDK then
 * abandons the request in flight. So the clean-up runs on a thread of its own, which nothing
 * else can reach, while the caller waits for it to end.
 */
public final class Uninterrupted {
  private Uninterrupted() {}

  /**
   * Runs {@code cleanUp} to its end on a thread nobody interrupts; the caller's interrupt, set
   * before or during, is set again after. What {@code cleanUp} throws is thrown here.
   */
  public static void run(Runnable cleanUp) {
    requireNonNull(cleanUp, "cleanUp is null");
    boolean interrupted = Thread.interrupted();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread worker = new Thread(() -> {
      try {
        cleanUp.run();
      } catch (RuntimeException | Error e) {
        failure.set(e);
      }
    }, Thread.currentThread().getName() + "-clean-up");
    worker.setDaemon(true);
    worker.start();
    try {
      while (true) {
        try {
          worker.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    Throwable thrown = failure.get();
    if (thrown instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (thrown instanceof Error error) {
      throw error;
    }
  }
}
