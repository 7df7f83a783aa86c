package dev.relaycp.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * DistCp on the same clusters, as a prediction.
 *
 * <p>The copy listing holds one entry per file, or per piece of {@code blocksPerChunk} blocks
 * when {@code -blocksperchunk} is set. DistCp writes the listing in the order it walks the
 * source, but shuffles every {@value #LISTING_WINDOW} entries before writing them ({@code
 * SimpleCopyListing}'s randomized listing; not with {@code -blocksperchunk}); the model takes the
 * files in the workload's order and places each group's files in a window at their expected
 * positions in the shuffle. DistCp's default {@code uniformsize} strategy then cuts the listing,
 * in order, into maps of about total / {@code maxMaps} bytes each: an entry that would overflow
 * a map that already has one starts the next map, so a huge file is a map of its own and there
 * can be more maps than {@code maxMaps}. The small files between two huge ones form a map, and
 * those after the last huge file of the first window share one map with every later window's
 * small files, which copies them one after another.
 *
 * <p>The maps run on the source cluster's nodes in waves of free slots ({@code slotsPerNode} per
 * node), the map with the most entries first: MapReduce starts the longest splits first, and a
 * DistCp split is as long as its stretch of the listing, not as the bytes it copies. In a mixed
 * tree the small files' long map starts at once and the huge files' maps queue for the other
 * slots. Each map pays a task start-up, then copies its entries one after another, each with a
 * per-file cost; beyond {@code concurrentFiles} maps paying it at once, they
 * share it ({@link DistcpSettings}). A map writes as a remote HDFS client, so the destination's
 * namenode puts each block on a datanode of its choice, at random, and the map keeps it for the
 * block: the maps on a node move at that node's long-run rate when every map's pipeline shares
 * its node's WAN cap and its datanode's cap fairly ({@link RemoteWriterPipelines}), which leaves
 * some datanodes idle while others are crowded. The sum is held under what the hosts can move
 * together, a maximum flow over their links ({@link HostFlow}): a map on a node that does not
 * hold its file's blocks fetches them over the holder's link, which also carries the holder's
 * own WAN traffic, and the bytes are where the source's {@link Site#placement} puts them. The
 * job start-up comes first.
 *
 * <p>With the {@code dynamic} strategy DistCp instead deals the listing's entries out into
 * chunks of {@code ceil(entries / (ratio x maps))} each ({@link #splitRatio}, {@link
 * #dynamicChunks}, as Hadoop's {@code DynamicInputFormat} does), and starts {@code -m} maps (no
 * more than there are chunks) that each pay one task start-up and then take chunk after chunk
 * from the shared pool until none is left: no map waits with its share while another still
 * holds a long tail.
 *
 * <p>On hosts that share their cores ({@link SharedCores}, the WAN lab) every file costs those
 * cores {@link DistcpSettings#cpuSecondsPerFile}, so the maps' copying takes at least the
 * files' CPU over the cores the job leaves them ({@link DistcpSettings#backgroundCores} go to
 * its application master, its client and YARN's daemons), after the first task's start-up,
 * however the simulation above spreads it ({@link #coresBound}).
 *
 * <p>With {@code p} pairs, p nodes of the spawned machine type join each cluster (as in the
 * thesis's §6.2): at the source they add map slots once booted, at the destination WAN
 * capacity, and each adds its rate to what the sites' networks carry. Money: egress, the 2p
 * VMs for the whole copy, and the source nodes' time if the user prices it.
 */
public record DistcpModel() implements CopyModel {
  /** Entries of DistCp's copy listing shuffled together ({@code distcp.simplelisting.file.status.size}). */
  static final int LISTING_WINDOW = 1000;
  /** Chunks {@code DynamicInputFormat} fills at once, dealing the listing's entries in turn. */
  static final int CHUNKS_OPEN_AT_ONCE = 16;

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
    List<StreamSimulation.CapChange> caps = pairs == 0
        ? List.of(new StreamSimulation.CapChange(0, HostFlow.limit(new HostFlow.Hosts(source,
            destination, source.placement(), 0, machine, 1)).rate().bytesPerSecond()))
        : joinedNodesCaps(source, destination, machine, pairs, joinSeconds);
    // Added destination nodes are counted from the start and at the datanodes' WAN rate.
    StreamSimulation.Destinations destinations =
        new StreamSimulation.Destinations(destination.nodes() + pairs,
            destination.external().bytesPerSecond(), destination.replicasWritten());
    double data;
    if (settings.strategy() == DistcpSettings.Strategy.DYNAMIC) {
      List<List<StreamSimulation.Step>> chunks = dynamicChunks(input.workload(), settings);
      data = StreamSimulation.run(dynamicNodes(nodes, chunks.size(), settings), chunks, caps,
          destinations, false, StreamSimulation.SharedCpu.onLanes(settings.fileLanes()));
    } else {
      data = StreamSimulation.run(
          nodes, maps(input.workload(), settings), caps, destinations, false,
          StreamSimulation.SharedCpu.onLanes(settings.fileLanes()));
    }
    double seconds = start + Math.max(data, coresBound(input, settings));
    double dollars =
        input.pricing().egressDollars(input.workload().totalSize())
            + 2 * pairs * machine.dollarsFor(seconds)
            + source.nodes() * input.pricing().clusterNodeDollarsPerHour() * seconds / 3600;
    return new Estimate(pairs, 2 * pairs, seconds, dollars);
  }

  /**
   * The least time the maps' copying takes on shared cores: the first task's start-up, then
   * every file's CPU (the maps', the datanodes' and the namenodes', all on those cores) over
   * the cores the job's own background work leaves; 0 where the hosts have cores of their own
   * or a file's CPU is not given. The hosts' cores are the ones the relaycp settings describe
   * ({@link RelaycpSettings#sharedCores}): one machine runs both tools' copies. {@link
   * PlanInput} holds the background below the cores.
   */
  static double coresBound(PlanInput input, DistcpSettings settings) {
    double cores = input.relaycp().sharedCores().cores();
    if (cores == 0 || settings.cpuSecondsPerFile() == 0) {
      return 0;
    }
    return settings.taskStartSeconds() + input.workload().fileCount()
        * settings.cpuSecondsPerFile() / (cores - settings.backgroundCores());
  }

  /**
   * The caps on all maps together when {@code pairs} nodes join each cluster (the thesis's
   * §6.2): each adds its relay rate to what the sites' networks carry, once booted. Without
   * added nodes the copy runs on the clusters as they are, a flow over their hosts ({@link
   * HostFlow}): a map on a node without the bytes fetches them over the holder's link.
   */
  private static List<StreamSimulation.CapChange> joinedNodesCaps(Site source, Site destination,
      MachineType machine, int pairs, double joinSeconds) {
    double extra = pairs * machine.relayRate().bytesPerSecond();
    List<StreamSimulation.CapChange> caps = new ArrayList<>();
    caps.add(new StreamSimulation.CapChange(
        0, sitesCap(source, destination, joinSeconds == 0 ? extra : 0)));
    if (joinSeconds > 0 && pairs > 0) {
      caps.add(new StreamSimulation.CapChange(
          joinSeconds, sitesCap(source, destination, extra)));
    }
    return caps;
  }

  /**
   * What the sites carry together with {@code joined} bytes a second of added nodes: the least
   * of what the source's network feeds, what the destination's absorbs once each byte is
   * written {@link Site#replicasWritten} times, and the destination's WAN.
   */
  private static double sitesCap(Site source, Site destination, double joined) {
    double feed = source.internalTotal().bytesPerSecond() + joined;
    double absorb =
        (destination.internalTotal().bytesPerSecond() + joined) / destination.replicasWritten();
    double wan = destination.externalTotal().bytesPerSecond() + joined;
    return Math.min(wan, Math.min(feed, absorb));
  }

  /**
   * The maps of DistCp's {@code uniformsize} strategy, each a task start-up then its entries, in
   * the order MapReduce starts them: most entries first, ties in listing order.
   */
  static List<List<StreamSimulation.Step>> maps(Workload workload, DistcpSettings settings) {
    long total = workload.totalSize().bytes();
    long perMap = Math.max(1, (long) Math.ceil((double) total / settings.maxMaps()));
    List<List<StreamSimulation.Step>> maps = new ArrayList<>();
    List<StreamSimulation.Step> current = new ArrayList<>();
    current.add(new StreamSimulation.Step(settings.taskStartSeconds(), 0));
    long currentBytes = 0;
    for (long entry : listing(workload, settings)) {
      if (currentBytes + entry > perMap && current.size() > 1) {
        maps.add(current);
        current = new ArrayList<>();
        current.add(new StreamSimulation.Step(settings.taskStartSeconds(), 0));
        currentBytes = 0;
      }
      current.addAll(fileSteps(settings, entry));
      currentBytes += entry;
    }
    if (current.size() > 1) {
      maps.add(current);
    }
    // MapReduce's JobSubmitter sorts the splits by length, longest first, and the application
    // master hands out containers in that order. A DistCp split's length is its stretch of the
    // listing file, not the bytes it copies, so the map with the most entries runs first.
    maps.sort(Comparator.comparingInt(List<StreamSimulation.Step>::size).reversed());
    return maps;
  }

  /**
   * One entry of the listing as a map's steps: its cost per file on the shared lanes with its
   * bytes, and before it, where the settings keep it apart, the file's wait for its close,
   * which holds no lane.
   */
  private static List<StreamSimulation.Step> fileSteps(DistcpSettings settings, long bytes) {
    StreamSimulation.Step work = new StreamSimulation.Step(settings.perFileSeconds(), bytes, true);
    return settings.closeWaitSeconds() > 0
        ? List.of(new StreamSimulation.Step(settings.closeWaitSeconds(), 0), work)
        : List.of(work);
  }

  /**
   * The {@code dynamic} strategy's maps placed on {@code slots}' nodes: {@code -m} of them (no
   * more than there are {@code chunks} or slots), spread a slot of every node at a time as YARN places
   * them, each ready once its task has started.
   */
  static List<StreamSimulation.Node> dynamicNodes(List<StreamSimulation.Node> slots,
      int chunks, DistcpSettings settings) {
    int maps = Math.min(settings.maxMaps(), Math.max(1, chunks));
    int[] placed = new int[slots.size()];
    int left = maps;
    for (int slot = 0; left > 0; slot++) {
      boolean any = false;
      for (int node = 0; node < slots.size() && left > 0; node++) {
        if (slot < slots.get(node).workers()) {
          placed[node]++;
          left--;
          any = true;
        }
      }
      if (!any) {
        break;
      }
    }
    List<StreamSimulation.Node> nodes = new ArrayList<>();
    for (int node = 0; node < slots.size(); node++) {
      StreamSimulation.Node slotNode = slots.get(node);
      if (placed[node] > 0) {
        nodes.add(new StreamSimulation.Node(slotNode.capBytesPerSecond(),
            slotNode.readySeconds() + settings.taskStartSeconds(), placed[node]));
      }
    }
    return nodes;
  }

  /**
   * The {@code dynamic} strategy's chunks, each a task, as Hadoop's {@code DynamicInputFormat}
   * cuts them: {@code ceil(entries / (ratio x maps))} entries a chunk, dealt out from the listing
   * in turn over sets of {@value #CHUNKS_OPEN_AT_ONCE} chunks open at once (the last set taking
   * every chunk left when fewer than that many would follow it), so consecutive entries, such as
   * the pieces of a file split by {@code -blocksperchunk}, land in different chunks. The maps
   * take the chunks in their order.
   */
  static List<List<StreamSimulation.Step>> dynamicChunks(Workload workload,
      DistcpSettings settings) {
    List<Long> entries = listing(workload, settings);
    int maps = Math.max(1, Math.min(settings.maxMaps(), entries.size()));
    int perChunk = (int) Math.max(1,
        Math.ceil((double) entries.size() / ((long) splitRatio(maps, entries.size()) * maps)));
    int total = (int) Math.ceil((double) entries.size() / perChunk);
    List<List<StreamSimulation.Step>> chunks = new ArrayList<>();
    int open = Math.min(CHUNKS_OPEN_AT_ONCE, total);
    int firstOpen = 0;
    int dealt = 0;
    for (long entry : entries) {
      if (dealt % ((long) open * perChunk) == 0) {
        firstOpen = chunks.size();
        int end = Math.min(total, firstOpen + open);
        if (total - end < open) {
          end = total;
        }
        open = end - firstOpen;
        for (int chunk = firstOpen; chunk < end; chunk++) {
          chunks.add(new ArrayList<>());
        }
        dealt = 0;
      }
      chunks.get(firstOpen + dealt % open).addAll(fileSteps(settings, entry));
      dealt++;
    }
    return chunks;
  }

  /**
   * Chunks per map, as Hadoop's {@code DynamicInputFormat.getSplitRatio} chooses with its
   * defaults: 1 for one map; else as many as keep the chunks near 100 in all, unless that
   * leaves fewer than 5 entries a chunk, when it is 2.
   */
  static int splitRatio(int maps, int entries) {
    if (maps == 1) {
      return 1;
    }
    if (maps > 100) {
      return 2;
    }
    int pickups = (int) Math.ceil(100.0 / maps);
    int perChunk = (int) Math.ceil((double) entries / ((long) maps * pickups));
    return perChunk < 5 ? 2 : pickups;
  }

  /**
   * The bytes of each entry of the copy listing, in the order the maps are cut from. Files come
   * in the workload's order, in windows of {@value #LISTING_WINDOW}; within a window, the k-th of
   * a group's c files sits at k / (c + 1) of the window (the expected position of the k-th of c
   * entries shuffled at random), ties in group order. With {@code -blocksperchunk} the listing
   * is not shuffled and each file is its pieces in order.
   */
  static List<Long> listing(Workload workload, DistcpSettings settings) {
    List<Long> entries = new ArrayList<>();
    if (settings.blocksPerChunk() > 0) {
      long pieceBytes = settings.blocksPerChunk() * settings.blockSize().bytes();
      for (Workload.FileGroup group : workload.groups()) {
        long size = group.size().bytes();
        for (long file = 0; file < group.count(); file++) {
          long offset = 0;
          do {
            long entry = Math.min(pieceBytes, size - offset);
            entries.add(entry);
            offset += entry;
          } while (offset < size);
        }
      }
      return entries;
    }
    List<Workload.FileGroup> groups = workload.groups();
    long[] left = new long[groups.size()];
    for (int group = 0; group < groups.size(); group++) {
      left[group] = groups.get(group).count();
    }
    int group = 0;
    while (group < groups.size()) {
      // The next window: the following LISTING_WINDOW files in workload order, as counts per group.
      long[] inWindow = new long[groups.size()];
      long room = LISTING_WINDOW;
      for (int g = group; g < groups.size() && room > 0; g++) {
        inWindow[g] = Math.min(left[g], room);
        room -= inWindow[g];
      }
      record Placed(double position, int group) {}
      List<Placed> window = new ArrayList<>();
      for (int g = group; g < groups.size(); g++) {
        for (long k = 1; k <= inWindow[g]; k++) {
          window.add(new Placed((double) k / (inWindow[g] + 1), g));
        }
        left[g] -= inWindow[g];
      }
      window.sort(
          Comparator.comparingDouble(Placed::position).thenComparingInt(Placed::group));
      for (Placed placed : window) {
        entries.add(groups.get(placed.group()).size().bytes());
      }
      while (group < groups.size() && left[group] == 0) {
        group++;
      }
    }
    return entries;
  }
}
