package dev.relaycp.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * What relaycp does, as a prediction.
 *
 * <p>Timeline: the driver starts and lists the source ({@link CopyOverheads#beforeDataSeconds});
 * it requests the spawned VMs at t = 0, so they join {@code bootSeconds} after the start, or at
 * once if listing outlasted their boot. Each source datanode runs a relay that is ready when
 * the data phase begins; each relay is one route that pulls chunks (files cut at {@link
 * RelaycpSettings#chunkSize}) from one queue under the copy's route window: it always holds one
 * chunk, takes more while it holds fewer bytes than the byte window and fewer chunks than the
 * window's chunks and the reader's streams ({@link RelaycpSettings#chunksAtOnce}), and only while
 * more chunks wait than there are routes. So with chunks of whole blocks a route holds one or two
 * and relays that join late find chunks left, and small files overlap their per-file cost on up
 * to that many chunks per route. A datanode relay sends at its node's WAN cap; a spawned relay
 * at the lesser of its VM's WAN and internal rates, and pays {@link
 * RelaycpSettings#spawnedFileCostFactor} times a datanode relay's file and chunk costs.
 * The sum of all streams is held under what the hosts can move together, a maximum flow over
 * their links ({@link HostFlow}): each host's WAN and in-site traffic share its link, relays
 * other than the bytes' datanodes fetch them over those datanodes' links, and replicas cross
 * the destination's; counted over the datanodes and, once ready, the spawned relays, with the
 * bytes where the source's {@link Site#placement} puts them. It is held further to what the
 * destination's write pipelines carry, each chunk a pipeline on the datanodes the fewest open
 * pipelines use ({@link ReplicaPipelines}): a few pipelines cannot always share a few links as
 * evenly as the flow has it. The last chunks' tail falls out of the simulation. Then commit and
 * verification ({@link CopyOverheads#afterDataSeconds}). With compression ({@link
 * RelaycpSettings#compressionRatio}) every WAN cap carries that many times its rate in file
 * bytes; the internal networks carry the files' own bytes.
 *
 * <p>Where the hosts share cores ({@link RelaycpSettings#sharedCores}), each spawned relay's
 * CPU is work on the file work's lanes from the data phase's start, and its route serves once
 * its start is done and its host is up: the shared cores' split decides when. Its warm-up is
 * paid on the files its route carries, over as many as it was measured on: a route that joins
 * late and carries few files pays little of it (without that measure, all of it is load).
 * The bytes moving ask for their CPU on the same lanes, so a copy of large files on few cores
 * goes no faster than the cores can carry its bytes; where the file work's lanes are not
 * limited, the bytes are held under that rate alone.
 *
 * <p>Money: the 2p spawned VMs each run from t = 0 to the end of the data phase, billed by
 * their machine type's granularity and minimum, plus egress for every byte.
 */
public record RelaycpModel() implements CopyModel {
  @Override
  public String name() {
    return "relaycp";
  }

  @Override
  public Estimate estimate(PlanInput input, int pairs) {
    if (pairs < 0) {
      throw new IllegalArgumentException("pairs " + pairs + " is negative");
    }
    Workload workload = input.workload();
    RelaycpSettings settings = input.relaycp();
    CopyOverheads overheads = settings.overheads();
    MachineType machine = input.machine();
    Site source = input.source();
    Site destination = input.destination();
    double before = overheads.beforeDataSeconds(workload.fileCount());
    double joinSeconds = Math.max(0, machine.bootSeconds() - before);

    List<List<StreamSimulation.Step>> chunks = chunks(workload, settings);
    int atOnce = settings.chunksAtOnce(smallestChunk(workload, settings));
    double window = settings.bytesInFlightPerRoute().bytes();
    // A route's streams start one file's cost apart, spread over the streams: a file's opening
    // and closing on one stream overlap other streams' bytes, as they do in a copy.
    double stagger = (overheads.perFileSeconds() + overheads.perChunkSeconds()) / atOnce;
    double ratio = settings.compressionRatio();
    // A spawned relay's rate is the least of its WAN and internal rates; only the WAN part
    // carries compressed bytes.
    double spawnedRate = Math.min(machine.external().bytesPerSecond() * ratio,
        machine.internal().bytesPerSecond());
    List<StreamSimulation.Node> relays = new ArrayList<>();
    for (int node = 0; node < source.nodes(); node++) {
      relays.add(new StreamSimulation.Node(
          source.external().bytesPerSecond() * ratio, 0, atOnce, window, stagger));
    }
    for (int relay = 0; relay < pairs; relay++) {
      relays.add(spawnedWarmUp(settings,
          new StreamSimulation.Node(spawnedRate, joinSeconds, atOnce,
              window, stagger * settings.spawnedFileCostFactor(), settings.spawnedFileCostFactor())));
    }
    double coresLimit = coresLimit(settings);
    List<StreamSimulation.CapChange> caps = new ArrayList<>();
    caps.add(new StreamSimulation.CapChange(0, Math.min(coresLimit,
        hostLimit(source, destination, joinSeconds == 0 ? pairs : 0, machine, ratio, atOnce))));
    if (joinSeconds > 0 && pairs > 0) {
      caps.add(new StreamSimulation.CapChange(joinSeconds, Math.min(coresLimit,
          hostLimit(source, destination, pairs, machine, ratio, atOnce))));
    }
    double filesPerRoute = filesPerRoute(workload, source, pairs);
    double data = StreamSimulation.run(relays, chunks, caps, null, true,
        StreamSimulation.SharedCpu.onLanes(settings.fileLanes())
            .withLoads(spawnedLoads(settings, source.nodes(), pairs, filesPerRoute))
            .withLaneSecondsPerByte(
                settings.sharedCores().cpuSecondsPerByte() * settings.lanesPerSharedCore()));
    double seconds = before + data
        + overheads.afterDataSeconds(workload.fileCount(), filesVerifiedAfter(workload, settings));
    double dollars =
        2 * pairs * machine.dollarsFor(before + data)
            + input.pricing().egressDollars(workload.totalSize());
    return new Estimate(pairs, 2 * pairs, seconds, dollars);
  }

  /**
   * On shared cores, each spawned pair's two relays as work on the file work's lanes from the
   * data phase's start (their JVMs start as their hosts are made, at the request): each JVM on
   * up to one core (its start is mostly one thread's), the pair's route serving once both have
   * done their start's share, and not before their hosts are up. Where the warm-up was measured
   * over a number of files a route, the loads are the starts alone and the route pays the
   * warm-up on the files it carries ({@link #spawnedWarmUp}); otherwise the loads hold it all.
   */
  private static List<StreamSimulation.SharedLoad> spawnedLoads(
      RelaycpSettings settings, int datanodeRelays, int pairs, double filesPerRoute) {
    double lanesPerCore = settings.lanesPerSharedCore();
    SharedCores cores = settings.sharedCores();
    if (lanesPerCore == 0 || cores.spawnedCpuSeconds() == 0) {
      return List.of();
    }
    double cpuSeconds = warmUpOnFiles(settings)
        ? cores.spawnedStartCpuSeconds()
        : cores.spawnedCpuSecondsFor(filesPerRoute);
    List<StreamSimulation.SharedLoad> loads = new ArrayList<>();
    for (int pair = 0; pair < pairs; pair++) {
      loads.add(new StreamSimulation.SharedLoad(0, 2 * cpuSeconds * lanesPerCore,
          2 * lanesPerCore, datanodeRelays + pair,
          2 * cores.spawnedStartCpuSeconds() * lanesPerCore));
    }
    return loads;
  }

  /**
   * A spawned pair's route paying its two relays' warm-up (their CPU beyond their starts) on
   * its first files, as many as the warm-up was measured over: a route that joins late and
   * carries few files pays little of it, one that carries none pays none.
   */
  private static StreamSimulation.Node spawnedWarmUp(
      RelaycpSettings settings, StreamSimulation.Node route) {
    if (!warmUpOnFiles(settings)) {
      return route;
    }
    SharedCores cores = settings.sharedCores();
    double warmUp = cores.spawnedCpuSeconds() - cores.spawnedStartCpuSeconds();
    return route.withWarmUp(2 * warmUp * settings.lanesPerSharedCore(),
        (int) Math.max(1, Math.round(cores.spawnedCpuFiles())));
  }

  /** Whether spawned routes pay their relays' warm-up on their files ({@link #spawnedWarmUp}). */
  private static boolean warmUpOnFiles(RelaycpSettings settings) {
    SharedCores cores = settings.sharedCores();
    return settings.lanesPerSharedCore() > 0 && cores.spawnedCpuSeconds() > 0
        && cores.spawnedCpuFiles() > 0;
  }

  /** The files each route copies were the workload's files spread evenly over every route. */
  static double filesPerRoute(Workload workload, Site source, int pairs) {
    return (double) workload.fileCount() / (source.nodes() + pairs);
  }

  /**
   * The most file bytes a second the shared cores carry when the file work's lanes are not
   * limited (with lanes, the bytes ask for their CPU on them instead); infinite where bytes
   * cost no shared CPU.
   */
  private static double coresLimit(RelaycpSettings settings) {
    SharedCores cores = settings.sharedCores();
    if (cores.cores() == 0 || cores.cpuSecondsPerByte() == 0
        || settings.lanesPerSharedCore() > 0) {
      return Double.POSITIVE_INFINITY;
    }
    return cores.cores() / cores.cpuSecondsPerByte();
  }

  /**
   * One task per chunk; the file's open and close cost rides on its first chunk, whose delay is
   * then shared (see {@link RelaycpSettings}).
   */
  private static List<List<StreamSimulation.Step>> chunks(Workload workload, RelaycpSettings settings) {
    long chunk = settings.chunkSize().bytes();
    CopyOverheads overheads = settings.overheads();
    List<List<StreamSimulation.Step>> tasks = new ArrayList<>();
    for (Workload.FileGroup group : workload.groups()) {
      long size = group.size().bytes();
      long pieces = Math.max(1, (size + chunk - 1) / chunk);
      for (long file = 0; file < group.count(); file++) {
        for (long piece = 0; piece < pieces; piece++) {
          long bytes = Math.min(chunk, size - piece * chunk);
          double fixed = overheads.perChunkSeconds() + (piece == 0 ? overheads.perFileSeconds() : 0);
          tasks.add(List.of(new StreamSimulation.Step(fixed, Math.max(0, bytes), piece == 0)));
        }
      }
    }
    return tasks;
  }

  /**
   * The files the driver verifies after the last byte: those of several chunks, completed from
   * their parts then, and empty ones, which no chunk carries; a file of one chunk is checked
   * while the copy runs.
   */
  private static long filesVerifiedAfter(Workload workload, RelaycpSettings settings) {
    long chunk = settings.chunkSize().bytes();
    long files = 0;
    for (Workload.FileGroup group : workload.groups()) {
      long size = group.size().bytes();
      if (size == 0 || size > chunk) {
        files += group.count();
      }
    }
    return files;
  }

  /** The smallest chunk the workload has: its smallest file, or a whole chunk. */
  private static long smallestChunk(Workload workload, RelaycpSettings settings) {
    long smallest = settings.chunkSize().bytes();
    for (Workload.FileGroup group : workload.groups()) {
      if (group.count() > 0) {
        smallest = Math.min(smallest, Math.max(1, group.size().bytes()));
      }
    }
    return smallest;
  }

  /**
   * The most file bytes a second the hosts move together: the maximum flow over their links
   * ({@link HostFlow}), held to what the destination's write pipelines carry with each chunk's
   * replicas on the datanodes the fewest open pipelines use ({@link ReplicaPipelines}),
   * {@code chunksPerRoute} pipelines a route.
   */
  private static double hostLimit(Site source, Site destination, int pairs, MachineType machine,
      double ratio, int chunksPerRoute) {
    HostFlow.Hosts hosts = new HostFlow.Hosts(source, destination, source.placement(), pairs,
        machine, ratio);
    return Math.min(HostFlow.limit(hosts).rate().bytesPerSecond(),
        ReplicaPipelines.rate(hosts, chunksPerRoute));
  }
}
