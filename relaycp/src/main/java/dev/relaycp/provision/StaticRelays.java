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

  private StaticRelays(List<Route> routes, boolean thisBuild) {
    this.routes = List.copyOf(routes);
    this.thisBuild = thisBuild;
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
    return new StaticRelays(routes, false);
  }

  /**
   * These relays, known to run the driver's build where {@code thisBuild}
   * ({@code relaycp.copy.running-relays-same-build}); by default they may run another.
   */
  public StaticRelays ofThisBuild(boolean thisBuild) {
    return new StaticRelays(routes, thisBuild);
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
    return "static";
  }

  @Override
  public void close() {
    // These relays belong to whoever started them.
  }
}
