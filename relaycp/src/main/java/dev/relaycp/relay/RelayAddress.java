package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.net.InetSocketAddress;

/** Where a relay listens: a host name or address and a TCP port. Written {@code host:port}. */
public record RelayAddress(String host, int port) {
  public RelayAddress {
    requireNonNull(host, "host is null");
    if (host.isBlank()) {
      throw new IllegalArgumentException("host is blank");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be 1..65535, got " + port);
    }
  }

  public static RelayAddress of(String host, int port) {
    return new RelayAddress(host, port);
  }

  /** Parses {@code host:port} (an IPv6 host in brackets: {@code [::1]:7000}). */
  public static RelayAddress parse(String text) {
    requireNonNull(text, "text is null");
    int colon = text.lastIndexOf(':');
    String fix = "; write a relay as host:port, e.g. dn1.example.com:7070";
    if (colon <= 0 || colon == text.length() - 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "relay address '" + text + "' has no port" + fix);
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "relay address '" + text + "' has a port that is not a number" + fix);
    }
    if (port < 1 || port > 65535 || host.isBlank()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "relay address '" + text + "' is out of range" + fix);
    }
    return new RelayAddress(host, port);
  }

  public InetSocketAddress toSocketAddress() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public String toString() {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }
}
