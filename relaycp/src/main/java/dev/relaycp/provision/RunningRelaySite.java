package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A site whose relays already run (started by hand, or by a service of the cluster's own),
 * across from a site whose relays YARN starts: they are all up from the start, none is asked
 * for or replaced, and they belong to whoever started them, so closing leaves them running.
 */
final class RunningRelaySite implements RelaySite {
  private final String site;
  private final Map<String, RelayAddress> relays;

  private RunningRelaySite(String site, Map<String, RelayAddress> relays) {
    this.site = site;
    this.relays = relays;
  }

  /** The running relays {@code relays} (at least one) of {@code site} ("src" or "dst"). */
  static RunningRelaySite of(String site, List<RelayAddress> relays) {
    requireNonNull(site, "site is null");
    requireNonNull(relays, "relays is null");
    if (relays.isEmpty()) {
      throw new IllegalArgumentException("a site of running relays needs at least one relay");
    }
    Map<String, RelayAddress> named = new LinkedHashMap<>();
    for (RelayAddress relay : relays) {
      named.putIfAbsent(relay.toString(), relay);
    }
    return new RunningRelaySite(site, Collections.unmodifiableMap(named));
  }

  @Override
  public String site() {
    return site;
  }

  @Override
  public Map<String, RelayAddress> announced() {
    return relays;
  }

  @Override
  public int pending() {
    return 0;
  }

  @Override
  public Set<String> takeLost() {
    return Set.of();
  }

  /** Never called: a running relay is never reported lost, so none is replaced. */
  @Override
  public void request(List<String> hosts) {
    throw new RelayCpException(ErrorCode.INTERNAL_ERROR, "the " + site + " site's relays run"
        + " already; none can be started there");
  }

  @Override
  public boolean beat() {
    return true;
  }

  @Override
  public int launched() {
    return 0;
  }

  @Override
  public Set<String> busy() {
    return Set.of();
  }

  @Override
  public RelayCpException failure() {
    return null;
  }

  @Override
  public boolean mayYetAnnounce() {
    return false;
  }

  @Override
  public String lastContainerEnd() {
    return null;
  }

  @Override
  public Optional<String> applicationId() {
    return Optional.empty();
  }

  @Override
  public Optional<String> stagingFolder() {
    return Optional.empty();
  }

  @Override
  public void close() {
    // These relays belong to whoever started them.
  }
}
