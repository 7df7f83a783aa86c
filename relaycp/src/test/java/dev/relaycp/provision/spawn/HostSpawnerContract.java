package dev.relaycp.provision.spawn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link HostSpawner} backend does (the contract in its Javadoc); each backend's
 * test extends this and says how to make a spawner and how to tell that a host was stopped.
 */
public abstract class HostSpawnerContract {
  @TempDir protected Path contractDirectory;
  private final List<HostSpawner> opened = new ArrayList<>();

  /** A new spawner of the backend under test for {@code context}. */
  protected abstract HostSpawner newSpawner(SpawnContext context) throws Exception;

  /** Fails unless {@code host} runs (or is starting). */
  protected abstract void assertRunning(SpawnedHost host) throws Exception;

  /** Fails unless {@code host} was stopped and holds nothing. */
  protected abstract void assertReleased(SpawnedHost host) throws Exception;

  /**
   * A context for a new transfer: a fresh secret (also in a file), a 60 s driver timeout, an
   * expiry an hour away, a heartbeat URI per site and this JVM's TLS identity to share;
   * backends override it to point the heartbeats at files their relays can see.
   */
  protected SpawnContext newContext() throws IOException {
    String transferId = UUID.randomUUID().toString();
    TransferSecret secret = TransferSecret.generate();
    Path secretFile = contractDirectory.resolve("secret-" + transferId);
    secret.writeTo(secretFile);
    return new SpawnContext(transferId, secret, secretFile, Duration.ofSeconds(60),
        Instant.now().plus(Duration.ofHours(1)),
        Map.of(SpawnSlot.SOURCE_SITE, "hdfs://nn-a:8020/tmp/relaycp/" + transferId + "/heartbeat",
            SpawnSlot.DESTINATION_SITE,
            "hdfs://nn-b:8020/tmp/relaycp/" + transferId + "/heartbeat"),
        Optional.of(RelayTls.identityToShare().orElseThrow()));
  }

  /** A spawner closed after the test (closing twice is safe by contract). */
  protected final HostSpawner open(SpawnContext context) throws Exception {
    HostSpawner spawner = newSpawner(context);
    opened.add(spawner);
    return spawner;
  }

  @AfterEach
  void closeSpawners() {
    opened.forEach(HostSpawner::close);
  }

  @Test
  void spawnReturnsTheRelayAddressAndRecordsTheSlot() throws Exception {
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);

    SpawnedHost source = spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0));
    SpawnedHost destination = spawner.spawn(context.slot(SpawnSlot.DESTINATION_SITE, 3));

    assertThat(source.slot()).isEqualTo(SpawnSlot.of(context.transferId(), "src", 0));
    assertThat(destination.slot()).isEqualTo(SpawnSlot.of(context.transferId(), "dst", 3));
    assertThat(List.of(source, destination)).allSatisfy(host -> {
      assertThat(host.address().host()).isNotBlank();
      assertThat(host.handle()).isNotBlank();
    });
    assertThat(source.handle()).isNotEqualTo(destination.handle());
    assertRunning(source);
    assertRunning(destination);
    spawner.release(source);
    spawner.release(destination);
  }

  @Test
  void releaseStopsTheHostAndIsIdempotent() throws Exception {
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);
    SpawnedHost host = spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0));

    spawner.release(host);
    spawner.release(host);

    assertReleased(host);
  }

  /**
   * A copy that ends or is stopped while hosts boot interrupts their spawns, and the host is
   * then released from the interrupted thread: the release must still stop it.
   */
  @Test
  void releaseFromAnInterruptedThreadStopsTheHostAndKeepsTheInterrupt() throws Exception {
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);
    SpawnedHost host = spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0));

    boolean keptInterrupt;
    Thread.currentThread().interrupt();
    try {
      spawner.release(host);
    } finally {
      keptInterrupt = Thread.interrupted();
    }

    assertThat(keptInterrupt).as("the caller's interrupt, kept").isTrue();
    assertReleased(host);
  }

  @Test
  void releaseAfterCloseIsSafe() throws Exception {
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);
    SpawnedHost host = spawner.spawn(context.slot(SpawnSlot.DESTINATION_SITE, 1));

    spawner.close();
    spawner.release(host);
    spawner.close();

    assertReleased(host);
  }

  @Test
  void concurrentSpawnsGetHostsOfTheirOwn() throws Exception {
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);
    ExecutorService threads = Executors.newFixedThreadPool(3);
    try {
      List<Future<SpawnedHost>> spawns = new ArrayList<>();
      for (int slot = 0; slot < 3; slot++) {
        SpawnSlot each = context.slot(SpawnSlot.SOURCE_SITE, slot);
        spawns.add(threads.submit(() -> spawner.spawn(each)));
      }
      List<SpawnedHost> hosts = new ArrayList<>();
      for (Future<SpawnedHost> spawn : spawns) {
        hosts.add(spawn.get());
      }
      assertThat(hosts).extracting(SpawnedHost::handle).doesNotHaveDuplicates();
      assertThat(hosts).extracting(host -> host.slot().slot()).containsExactlyInAnyOrder(0, 1, 2);
      for (SpawnedHost host : hosts) {
        spawner.release(host);
        assertReleased(host);
      }
    } finally {
      threads.shutdownNow();
    }
  }
}
