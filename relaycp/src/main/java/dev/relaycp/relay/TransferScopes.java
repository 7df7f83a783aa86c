package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.relay.RelayMessage.Transfer;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transfers a relay serves, shared by all the connections that registered the same one:
 * a driver's connection and the reader relays' many connections of one copy use one caller,
 * so one set of file system clients and namenode connections. When the last connection of a
 * transfer closes, the caller's file systems are closed.
 */
final class TransferScopes {
  private static final Logger LOG = LoggerFactory.getLogger(TransferScopes.class);

  private final Map<Transfer, Registered> registered = new HashMap<>();
  private final Set<URI> localRoots = ConcurrentHashMap.newKeySet();

  private static final class Registered {
    private final TransferScope scope;
    private int connections;

    Registered(TransferScope scope) {
      this.scope = scope;
    }
  }

  /** The scope of {@code transfer} for one more connection; give it back with release. */
  synchronized TransferScope acquire(Transfer transfer) {
    requireNonNull(transfer, "transfer is null");
    Registered entry = registered.computeIfAbsent(transfer,
        ignored -> new Registered(TransferScope.of(transfer, allowsLocal(transfer))));
    entry.connections++;
    if (entry.connections == 1) {
      LOG.info("Serving {} as {}", transfer, entry.scope.caller().getUserName());
    }
    return entry.scope;
  }

  /** One connection of {@code scope}'s transfer closed. */
  void release(TransferScope scope) {
    requireNonNull(scope, "scope is null");
    synchronized (this) {
      Registered entry = registered.get(scope.transfer());
      if (entry == null || entry.scope != scope || --entry.connections > 0) {
        return;
      }
      registered.remove(scope.transfer());
    }
    FileSystemOpener.closeAll(scope.caller());
  }

  /** Lets transfers use the local file system under {@code root} (the relay's own warm-up). */
  void allowLocalRoot(URI root) {
    localRoots.add(requireNonNull(root, "root is null"));
  }

  void disallowLocalRoot(URI root) {
    localRoots.remove(requireNonNull(root, "root is null"));
  }

  private boolean allowsLocal(Transfer transfer) {
    return isUnderLocalRoot(transfer.sourceRoot()) && isUnderLocalRoot(transfer.stagingRoot());
  }

  private boolean isUnderLocalRoot(URI uri) {
    if (!"file".equalsIgnoreCase(uri.getScheme())) {
      return true;
    }
    return localRoots.stream().anyMatch(root -> TransferScope.isInside(uri, root));
  }
}
