package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

/**
 * Runs a clean-up step (stopping a host, ending an application, deleting a secret) with the
 * thread's interrupt set aside and then restored. Clean-ups run precisely when a start was
 * interrupted (the copy ended, failed or was stopped while relays started), often from the
 * interrupted thread; there the AWS SDK sends no request, Hadoop's RPC fails every call at
 * once ("Call interrupted") and {@link Process#waitFor} returns at once, so without this a
 * host or application the clean-up was meant to end would keep running, and billing.
 */
public final class Uninterrupted {
  private Uninterrupted() {}

  /** Runs {@code cleanUp} with no interrupt set; the caller's interrupt is set again after. */
  public static void run(Runnable cleanUp) {
    requireNonNull(cleanUp, "cleanUp is null");
    boolean interrupted = Thread.interrupted();
    try {
      cleanUp.run();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
