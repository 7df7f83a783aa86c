package dev.relaycp.provision.spawn;

import java.time.Instant;

/**
 * A backend that starts relay hosts for one transfer and stops them: cloud VMs ({@code aws}),
 * or whatever a user's command starts ({@code exec}). The driver calls {@link #spawn} from
 * several threads at once, one call per host; it never calls it after {@link #close}.
 *
 * <p>Contract, which {@code HostSpawnerContract} in the tests checks for every backend:
 * <ul>
 *   <li>{@link #spawn} returns once the host exists and its relay's address is known; the relay
 *       may still be booting, and the driver waits for it to answer. It throws a {@link
 *       dev.relaycp.error.RelayCpException} (RELAY_START_FAILED, or INVALID_ARGUMENT for a
 *       setting the backend refuses) having released whatever it started.</li>
 *   <li>{@link #release} stops the host and frees what it holds; it is safe to call twice and
 *       never throws: a failure is logged and left for {@code relaycp gc}.</li>
 *   <li>{@link #close} frees what the transfer as a whole holds (a secret parameter); it does
 *       not release hosts, which the driver releases one by one before.</li>
 * </ul>
 */
public interface HostSpawner extends AutoCloseable {
  /** The backend's name, as {@code --spawn-backend} takes it: "aws", "exec". */
  String backend();

  /** Starts one relay host for {@code slot}; see the class comment. */
  SpawnedHost spawn(SpawnSlot slot);

  /** Stops {@code host}; see the class comment. */
  void release(SpawnedHost host);

  /**
   * Tells the backend the transfer still runs, so a host left behind is not taken for a
   * leftover before {@code expiresAt}; backends that record no expiry ignore it.
   */
  default void extendExpiry(Instant expiresAt) {}

  @Override
  void close();
}
