package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Where the source's bytes are: groups of source datanodes (by index, from 0) that each hold a
 * share of the bytes, every block of a group having a replica on each of its datanodes. A block
 * written by a client on a datanode has its first replica there, so a tree written from one
 * node sits on that node alone; one written from everywhere is spread evenly.
 *
 * @param groups the holders and their shares of the bytes (shares sum to 1)
 */
public record Placement(List<Group> groups) {

  /** Datanodes that each hold a replica of the same blocks, and those blocks' share. */
  public record Group(List<Integer> holders, double share) {
    public Group {
      holders = List.copyOf(requireNonNull(holders, "holders is null"));
      if (holders.isEmpty()) {
        throw new IllegalArgumentException("a group of blocks needs at least one holder");
      }
      if (!(share >= 0)) {
        throw new IllegalArgumentException("a share must be 0 or more, got " + share);
      }
    }
  }

  public Placement {
    groups = List.copyOf(requireNonNull(groups, "groups is null"));
    double total = groups.stream().mapToDouble(Group::share).sum();
    if (!(total > 0)) {
      throw new IllegalArgumentException("a placement needs some bytes, got shares " + groups);
    }
    if (Math.abs(total - 1) > 1e-9) {
      List<Group> scaled = new ArrayList<>();
      for (Group group : groups) {
        scaled.add(new Group(group.holders(), group.share() / total));
      }
      groups = List.copyOf(scaled);
    }
  }

  /** Every byte spread evenly over {@code nodes} datanodes, {@code replication} copies each. */
  public static Placement even(int nodes, int replication) {
    checkNodes(nodes);
    if (replication > 1 && nodes > 1) {
      return new Placement(List.of(new Group(indices(nodes), 1)));
    }
    List<Group> groups = new ArrayList<>();
    for (int node = 0; node < nodes; node++) {
      groups.add(new Group(List.of(node), 1.0 / nodes));
    }
    return new Placement(groups);
  }

  /** Every byte on the first datanode (and its other replicas on the next ones). */
  public static Placement onOne(int nodes, int replication) {
    checkNodes(nodes);
    return new Placement(List.of(
        new Group(indices(Math.max(1, Math.min(replication, nodes))), 1)));
  }

  /** Bytes per datanode, each its own holder. */
  public static Placement ofBytesPerNode(List<Long> bytes) {
    requireNonNull(bytes, "bytes is null");
    List<Group> groups = new ArrayList<>();
    for (int node = 0; node < bytes.size(); node++) {
      if (bytes.get(node) < 0) {
        throw new IllegalArgumentException("bytes on datanode " + node + " are negative");
      }
      groups.add(new Group(List.of(node), bytes.get(node)));
    }
    return new Placement(groups);
  }

  /**
   * A placement as a what-if names it: {@code even}, {@code one} (every byte on one datanode),
   * sizes per datanode ({@code 2GiB,0,0}), or sizes per set of holders, the datanodes numbered
   * from 1 ({@code 1+2=2GiB,3=1GiB}: 2 GiB of blocks with a replica on each of datanodes 1 and
   * 2, 1 GiB on datanode 3 alone), for a site of {@code nodes} datanodes.
   */
  public static Placement parse(String text, int nodes, int replication) {
    requireNonNull(text, "text is null");
    String trimmed = text.trim().toLowerCase(Locale.ROOT);
    if (trimmed.equals("even")) {
      return even(nodes, replication);
    }
    if (trimmed.equals("one")) {
      return onOne(nodes, replication);
    }
    String[] parts = trimmed.split(",");
    if (trimmed.contains("=")) {
      return parseGroups(parts, nodes);
    }
    if (parts.length != nodes) {
      throw new RelayCpException(INVALID_ARGUMENT, "--placement names " + parts.length
          + " datanode(s) but the source has " + nodes + "; give even, one, or one size per"
          + " datanode, e.g. 4GiB,0,0");
    }
    List<Long> bytes = new ArrayList<>();
    for (String part : parts) {
      bytes.add(size(part));
    }
    if (bytes.stream().mapToLong(Long::longValue).sum() == 0) {
      throw new RelayCpException(INVALID_ARGUMENT,
          "--placement puts no bytes anywhere; give at least one datanode a size");
    }
    return ofBytesPerNode(bytes);
  }

  private static Placement parseGroups(String[] parts, int nodes) {
    List<Group> groups = new ArrayList<>();
    for (String part : parts) {
      int equals = part.indexOf('=');
      if (equals < 0) {
        throw new RelayCpException(INVALID_ARGUMENT, "--placement: '" + part.trim()
            + "' has no holders; with sets of holders give each one, e.g. 1+2=2GiB,3=1GiB");
      }
      List<Integer> holders = new ArrayList<>();
      for (String number : part.substring(0, equals).split("\\+")) {
        int node;
        try {
          node = Integer.parseInt(number.trim());
        } catch (NumberFormatException e) {
          node = 0;
        }
        if (node < 1 || node > nodes) {
          throw new RelayCpException(INVALID_ARGUMENT, "--placement: '" + number.trim()
              + "' is not a datanode of the source's " + nodes + "; number them from 1, e.g."
              + " 1+2=2GiB,3=1GiB");
        }
        if (!holders.contains(node - 1)) {
          holders.add(node - 1);
        }
      }
      long bytes = size(part.substring(equals + 1));
      if (bytes > 0) {
        groups.add(new Group(holders, bytes));
      }
    }
    if (groups.isEmpty()) {
      throw new RelayCpException(INVALID_ARGUMENT,
          "--placement puts no bytes anywhere; give at least one set of holders a size");
    }
    return new Placement(groups);
  }

  private static long size(String text) {
    try {
      return DataSize.parse(text.trim()).bytes();
    } catch (IllegalArgumentException | RelayCpException e) {
      throw new RelayCpException(INVALID_ARGUMENT, "--placement: '" + text.trim()
          + "' is not a size; give even, one, or one size per datanode, e.g. 4GiB,0,0", e);
    }
  }

  /**
   * Bytes per set of holders (each set's host names, in any order), as a listing's block
   * locations give them; the hosts are numbered in the order they first appear. Empty when the
   * listing names more hosts than {@code nodes}, or none.
   */
  public static Optional<Placement> ofHolders(Map<List<String>, Long> bytes,
      int nodes) {
    requireNonNull(bytes, "bytes is null");
    Map<String, Integer> index = new LinkedHashMap<>();
    List<Group> groups = new ArrayList<>();
    for (Map.Entry<List<String>, Long> entry : bytes.entrySet()) {
      if (entry.getKey().isEmpty() || entry.getValue() <= 0) {
        continue;
      }
      List<Integer> holders = new ArrayList<>();
      for (String host : entry.getKey()) {
        holders.add(index.computeIfAbsent(host, any -> index.size()));
      }
      groups.add(new Group(holders, entry.getValue()));
    }
    if (groups.isEmpty() || index.size() > nodes) {
      return Optional.empty();
    }
    return Optional.of(new Placement(groups));
  }

  /** The largest datanode index it names, so the site must have at least one more. */
  public int highestHolder() {
    return groups.stream().flatMap(group -> group.holders().stream())
        .mapToInt(Integer::intValue).max().orElse(0);
  }

  private static List<Integer> indices(int count) {
    return IntStream.range(0, count).boxed().toList();
  }

  private static void checkNodes(int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("a placement needs at least one datanode, got " + nodes);
    }
  }
}
