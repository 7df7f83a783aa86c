package dev.relaycp.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The most bytes a second the hosts of two sites can move from the source's datanodes to the
 * destination's, as a maximum flow over each host's link.
 *
 * <p>Every host has one link to its site's network. All its traffic shares the link's rate (the
 * site's or the machine's {@code internal}), and the part whose far end is in the other site is
 * held to {@code external} within it: the WAN and the in-site traffic of a host share one cap,
 * as they do in the WAN lab and on many clouds, where a VM's bandwidth counts every byte. A
 * source datanode's bytes leave it through the relay on it (a local read, no link) or over its
 * link to a reader on another host: a datanode whose own blocks are gone, or a spawned relay,
 * which gets bytes only in-site. Every reader sends over its link to the other site, which
 * reaches every writer. A writer on a datanode writes the first replica on its disk; a spawned
 * writer sends it over its link to a datanode; each further replica crosses one destination
 * datanode's link out and another's in, spread evenly over them as HDFS places them.
 *
 * <p>Bytes may sit on some datanodes only ({@link Placement}). A copy cannot end before each
 * holder has handed over its bytes, so the limit is the largest rate R at which every group of
 * holders supplies its share of R at once: a flow kept up for the whole copy moves every byte,
 * and any copy's average is such a flow. With compression the WAN caps carry {@code wanRatio}
 * times their rate in file bytes, while the links are counted in file bytes throughout, which
 * errs on the slow side for a reader's own link. The hosts' names in {@link Limit#boundBy} are
 * {@code src-dn1}.., {@code src-sp1}.. (spawned), and the same with {@code dst}.
 */
public final class HostFlow {
  private static final double INFINITE = Double.POSITIVE_INFINITY;
  private static final String SOURCE = "bytes";
  private static final String SINK = "written";
  private static final String ROUTER = "router";

  /**
   * A limit and the links of a minimum cut just past it.
   *
   * @param rate the most file bytes a second
   * @param boundBy the links that bound it, as "host: which part of its link"
   */
  public record Limit(DataRate rate, List<String> boundBy) {
    public Limit {
      requireNonNull(rate, "rate is null");
      boundBy = List.copyOf(requireNonNull(boundBy, "boundBy is null"));
    }
  }

  /**
   * The hosts of one copy.
   *
   * @param source the source site: its datanodes, each running a reader relay
   * @param destination the destination site: its datanodes, each running a writer relay
   * @param placement where the source's bytes are, by datanode index
   * @param spawnedPairs spawned relays on each site
   * @param spawned the spawned relays' machine: its WAN and link rates
   * @param wanRatio file bytes per byte on the WAN (compression; 1 without)
   */
  public record Hosts(Site source, Site destination, Placement placement, int spawnedPairs,
      MachineType spawned, double wanRatio) {
    public Hosts {
      requireNonNull(source, "source is null");
      requireNonNull(destination, "destination is null");
      requireNonNull(placement, "placement is null");
      requireNonNull(spawned, "spawned is null");
      if (spawnedPairs < 0) {
        throw new IllegalArgumentException("spawnedPairs is negative: " + spawnedPairs);
      }
      if (!(wanRatio >= 1)) {
        throw new IllegalArgumentException("wanRatio must be 1 or more, got " + wanRatio);
      }
      if (placement.highestHolder() >= source.nodes()) {
        throw new IllegalArgumentException("the placement names datanode "
            + placement.highestHolder() + " of a source with " + source.nodes());
      }
    }
  }

  private HostFlow() {}

  /** The copy's limit over {@code hosts}. */
  public static Limit limit(Hosts hosts) {
    requireNonNull(hosts, "hosts is null");
    double high = upperBound(hosts);
    double low = 0;
    if (feasible(hosts, high)) {
      low = high;
    } else {
      for (int step = 0; step < 60; step++) {
        double middle = (low + high) / 2;
        if (feasible(hosts, middle)) {
          low = middle;
        } else {
          high = middle;
        }
      }
    }
    Network past = network(hosts, low * 1.001 + 1e-6);
    List<String> bound = past == null
        ? List.of("the destination's datanode links: replicas alone fill them")
        : past.minimumCut();
    return new Limit(DataRate.ofBytesPerSecond(low), bound);
  }

  /** No copy beats every reader or every writer sending at its WAN cap. */
  private static double upperBound(Hosts hosts) {
    double spawnedWan = hosts.spawnedPairs() * hosts.spawned().external().bytesPerSecond();
    double readers = hosts.source().externalTotal().bytesPerSecond() + spawnedWan;
    double writers = hosts.destination().externalTotal().bytesPerSecond() + spawnedWan;
    return Math.min(readers, writers) * hosts.wanRatio();
  }

  private static boolean feasible(Hosts hosts, double rate) {
    Network network = network(hosts, rate);
    return network != null && network.maxFlow() >= rate * (1 - 1e-9);
  }

  /** The graph at {@code rate}; null where replicas alone overfill the destination's links. */
  private static Network network(Hosts hosts, double rate) {
    Site source = hosts.source();
    Site destination = hosts.destination();
    double ratio = hosts.wanRatio();
    double replicaLoad = (destination.replicasWritten() - 1) * rate / destination.nodes();
    double datanodeLink = destination.internal().bytesPerSecond();
    if (replicaLoad > datanodeLink) {
      return null;
    }
    Network network = new Network();
    for (Placement.Group group : hosts.placement().groups()) {
      String name = "group " + group.holders();
      network.add(SOURCE, name, rate * group.share(), null);
      for (int holder : group.holders()) {
        network.add(name, "src-dn" + (holder + 1) + " send", INFINITE, null);
      }
    }
    for (int node = 0; node < source.nodes(); node++) {
      reader(network, "src-dn" + (node + 1), source.external().bytesPerSecond() * ratio,
          source.internal().bytesPerSecond());
    }
    for (int relay = 0; relay < hosts.spawnedPairs(); relay++) {
      reader(network, "src-sp" + (relay + 1),
          hosts.spawned().external().bytesPerSecond() * ratio,
          hosts.spawned().internal().bytesPerSecond());
    }
    for (int node = 0; node < destination.nodes(); node++) {
      String host = "dst-dn" + (node + 1);
      double room = datanodeLink - replicaLoad;
      network.add(ROUTER, host + " in", destination.external().bytesPerSecond() * ratio,
          host + ": from the other site (v_e)");
      network.add("dst switch", host + " in", INFINITE, null);
      network.add(host + " in", SINK, room, host + ": link in (v_i)");
    }
    for (int relay = 0; relay < hosts.spawnedPairs(); relay++) {
      String host = "dst-sp" + (relay + 1);
      double link = hosts.spawned().internal().bytesPerSecond();
      network.add(ROUTER, host + " in", hosts.spawned().external().bytesPerSecond() * ratio,
          host + ": from the other site (v_e)");
      network.add(host + " in", host + " got", link, host + ": link in (v_i)");
      network.add(host + " got", "dst switch", link, host + ": link out (v_i)");
    }
    return network;
  }

  /**
   * A source host with a reader relay: what leaves it (its own bytes or what it fetched
   * in-site) shares its link; to the other site at most {@code external}.
   */
  private static void reader(Network network, String host, double external, double link) {
    network.add(host + " send", host + " out", link, host + ": link out (v_i)");
    network.add(host + " out", "src switch", INFINITE, null);
    network.add(host + " out", ROUTER, external, host + ": to the other site (v_e)");
    network.add("src switch", host + " in", link, host + ": link in (v_i)");
    network.add(host + " in", host + " send", INFINITE, null);
  }

  /** Capacities on directed edges, with Edmonds-Karp's maximum flow. */
  private static final class Network {
    private final Map<String, Map<String, Double>> residual = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> names = new HashMap<>();

    void add(String tail, String head, double capacity, String name) {
      residual.computeIfAbsent(tail, any -> new LinkedHashMap<>()).merge(head, capacity,
          Double::sum);
      residual.computeIfAbsent(head, any -> new LinkedHashMap<>()).putIfAbsent(tail, 0.0);
      if (name != null) {
        names.computeIfAbsent(tail, any -> new HashMap<>()).put(head, name);
      }
    }

    /** Pushes the most flow from the bytes to the sink; returns its value. Call once. */
    double maxFlow() {
      double total = 0;
      while (true) {
        Map<String, String> parent = new HashMap<>();
        parent.put(SOURCE, null);
        Deque<String> queue = new ArrayDeque<>(List.of(SOURCE));
        while (!queue.isEmpty() && !parent.containsKey(SINK)) {
          String node = queue.poll();
          for (Map.Entry<String, Double> edge : residual.get(node).entrySet()) {
            if (edge.getValue() > 1e-12 && !parent.containsKey(edge.getKey())) {
              parent.put(edge.getKey(), node);
              queue.add(edge.getKey());
            }
          }
        }
        if (!parent.containsKey(SINK)) {
          return total;
        }
        List<String[]> path = new ArrayList<>();
        double pushed = INFINITE;
        for (String node = SINK; parent.get(node) != null; node = parent.get(node)) {
          String tail = parent.get(node);
          path.add(new String[] {tail, node});
          pushed = Math.min(pushed, residual.get(tail).get(node));
        }
        if (pushed == INFINITE) {
          throw new IllegalStateException("a path of unlimited capacity to the sink");
        }
        for (String[] edge : path) {
          residual.get(edge[0]).merge(edge[1], -pushed, Double::sum);
          residual.get(edge[1]).merge(edge[0], pushed, Double::sum);
        }
        total += pushed;
      }
    }

    /**
     * Runs the maximum flow, then names the edges of a minimum cut: those from what the bytes
     * still reach to the rest.
     */
    List<String> minimumCut() {
      maxFlow();
      Set<String> reached = new HashSet<>(List.of(SOURCE));
      Deque<String> queue = new ArrayDeque<>(List.of(SOURCE));
      while (!queue.isEmpty()) {
        String node = queue.poll();
        for (Map.Entry<String, Double> edge : residual.get(node).entrySet()) {
          if (edge.getValue() > 1e-9 && reached.add(edge.getKey())) {
            queue.add(edge.getKey());
          }
        }
      }
      Set<String> cut = new TreeSet<>();
      names.forEach((tail, heads) -> heads.forEach((head, name) -> {
        if (reached.contains(tail) && !reached.contains(head)) {
          cut.add(name);
        }
      }));
      return List.copyOf(cut);
    }
  }
}
