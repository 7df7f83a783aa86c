package dev.relaycp.transfer;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The routes of one copy: those ready when chunks start to flow, and those that join while
 * they flow (a relay started to replace a lost one). The copy driver closes it at the end of
 * the copy, whatever the outcome.
 */
public interface RouteSource extends AutoCloseable {
  /** The routes ready now; at least one. */
  List<Route> routes();

  /**
   * Calls {@code joined}, on any thread, for every route that becomes ready from now until
   * {@link #close()}.
   */
  default void onJoin(Consumer<Route> joined) {}

  /** Whether a route may still join; a copy with no route left fails once this is false. */
  default boolean mayJoin() {
    return false;
  }

  /**
   * Tells the source that {@code route} dropped: a relay of it died or stopped answering. The
   * copy learns this from the route's connection, often before whatever runs the relays has
   * seen one end; a source that replaces lost relays keeps {@link #mayJoin} true while it may
   * yet hear that a relay of the route ended (and then ask for its replacement), so a copy that
   * lost every route at once waits for the replacements instead of failing.
   */
  default void routeDropped(Route route) {}

  /** What provides the relays, for the report: "static", "local", "yarn", "yarn-pool". */
  String provisioner();

  /** Relays started for this copy so far, by site ("src", "dst"); empty for running relays. */
  default Map<String, Integer> relaysStarted() {
    return Map.of();
  }

  /**
   * Called once the copy has every byte and before {@link #close()} on success: waits, within
   * a bound of the source's own and only until {@link #close()}, while relays it started do
   * work that outlives the copy and that ending them would lose. Relays that cost by the second
   * and do no such work may be released here. Returns at once where there is none.
   */
  default void awaitBackgroundWork() {}

  /**
   * Whether both relays of {@code route} run this driver's build, started by this source from
   * the driver's own jar: only they read what this build's orders may carry beyond older ones
   * (a file's times for its writer). False where a relay may be of another build, such as one
   * started by hand.
   */
  default boolean runsThisBuild(Route route) {
    return false;
  }

  /** Releases every relay this source started; safe to call more than once. */
  @Override
  void close();

  /** Routes over relays that already run, which nobody starts or stops for this copy. */
  static RouteSource fixed(List<Route> routes) {
    return fixed(routes, false);
  }

  /**
   * Routes over relays that already run, as {@link #fixed(List)}, known to run this driver's
   * build where {@code thisBuild} (relays in the driver's own process).
   */
  static RouteSource fixed(List<Route> routes, boolean thisBuild) {
    List<Route> copy = List.copyOf(routes);
    return new RouteSource() {
      @Override
      public List<Route> routes() {
        return copy;
      }

      @Override
      public String provisioner() {
        return "static";
      }

      @Override
      public boolean runsThisBuild(Route route) {
        return thisBuild;
      }

      @Override
      public void close() {}
    };
  }
}
