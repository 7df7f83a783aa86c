package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.BlockLocation;

/**
 * Where one block of a source file lives: its byte range and the datanodes holding a
 * replica, each as {@link HostAddresses#normalize} names it.
 */
public record BlockPlacement(long offset, long length, List<String> hosts) {
  public BlockPlacement {
    hosts = List.copyOf(requireNonNull(hosts, "hosts is null"));
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "a block needs offset >= 0 and length >= 0, got " + offset + " and " + length);
    }
  }

  /** From Hadoop's location: its datanodes' addresses ("ip:port"), else their host names. */
  public static BlockPlacement of(BlockLocation location) throws IOException {
    requireNonNull(location, "location is null");
    List<String> hosts = new ArrayList<>();
    String[] names = location.getNames();
    String[] found = names.length > 0 ? names : location.getHosts();
    for (String name : found) {
      int colon = name.lastIndexOf(':');
      String host = names.length > 0 && colon > 0 ? name.substring(0, colon) : name;
      String normalized = HostAddresses.normalize(host);
      if (!hosts.contains(normalized)) {
        hosts.add(normalized);
      }
    }
    return new BlockPlacement(location.getOffset(), location.getLength(), hosts);
  }
}
