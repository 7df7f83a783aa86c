package dev.relaycp.cli;

import dev.relaycp.plan.MachineType;
import dev.relaycp.plan.RelayCatalog;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --vm-type TYPE} and {@code --catalog FILE}: a machine type of the relay catalog. */
public final class CatalogOptions {
  @Option(names = "--vm-type", paramLabel = "TYPE",
      description = "The relays' machine type in the catalog (NAME or PROVIDER/NAME). plan:"
          + " spawn relays of this type, or 'auto' for the most WAN per dollar; without it,"
          + " spawned relays are like the nodes, with --boot-seconds and --vm-price-per-hour."
          + " probe: also record the rate for the type, which plan --vm-type then uses.")
  String vmType;

  @Option(names = "--catalog", paramLabel = "FILE",
      description = "Relay catalog CSV (default: $RELAYCP_CONF_DIR/relay-catalog.csv, else"
          + " conf/relay-catalog.csv).")
  Path catalog;

  public Optional<String> vmType() {
    return Optional.ofNullable(vmType);
  }

  public Optional<Path> catalog() {
    return Optional.ofNullable(catalog);
  }

  /** The {@code --vm-type} in the catalog, if one was given. */
  public Optional<MachineType> find() {
    if (vmType == null) {
      return Optional.empty();
    }
    RelayCatalog found =
        catalog != null ? RelayCatalog.load(catalog) : RelayCatalog.loadDefault(System.getenv());
    return Optional.of(found.find(vmType));
  }
}
