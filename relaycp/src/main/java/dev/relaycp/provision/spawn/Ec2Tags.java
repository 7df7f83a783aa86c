package dev.relaycp.provision.spawn;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The tags relaycp puts on what it makes in AWS (instances and secret parameters), which
 * {@code relaycp gc} reads back: the transfer, the time after which it is over, and for an
 * instance its site, slot and launch.
 */
public final class Ec2Tags {
  public static final String TRANSFER = "relaycp:transfer";
  /** ISO-8601 instant ({@code 2026-11-24T20:15:00Z}); moved forward while the driver lives. */
  public static final String EXPIRES = "relaycp:expires";
  public static final String SITE = "relaycp:site";
  public static final String SLOT = "relaycp:slot";
  /**
   * The launch's client token, so that an instance whose RunInstances answer never came back
   * can be found and ended by the driver that asked for it.
   */
  public static final String LAUNCH = "relaycp:launch";
  public static final String NAME = "Name";

  private Ec2Tags() {}

  /** The instant of an {@link #EXPIRES} value; empty if it is not one. */
  public static Optional<Instant> expiry(String value) {
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(value.strip()));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
