/**
 * Relays relaycp starts for one copy on hosts of their own (the thesis's spawned relays):
 * the {@link dev.relaycp.provision.spawn.HostSpawner} backends that start and stop hosts, and
 * the route source that turns spawned pairs into routes while the copy already runs.
 */
package dev.relaycp.provision.spawn;
