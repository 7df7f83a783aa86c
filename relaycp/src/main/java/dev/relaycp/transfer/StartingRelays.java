package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A copy's relays, asked for on a thread of their own so that the copy makes its staging and
 * journal while they start: YARN containers take seconds, spawned hosts minutes, and the
 * staging needs no relay. Every method but {@link #close} waits until the relays are there and
 * throws what starting them threw (RELAY_START_FAILED, say), so the first caller that needs a
 * route is where a failed start surfaces. {@link #close} interrupts a start still under way,
 * waits for it to end, and releases whatever it started.
 */
final class StartingRelays implements RouteSource {
  private static final Logger LOG = LoggerFactory.getLogger(StartingRelays.class);

  private final CompletableFuture<RouteSource> started = new CompletableFuture<>();
  private final Thread starter;

  private StartingRelays(Function<SourceTree, ? extends RouteSource> relays, SourceTree tree) {
    // The thread is made here, so it carries the caller's access-control context (and with it
    // the Hadoop user a doAs put there), as the relays' start did on the caller's thread.
    starter = new Thread(() -> {
      try {
        started.complete(requireNonNull(relays.apply(tree), "the relays are null"));
      } catch (Throwable e) {
        started.completeExceptionally(e);
      }
    }, "relays-start");
    starter.setDaemon(true);
  }

  /** Begins asking {@code relays} for the relays of {@code tree}, on a thread of its own. */
  static StartingRelays start(Function<SourceTree, ? extends RouteSource> relays,
      SourceTree tree) {
    StartingRelays starting = new StartingRelays(requireNonNull(relays, "relays is null"),
        requireNonNull(tree, "tree is null"));
    starting.starter.start();
    return starting;
  }

  /** The relays once started; throws what starting them threw. */
  private RouteSource relays() {
    try {
      return started.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED,
          "the copy was interrupted while its relays started", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new RelayCpException(ErrorCode.INTERNAL_ERROR,
          "starting the relays failed: " + cause, cause);
    }
  }

  @Override
  public List<Route> routes() {
    return relays().routes();
  }

  @Override
  public void onJoin(Consumer<Route> joined) {
    relays().onJoin(joined);
  }

  @Override
  public boolean mayJoin() {
    return relays().mayJoin();
  }

  @Override
  public void routeDropped(Route route) {
    relays().routeDropped(route);
  }

  @Override
  public String provisioner() {
    return relays().provisioner();
  }

  @Override
  public boolean runsThisBuild(Route route) {
    return relays().runsThisBuild(route);
  }

  @Override
  public Map<String, Integer> relaysStarted() {
    return relays().relaysStarted();
  }

  /** Nothing to wait for where the relays have not started (or failed to). */
  @Override
  public void awaitBackgroundWork() {
    if (started.isDone() && !started.isCompletedExceptionally()) {
      started.join().awaitBackgroundWork();
    }
  }

  @Override
  public void close() {
    if (!started.isDone()) {
      starter.interrupt();
    }
    boolean interrupted = false;
    while (true) {
      try {
        started.get().close();
        break;
      } catch (InterruptedException e) {
        // Whatever started must still be released: wait on, and keep the interrupt.
        interrupted = true;
      } catch (ExecutionException e) {
        LOG.debug("The relays did not start, so there is nothing to release", e.getCause());
        break;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
