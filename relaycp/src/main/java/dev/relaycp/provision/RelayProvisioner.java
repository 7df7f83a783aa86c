package dev.relaycp.provision;

import dev.relaycp.transfer.RouteSource;

/**
 * Relays for one copy, as a {@link RouteSource}: {@link #routes()} pairs source-site with
 * destination-site relays; {@link #close()} stops every relay this provisioner started (none,
 * for relays it found running) and is safe to call more than once.
 */
public interface RelayProvisioner extends RouteSource {}
