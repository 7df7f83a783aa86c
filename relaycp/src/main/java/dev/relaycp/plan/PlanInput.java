package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;

/**
 * Everything the models read: the files, the two sites, the machine type spawned relays run on,
 * prices, and each model's settings. Models read only the parts they need.
 */
public record PlanInput(
    Workload workload,
    Site source,
    Site destination,
    MachineType machine,
    Pricing pricing,
    RelaycpSettings relaycp,
    DistcpSettings distcp,
    ThesisSettings thesis) {

  public PlanInput {
    requireNonNull(workload, "workload is null");
    requireNonNull(source, "source is null");
    requireNonNull(destination, "destination is null");
    requireNonNull(machine, "machine is null");
    requireNonNull(pricing, "pricing is null");
    requireNonNull(relaycp, "relaycp is null");
    requireNonNull(distcp, "distcp is null");
    requireNonNull(thesis, "thesis is null");
    double cores = relaycp.sharedCores().cores();
    if (cores > 0 && distcp.backgroundCores() >= cores) {
      throw new RelayCpException(INVALID_ARGUMENT, "DistCp's background cores "
          + distcp.backgroundCores() + " leave none of the " + cores + " shared cores to its"
          + " files; give --distcp-background-cores below --shared-cores");
    }
  }

  public PlanInput withMachine(MachineType newMachine) {
    return new PlanInput(workload, source, destination, newMachine, pricing, relaycp, distcp, thesis);
  }

  /**
   * A one-node copy: one source node sends everything over its WAN link to one destination node,
   * as fast as the slower of their WAN caps allows (the thesis's T_sq = s / v_e).
   */
  public double sequentialSeconds() {
    return DataRate.min(source.external(), destination.external()).secondsFor(workload.totalSize());
  }
}
