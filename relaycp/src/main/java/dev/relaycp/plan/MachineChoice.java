package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.RelayCpException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The machine a plan prices spawned relays at: a catalog type ({@code NAME}, {@code
 * PROVIDER/NAME} or {@code auto} for the most WAN per dollar) with the throughput history's
 * measured figures laid over the catalog's, or, without a type, machines as fast as the nodes
 * at a given price and boot time. Every choice adds a note saying where its figures came from.
 *
 * @param vmType the catalog type asked for, if any
 * @param catalogFile the catalog to read; empty for the default one
 * @param dollarsPerHour without a type: the price of a spawned relay's hour
 * @param bootSeconds without a type: a spawned relay's boot time
 */
public record MachineChoice(
    Optional<String> vmType, Optional<Path> catalogFile, double dollarsPerHour, double bootSeconds) {
  /** Without a type: a spawned relay's boot time, the thesis's T_v. */
  public static final double DEFAULT_BOOT_SECONDS = RelayKeys.SPAWN_BOOT_SECONDS.defaultValue();
  /** Without a type: a spawned relay's price, a t2.medium in thesis Table 4.1. */
  public static final double DEFAULT_DOLLARS_PER_HOUR =
      RelayKeys.SPAWN_DOLLARS_PER_HOUR.defaultValue();

  public MachineChoice {
    requireNonNull(vmType, "vmType is null");
    requireNonNull(catalogFile, "catalogFile is null");
  }

  /**
   * The chosen machine. Without a type, it is named {@code unlistedName} and its rates are
   * {@code nodes}'; a missing default catalog is then only a note, and the catalog's best value
   * for WAN per dollar is suggested in another.
   *
   * @param unlistedName the name of a machine that is not from the catalog
   * @param unlistedSource where such a machine's figures come from, for {@link MachineType#source}
   * @param nodes the site whose nodes' rates such a machine has
   * @param measured the throughput history, laid over a catalog type's figures
   * @param historyFile where {@code measured} was read, for the notes
   * @param environment the process environment, where the default catalog is looked up
   * @param notes where the notes are added
   */
  public MachineType choose(String unlistedName, String unlistedSource, Site nodes,
      ThroughputHistory measured, Path historyFile, Map<String, String> environment,
      List<String> notes) {
    Optional<RelayCatalog> catalog = catalog(environment, notes);
    if (vmType.isEmpty()) {
      catalog.ifPresent(found -> {
        MachineType best = found.mostWanPerDollar(Optional.empty(), 1);
        notes.add(String.format(Locale.ROOT,
            "most WAN per dollar in the catalog: %s/%s, %.1f MiB/s per $/h (use --vm-type auto)",
            best.provider(), best.name(), best.externalMebibytesPerSecondPerDollarHour()));
      });
      return new MachineType(unlistedName, "-", unlistedName, dollarsPerHour, nodes.external(),
          nodes.internal(), bootSeconds, 1, 0, unlistedSource);
    }
    RelayCatalog found = catalog.orElseThrow();
    MachineType chosen = vmType.get().equalsIgnoreCase("auto")
        ? found.mostWanPerDollar(Optional.empty(), 1)
        : found.find(vmType.get());
    MachineType withHistory = measured.applyTo(chosen);
    String name = chosen.provider() + "/" + chosen.name();
    notes.add(withHistory.equals(chosen)
        ? "figures of " + name + " from the catalog: " + chosen.source()
        : "figures of " + name + " measured (" + historyFile + "): " + withHistory.source());
    return withHistory;
  }

  /** The catalog; one that cannot be read is an error only when a type was asked for. */
  private Optional<RelayCatalog> catalog(Map<String, String> environment, List<String> notes) {
    if (catalogFile.isPresent()) {
      return Optional.of(RelayCatalog.load(catalogFile.get()));
    }
    try {
      return Optional.of(RelayCatalog.loadDefault(environment));
    } catch (RelayCpException e) {
      if (vmType.isPresent()) {
        throw e;
      }
      notes.add("no relay catalog: " + e.getMessage());
      return Optional.empty();
    }
  }
}
