package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.transfer.Route;
import java.util.ArrayList;
import java.util.List;

/**
 * Relays that already run, e.g. on datanodes. Route i pairs the i-th source-site relay with
 * the i-th destination-site relay, cycling the shorter list; without destination-site relays
 * each relay both reads and writes.
 */
public final class StaticRelays implements RelayProvisioner {
  private final List<Route> routes;
  private final boolean thisBuild;
  private final String provisioner;

  private StaticRelays(List<Route> routes, boolean thisBuild, String provisioner) {
    this.routes = List.copyOf(routes);
    this.thisBuild = thisBuild;
    this.provisioner = provisioner;
  }

  public static StaticRelays of(List<RelayAddress> sourceSite, List<RelayAddress> destinationSite) {
    requireNonNull(sourceSite, "sourceSite is null");
    requireNonNull(destinationSite, "destinationSite is null");
    if (sourceSite.isEmpty()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--dst-relays needs --relays too: routes run from a source-site relay to a "
              + "destination-site relay");
    }
    List<RelayAddress> writers = destinationSite.isEmpty() ? sourceSite : destinationSite;
    int count = Math.max(sourceSite.size(), writers.size());
    List<Route> routes = new ArrayList<>(count);
    for (int index = 0; index < count; index++) {
      routes.add(new Route(index, sourceSite.get(index % sourceSite.size()),
          writers.get(index % writers.size())));
    }
    return new StaticRelays(routes, false, "static");
  }

  /** Relays already paired into {@code routes} (at least one), numbered from 0 in order. */
  public static StaticRelays ofRoutes(List<Route> routes) {
    requireNonNull(routes, "routes is null");
    if (routes.isEmpty()) {
      throw new IllegalArgumentException("no routes");
    }
    List<Route> numbered = new ArrayList<>(routes.size());
    for (Route route : routes) {
      numbered.add(new Route(numbered.size(), route.reader(), route.writer()));
    }
    return new StaticRelays(numbered, false, "static");
  }

  /**
   * These relays, known to run the driver's build where {@code thisBuild}
   * ({@code relaycp.copy.running-relays-same-build}); by default they may run another.
   */
  public StaticRelays ofThisBuild(boolean thisBuild) {
    return new StaticRelays(routes, thisBuild, provisioner);
  }

  /**
   * These relays, reported as started by {@code provisioner} (e.g. "yarn-pool" for a {@link
   * RelayPool}'s); by default "static".
   */
  public StaticRelays named(String provisioner) {
    return new StaticRelays(routes, thisBuild,
        requireNonNull(provisioner, "provisioner is null"));
  }

  @Override
  public boolean runsThisBuild(Route route) {
    return thisBuild;
  }

  @Override
  public List<Route> routes() {
    return routes;
  }

  @Override
  public String provisioner() {
    return provisioner;
  }

  @Override
  public void close() {
    // These relays belong to whoever started them.
  }
}
