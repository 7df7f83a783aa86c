package dev.relaycp.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * DistCp on the same clusters, as a prediction.
 *
 * <p>The copy listing holds one entry per file, or per piece of {@code blocksPerChunk} blocks
 * when {@code -blocksperchunk} is set. DistCp's default {@code uniformsize} strategy cuts the
 * listing, in order, into at most {@code maxMaps} maps of about total / maps bytes each (an entry
 * that would overflow a map that already has one starts the next map), so a huge file is a map
 * of its own. The maps run on the source cluster's nodes in waves of free slots ({@code
 * slotsPerNode} per node); each map pays a task start-up, then copies its entries one after
 * another, each with a per-file cost, at its share of its node's WAN cap. The sum is held under
 * the destination's WAN cap and what the two sites' internal networks carry. The job start-up
 * comes first.
 *
 * <p>With {@code p} pairs, p nodes of the spawned machine type join each cluster (as in the
 * thesis's §6.2): at the source they add map slots once booted, at the destination WAN
 * capacity. Money: egress, the 2p VMs for the whole copy, and the source nodes' time if the user
 * prices it.
 */
public record DistcpModel() implements CopyModel {
  @Override
  public String name() {
    return "distcp";
  }

  @Override
  public Estimate estimate(PlanInput input, int pairs) {
    if (pairs < 0) {
      throw new IllegalArgumentException("pairs " + pairs + " is negative");
    }
    DistcpSettings settings = input.distcp();
    MachineType machine = input.machine();
    Site source = input.source();
    Site destination = input.destination();
    double start = settings.jobStartSeconds();
    double joinSeconds = Math.max(0, machine.bootSeconds() - start);

    List<StreamSimulation.Node> nodes = new ArrayList<>();
    for (int node = 0; node < source.nodes(); node++) {
      nodes.add(new StreamSimulation.Node(source.external().bytesPerSecond(), 0, settings.slotsPerNode()));
    }
    for (int node = 0; node < pairs; node++) {
      nodes.add(
          new StreamSimulation.Node(
              machine.relayRate().bytesPerSecond(), joinSeconds, settings.slotsPerNode()));
    }
    double extra = pairs * machine.relayRate().bytesPerSecond();
    double feed = source.internalTotal().bytesPerSecond() + (joinSeconds == 0 ? extra : 0);
    double absorb =
        (destination.internalTotal().bytesPerSecond() + (joinSeconds == 0 ? extra : 0))
            / destination.replication();
    double wan = destination.externalTotal().bytesPerSecond() + (joinSeconds == 0 ? extra : 0);
    List<StreamSimulation.CapChange> caps = new ArrayList<>();
    caps.add(new StreamSimulation.CapChange(0, Math.min(wan, Math.min(feed, absorb))));
    if (joinSeconds > 0 && pairs > 0) {
      double joinedFeed = source.internalTotal().bytesPerSecond() + extra;
      double joinedAbsorb = (destination.internalTotal().bytesPerSecond() + extra) / destination.replication();
      double joinedWan = destination.externalTotal().bytesPerSecond() + extra;
      caps.add(
          new StreamSimulation.CapChange(
              joinSeconds, Math.min(joinedWan, Math.min(joinedFeed, joinedAbsorb))));
    }
    double data = StreamSimulation.run(nodes, maps(input.workload(), settings), caps);
    double seconds = start + data;
    double dollars =
        input.pricing().egressDollars(input.workload().totalSize())
            + 2 * pairs * machine.dollarsFor(seconds)
            + source.nodes() * input.pricing().clusterNodeDollarsPerHour() * seconds / 3600;
    return new Estimate(pairs, 2 * pairs, seconds, dollars);
  }

  /** The maps of DistCp's {@code uniformsize} strategy, each a task start-up then its entries. */
  static List<List<StreamSimulation.Step>> maps(Workload workload, DistcpSettings settings) {
    long total = workload.totalSize().bytes();
    long perMap = Math.max(1, (long) Math.ceil((double) total / settings.maxMaps()));
    long pieceBytes =
        settings.blocksPerChunk() > 0
            ? settings.blocksPerChunk() * settings.blockSize().bytes()
            : Long.MAX_VALUE;
    List<List<StreamSimulation.Step>> maps = new ArrayList<>();
    List<StreamSimulation.Step> current = new ArrayList<>();
    current.add(new StreamSimulation.Step(settings.taskStartSeconds(), 0));
    long currentBytes = 0;
    for (Workload.FileGroup group : workload.groups()) {
      long size = group.size().bytes();
      for (long file = 0; file < group.count(); file++) {
        long offset = 0;
        do {
          long entry = Math.min(pieceBytes, size - offset);
          if (currentBytes + entry > perMap && current.size() > 1) {
            maps.add(current);
            current = new ArrayList<>();
            current.add(new StreamSimulation.Step(settings.taskStartSeconds(), 0));
            currentBytes = 0;
          }
          current.add(new StreamSimulation.Step(settings.perFileSeconds(), entry));
          currentBytes += entry;
          offset += entry;
        } while (offset < size);
      }
    }
    if (current.size() > 1) {
      maps.add(current);
    }
    return maps;
  }
}
