package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One name for each host, so that a relay named by its host name ({@code dn1-a}) and a
 * block location named by its datanode's address ({@code 10.0.0.11}) compare equal: the IP
 * address the name resolves to, or the name in lower case when it does not resolve.
 * Results are cached for the life of the process (a copy's hosts do not move).
 */
public final class HostAddresses {
  private static final Map<String, String> CACHE = new ConcurrentHashMap<>();

  private HostAddresses() {}

  public static String normalize(String hostOrAddress) {
    requireNonNull(hostOrAddress, "hostOrAddress is null");
    return CACHE.computeIfAbsent(hostOrAddress, HostAddresses::resolve);
  }

  private static String resolve(String host) {
    try {
      return InetAddress.getByName(host).getHostAddress();
    } catch (UnknownHostException | SecurityException e) {
      return host.toLowerCase(Locale.ROOT);
    }
  }
}
