package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.net.InetSocketAddress;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * A datanode's data transfer address, with the host name it registered under, as HDFS's favored
 * nodes name a datanode: the client matches the datanodes the NameNode gives it by that name.
 *
 * @param host the host name (or address) the datanode registered with the NameNode; an IPv6
 *     address keeps its brackets
 * @param port its data transfer port
 */
public record DatanodeAddress(String host, int port) {
  public DatanodeAddress {
    requireNonNull(host, "host is null");
    if (host.isBlank()) {
      throw new IllegalArgumentException("a datanode's host must not be blank");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException(
          "a datanode's transfer port must be 1 to 65535, got " + port);
    }
  }

  /** The transfer address {@code datanode} registered with the NameNode. */
  public static DatanodeAddress transferAddressOf(DatanodeInfo datanode) {
    requireNonNull(datanode, "datanode is null");
    return new DatanodeAddress(datanode.getHostName(), datanode.getXferPort());
  }

  /**
   * {@code host:port} as {@link #toString} writes it; the port is what follows the last colon.
   *
   * @throws IllegalArgumentException naming the text when it is not {@code host:port}
   */
  public static DatanodeAddress parse(String hostAndPort) {
    requireNonNull(hostAndPort, "hostAndPort is null");
    int colon = hostAndPort.lastIndexOf(':');
    String port = colon < 0 ? "" : hostAndPort.substring(colon + 1);
    if (colon < 1 || port.isEmpty() || port.length() > 5
        || !port.chars().allMatch(character -> character >= '0' && character <= '9')) {
      throw new IllegalArgumentException(
          "a datanode address must be host:port, got '" + hostAndPort + "'");
    }
    return new DatanodeAddress(hostAndPort.substring(0, colon), Integer.parseInt(port));
  }

  /**
   * An unresolved socket address: HDFS's client sends favored nodes to the NameNode by name,
   * which resolves them, and a resolved address would name itself by a reverse lookup that need
   * not give the name the datanode registered under.
   */
  public InetSocketAddress unresolved() {
    return InetSocketAddress.createUnresolved(host, port);
  }

  /** {@code host:port}, as {@link #parse} reads it. */
  @Override
  public String toString() {
    return host + ":" + port;
  }
}
