package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.util.function.Function;

/**
 * The shutdown hook of one site's start ({@link YarnSite#start}): when the JVM shuts down
 * (Ctrl-C, SIGTERM) after the site's application was submitted and before {@link YarnRelays}
 * has taken the site over with a hook of its own, it undoes what the start has made so far. The
 * application is killed rather than left to the ResourceManager's expiry of its
 * ApplicationMaster (ten minutes by default), and the staging folder, which nothing else would
 * ever remove, is deleted.
 *
 * <p>The start makes each thing (the application, the staging folder, the heartbeat) inside
 * {@link #make}, under this hook's lock, and names how to undo what it has made so far with
 * {@link #undoWith}; the hook undoes under the same lock. So nothing is made after the hook ran:
 * a later step is refused with {@link ErrorCode#INTERRUPTED}. What is undone is undone once,
 * by the hook or by the start's own failure ({@link #undo}), whichever comes first.
 */
final class SiteStartShutdownHook implements Runnable {
  /** A step of the start that makes something on the site. */
  @FunctionalInterface
  interface Step<T, E extends Exception> {
    T make() throws E;
  }

  private final String site;
  private Runnable undo = () -> {};
  private boolean undone;
  private boolean shutDown;
  private boolean handedOver;

  private SiteStartShutdownHook(String site) {
    this.site = requireNonNull(site, "site is null");
  }

  static SiteStartShutdownHook forSite(String site) {
    return new SiteStartShutdownHook(site);
  }

  /** Makes something, unless the JVM is shutting down; the lock is held meanwhile. */
  synchronized <T, E extends Exception> T make(Step<T, E> step) throws E {
    refuseIfShutDown();
    return step.make();
  }

  /**
   * Makes something, unless the JVM is shutting down, and from then on undoes the start with
   * {@code undo} of what was made; the lock is held meanwhile, so the hook runs before the
   * step or after the undo is known.
   */
  synchronized <T, E extends Exception> T make(Step<T, E> step,
      Function<? super T, Runnable> undo) throws E {
    requireNonNull(undo, "undo is null");
    T made = make(step);
    undoWith(undo.apply(made));
    return made;
  }

  /** From now on, undoing the start is {@code undo}: it undoes all the start has made. */
  synchronized void undoWith(Runnable undo) {
    this.undo = requireNonNull(undo, "undo is null");
  }

  /** Undoes what the start has made, unless that was done already. */
  synchronized void undo() {
    if (undone) {
      return;
    }
    undone = true;
    undo.run();
  }

  /** Throws {@link ErrorCode#INTERRUPTED} once the hook has run. */
  synchronized void refuseIfShutDown() {
    if (shutDown) {
      throw stopped();
    }
  }

  synchronized boolean shutDown() {
    return shutDown;
  }

  /** The site's owner has a hook of its own now: this one does nothing from here on. */
  synchronized void handOver() {
    handedOver = true;
  }

  /** What a start stopped by the JVM's shutdown fails with. */
  RelayCpException stopped() {
    return stopped(null);
  }

  /** What a start stopped by the JVM's shutdown fails with, {@code cause} (or null) its cause. */
  RelayCpException stopped(Throwable cause) {
    return new RelayCpException(ErrorCode.INTERRUPTED,
        "the copy was stopped while its relays on the " + site + " cluster started", cause);
  }

  @Override
  public synchronized void run() {
    if (handedOver || shutDown) {
      return;
    }
    shutDown = true;
    undo();
  }
}
