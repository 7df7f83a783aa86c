package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.RelayAddress;

/**
 * A relay host a {@link HostSpawner} started: where its relay will listen (it may still be
 * booting), and the backend's own name for it, which {@link HostSpawner#release} is given back.
 *
 * @param slot what it was started for
 * @param address the relay's {@code host:port} as the other site reaches it
 * @param handle the backend's id for the host (an EC2 instance id, the exec command's output)
 * @param machineType the machine type it runs on (an EC2 instance type), for billing;
 *     empty when the backend cannot tell (exec)
 */
public record SpawnedHost(SpawnSlot slot, RelayAddress address, String handle,
    String machineType) {
  public SpawnedHost {
    requireNonNull(slot, "slot is null");
    requireNonNull(address, "address is null");
    requireNonNull(handle, "handle is null");
    requireNonNull(machineType, "machineType is null");
  }
}
