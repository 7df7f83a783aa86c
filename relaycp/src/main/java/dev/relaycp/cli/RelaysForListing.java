package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import dev.relaycp.transfer.RouteSource;
import dev.relaycp.transfer.SourceTree;
import java.util.function.Function;

/**
 * A copy's relays for its listing, some of which may start before the listing is done (YARN
 * applications); closing it releases what started if the copy ended before it asked for the
 * relays. Once asked, the relays belong to the copy, which releases them.
 */
final class RelaysForListing implements Function<SourceTree, RouteSource>, AutoCloseable {
  private final Function<SourceTree, RouteSource> relays;
  private final Runnable unclaimed;

  private RelaysForListing(Function<SourceTree, RouteSource> relays, Runnable unclaimed) {
    this.relays = requireNonNull(relays, "relays is null");
    this.unclaimed = requireNonNull(unclaimed, "unclaimed is null");
  }

  /** Relays that start only when asked for. */
  static RelaysForListing of(Function<SourceTree, RouteSource> relays) {
    return new RelaysForListing(relays, () -> { });
  }

  /**
   * Relays some of which began before the listing; {@code releaseUnclaimed} releases them
   * unless the copy has asked for the relays.
   */
  static RelaysForListing of(Function<SourceTree, RouteSource> relays,
      Runnable releaseUnclaimed) {
    return new RelaysForListing(relays, releaseUnclaimed);
  }

  @Override
  public RouteSource apply(SourceTree tree) {
    return relays.apply(tree);
  }

  /** The same relays, asked for through {@code wrap} (which adds relays of its own). */
  RelaysForListing around(Function<Function<SourceTree, RouteSource>, Function<SourceTree,
      RouteSource>> wrap) {
    return new RelaysForListing(wrap.apply(relays), unclaimed);
  }

  @Override
  public void close() {
    unclaimed.run();
  }
}
