package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

/**
 * One relay host a copy asks a {@link HostSpawner} for: the site it serves ({@code src} or
 * {@code dst}), its slot on that site (0, 1, ...; a replacement or a pre-test candidate gets a
 * slot of its own), and the transfer it belongs to.
 */
public record SpawnSlot(String transferId, String site, int slot) {
  public static final String SOURCE_SITE = "src";
  public static final String DESTINATION_SITE = "dst";

  public SpawnSlot {
    requireNonNull(transferId, "transferId is null");
    requireNonNull(site, "site is null");
    if (!SOURCE_SITE.equals(site) && !DESTINATION_SITE.equals(site)) {
      throw new IllegalArgumentException("site must be src or dst, got " + site);
    }
    if (slot < 0) {
      throw new IllegalArgumentException("slot must be 0 or more, got " + slot);
    }
  }

  public static SpawnSlot of(String transferId, String site, int slot) {
    return new SpawnSlot(transferId, site, slot);
  }

  @Override
  public String toString() {
    return site + "-" + slot;
  }
}
