package dev.relaycp.transfer;

import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.RelayServer;
import dev.relaycp.relay.RelaySettings;
import dev.relaycp.relay.TransferSecret;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Relay servers in the test's JVM, on loopback with real sockets, paired into routes. A start
 * that fails closes the servers it had started.
 */
final class RelayFixture implements AutoCloseable {
  final TransferSecret secret = TransferSecret.generate();
  final List<RelayServer> servers = new ArrayList<>();
  final List<Route> routes = new ArrayList<>();

  static RelayFixture start(int pairs, Configuration configuration) {
    RelayFixture fixture = new RelayFixture();
    try {
      for (int pair = 0; pair < pairs; pair++) {
        RelayServer reader = fixture.startOne(configuration);
        RelayServer writer = fixture.startOne(configuration);
        fixture.routes.add(new Route(pair, address(reader), address(writer)));
      }
    } catch (RuntimeException e) {
      fixture.close();
      throw e;
    }
    return fixture;
  }

  private RelayServer startOne(Configuration configuration) {
    RelayServer server = RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, configuration));
    servers.add(server);
    return server;
  }

  static RelayAddress address(RelayServer server) {
    return RelayAddress.of("127.0.0.1", server.localAddress().getPort());
  }

  @Override
  public void close() {
    servers.forEach(RelayServer::close);
  }
}
