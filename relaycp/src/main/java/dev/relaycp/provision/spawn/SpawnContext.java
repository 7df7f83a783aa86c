package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.TlsIdentity;
import dev.relaycp.relay.TransferSecret;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * What every host a transfer spawns shares: the transfer's id, its secret (also in a file only
 * this user may read, for backends that hand a path to a command), how long a spawned relay
 * waits without hearing from the driver before it stops (and, on a VM, shuts its machine
 * down), the time after which a host left running belongs to a transfer that is over
 * (the driver moves it forward while it lives), and the driver's heartbeat file per site
 * ({@code src}, {@code dst}) as a Hadoop URI, which spawned relays follow as YARN's do; and,
 * where the relay connections run TLS, the driver's TLS key and certificate, which spawned
 * relays show instead of making their own, as YARN's do ({@link TlsIdentity}).
 */
public record SpawnContext(String transferId, TransferSecret secret, Path secretFile,
    Duration driverTimeout, Instant expiresAt, Map<String, String> heartbeats,
    Optional<TlsIdentity> tlsIdentity) {
  public SpawnContext {
    requireNonNull(transferId, "transferId is null");
    requireNonNull(secret, "secret is null");
    requireNonNull(secretFile, "secretFile is null");
    requireNonNull(driverTimeout, "driverTimeout is null");
    requireNonNull(expiresAt, "expiresAt is null");
    heartbeats = Map.copyOf(requireNonNull(heartbeats, "heartbeats is null"));
    requireNonNull(tlsIdentity, "tlsIdentity is null");
    if (transferId.isBlank()) {
      throw new IllegalArgumentException("transferId is blank");
    }
    if (driverTimeout.isNegative() || driverTimeout.isZero()) {
      throw new IllegalArgumentException("driverTimeout must be positive, got " + driverTimeout);
    }
  }

  public SpawnSlot slot(String site, int slot) {
    return SpawnSlot.of(transferId, site, slot);
  }
}
