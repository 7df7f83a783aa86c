package dev.relaycp.provision;

import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One site's relays as {@link YarnRelays} pairs them: the containers a YARN application starts
 * there ({@link YarnSite}), or relays that already run there ({@link RunningRelaySite}). A relay
 * is named by a string unique within its site (a container id, an address).
 */
interface RelaySite extends AutoCloseable {
  /** "src" or "dst". */
  String site();

  /** The relays up now, by name, in the order they came. */
  Map<String, RelayAddress> announced();

  /** Relays asked for and not yet up (or given up on). */
  int pending();

  /** Relays that ended before the copy let them go; each is reported once. */
  Set<String> takeLost();

  /** Asks for one relay on each of {@code hosts}; a null host is any node. */
  void request(List<String> hosts);

  /** Tells the relays their driver still runs; false if that could not be said. */
  boolean beat();

  /** Relays started for this copy so far, replacements included. */
  int launched();

  /** Relays busy with work that outlives the copy, by name. */
  Set<String> busy();

  /** Why the site cannot run relays, or null. */
  RelayCpException failure();

  /** Whether a relay of this site may yet come up. */
  boolean mayYetAnnounce();

  /** How the last relay that ended before its time ended, or null. */
  String lastContainerEnd();

  /**
   * The YARN application the site's relays run in; empty for relays this copy did not start,
   * which it neither replaces nor stops and whose build it cannot know.
   */
  Optional<String> applicationId();

  /**
   * The folder, as a URI of the site's file system, where this copy staged its relays (their
   * heartbeat and announcements); empty for relays this copy did not start.
   */
  Optional<String> stagingFolder();

  /** Stops what this copy started on the site; safe to call more than once. */
  @Override
  void close();
}
