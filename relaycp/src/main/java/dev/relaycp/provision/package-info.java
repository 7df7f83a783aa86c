/**
 * Where relays come from: already running ({@link dev.relaycp.provision.StaticRelays}), or
 * started for one copy and stopped after it ({@link dev.relaycp.provision.LocalRelayProcesses}).
 * Each hands the driver its routes and ends every relay it started when closed.
 */
package dev.relaycp.provision;
