package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ReplacedFile;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.transfer.Route;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A copy's routes over a running relay pool ({@code copy --relay-pool FILE}): the routes its
 * file names when the copy starts, and, while the copy runs, every route the pool adds to the
 * file after (the pool replaces a relay YARN reports ended and writes its new routes there).
 * A copy that lost routes may wait for the pool's replacements: {@link #mayJoin} stays true
 * for the replacement wait after the last route dropped, while the pool runs. Closing stops
 * following the file; the pool's relays are the pool's to stop.
 */
public final class RelayPoolRoutes implements RelayProvisioner {
  private static final Logger LOG = LoggerFactory.getLogger(RelayPoolRoutes.class);
  private static final Duration POLL = Duration.ofSeconds(1);

  private final ReplacedFile file;
  private final Map<String, String> applications;
  private final boolean thisBuild;
  private final Duration replacementWait;
  private final Clock clock;
  private final List<Route> routes = new ArrayList<>();
  private final List<Consumer<Route>> listeners = new CopyOnWriteArrayList<>();
  private Instant lastDrop;
  private boolean poolGone;
  /** Whether the last look at the file failed to read it (and was said so). */
  private boolean unreadable;
  private boolean closed;
  private Thread follower;

  private RelayPoolRoutes(ReplacedFile file, RelayPool pool, boolean thisBuild,
      Duration replacementWait, Clock clock) {
    this.file = file;
    this.applications = pool.applications();
    this.thisBuild = thisBuild;
    this.replacementWait = replacementWait;
    this.clock = clock;
    for (Route route : pool.routes()) {
      add(route.reader(), route.writer());
    }
  }

  /**
   * The routes of {@code pool}, read from {@code file}, followed there while the copy runs;
   * {@code thisBuild} where the pool's relays run the copy's build; a copy that lost routes
   * waits up to {@code replacementWait} after the last for the pool to name new ones (YARN's
   * report of the lost container, then the replacement's start).
   */
  public static RelayPoolRoutes follow(ReplacedFile file, RelayPool pool, boolean thisBuild,
      Duration replacementWait) {
    return follow(file, pool, thisBuild, replacementWait, Clock.systemUTC());
  }

  static RelayPoolRoutes follow(ReplacedFile file, RelayPool pool, boolean thisBuild,
      Duration replacementWait, Clock clock) {
    requireNonNull(file, "file is null");
    requireNonNull(pool, "pool is null");
    requireNonNull(replacementWait, "replacementWait is null");
    requireNonNull(clock, "clock is null");
    if (replacementWait.isNegative()) {
      throw new IllegalArgumentException("replacementWait must not be negative, got "
          + replacementWait);
    }
    return new RelayPoolRoutes(file, pool, thisBuild, replacementWait, clock);
  }

  private Route add(RelayAddress reader, RelayAddress writer) {
    Route route = new Route(routes.size(), reader, writer);
    routes.add(route);
    return route;
  }

  @Override
  public synchronized List<Route> routes() {
    return List.copyOf(routes);
  }

  /** Starts following the pool file (once); {@code joined} hears of each route it adds. */
  @Override
  public synchronized void onJoin(Consumer<Route> joined) {
    listeners.add(requireNonNull(joined, "joined is null"));
    if (follower == null && !closed) {
      follower = new Thread(this::followFile, "relay-pool-follower");
      follower.setDaemon(true);
      follower.start();
    }
  }

  private void followFile() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      for (Route route : readNewRoutes()) {
        LOG.info("The relay pool added {}: it joins the copy", route);
        listeners.forEach(listener -> listener.accept(route));
      }
    }
  }

  /** The routes the pool file names that this copy has not seen; none once the pool is gone. */
  synchronized List<Route> readNewRoutes() {
    if (closed || poolGone) {
      return List.of();
    }
    RelayPool pool;
    try {
      pool = RelayPool.read(file, clock.instant());
    } catch (RelayCpException failed) {
      if (failed.code().retryable()) {
        // Its file system failing for a moment is not the pool's end: the next look may read it.
        if (!unreadable) {
          LOG.warn("{}; looking again each second", failed.getMessage());
        }
        unreadable = true;
        return List.of();
      }
      LOG.warn("The relay pool no longer runs ({}): no route of it joins any more",
          failed.getMessage());
      poolGone = true;
      return List.of();
    }
    if (unreadable) {
      LOG.info("{} can be read again", file);
      unreadable = false;
    }
    if (!pool.applications().equals(applications)) {
      // Another pool took the file over: its relays share another secret.
      LOG.warn("{} now names another relay pool ({}): no route of it joins this copy", file,
          pool.applications());
      poolGone = true;
      return List.of();
    }
    List<Route> added = new ArrayList<>();
    for (Route route : pool.routes()) {
      boolean seen = routes.stream().anyMatch(known -> known.reader().equals(route.reader())
          && known.writer().equals(route.writer()));
      if (!seen) {
        added.add(add(route.reader(), route.writer()));
      }
    }
    return added;
  }

  /**
   * Starts the replacement wait where {@code route} is one of the pool's: the pool may yet name
   * a relay in place of a lost one. Others' routes (spawned pairs beside the pool) are not
   * the pool's to replace.
   */
  @Override
  public synchronized void routeDropped(Route route) {
    requireNonNull(route, "route is null");
    if (routes.contains(route)) {
      lastDrop = clock.instant();
    }
  }

  /** Within the replacement wait after the last dropped route, while the pool runs. */
  @Override
  public synchronized boolean mayJoin() {
    return !closed && !poolGone && lastDrop != null
        && Duration.between(lastDrop, clock.instant()).compareTo(replacementWait) < 0;
  }

  @Override
  public String provisioner() {
    return "yarn-pool";
  }

  @Override
  public boolean runsThisBuild(Route route) {
    return thisBuild;
  }

  /** Stops following the pool file; the pool's relays keep running. */
  @Override
  public void close() {
    Thread following;
    synchronized (this) {
      closed = true;
      following = follower;
    }
    if (following != null) {
      following.interrupt();
    }
  }
}
