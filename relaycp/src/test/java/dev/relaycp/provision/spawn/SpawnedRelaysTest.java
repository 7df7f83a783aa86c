package dev.relaycp.provision.spawn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.RouteSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpawnedRelaysTest {
  @TempDir
  Path temporary;

  /**
   * On SIGTERM the shutdown hook may call close while the copy's own close is under way; if the
   * hook returned at once, Hadoop would close the file systems and the JVM halt mid-release.
   */
  @Test
  void aCloseWhileAnotherIsUnderWayReturnsOnlyOnceThatOneHasEnded() throws Exception {
    CountDownLatch closingSpawner = new CountDownLatch(1);
    CountDownLatch letSpawnerClose = new CountDownLatch(1);
    HostSpawner spawner = new SlowClosingSpawner(closingSpawner, letSpawnerClose);
    TransferSecret secret = TransferSecret.generate();
    SpawnContext context = new SpawnContext("transfer-1", secret, temporary.resolve("secret"),
        Duration.ofSeconds(60), Instant.now().plusSeconds(3600), Map.of(), Optional.empty());
    SpawnedRelays relays = SpawnedRelays.start(() -> Optional.of(RouteSource.fixed(List.of())),
        new SpawnedRelays.Request(spawner, context, 1, Duration.ofSeconds(30), Optional.empty(),
            false),
        secret, () -> { });

    Thread first = new Thread(relays::close, "first-close");
    first.start();
    assertThat(closingSpawner.await(30, TimeUnit.SECONDS)).as("the first close began").isTrue();
    Thread second = new Thread(relays::close, "second-close");
    second.start();
    Thread.State state = awaitBlockedOrEnded(second);

    assertThat(state).as("the second close, while the first has not ended")
        .isEqualTo(Thread.State.BLOCKED);
    letSpawnerClose.countDown();
    first.join(30_000);
    second.join(30_000);
    assertThat(first.isAlive()).isFalse();
    assertThat(second.isAlive()).isFalse();
  }

  /**
   * A backend's release can take seconds (a lab host up to two, an EC2 call per instance a
   * fraction); the copy's end waits for the releases, so they must overlap, not add up.
   * Each release here returns only once every host's release has begun: one after another,
   * the first would wait out its whole deadline alone.
   */
  @Test
  void theHostsUpAtTheCopysEndAreReleasedAllAtOnce() throws Exception {
    int pairs = 2;
    try (ServerSocket silentRelay = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> answered = new ArrayList<>();
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            Socket socket = silentRelay.accept();
            synchronized (answered) {
              answered.add(socket);
            }
          }
        } catch (IOException closed) {
          // the test is over
        }
      }, "silent-relay");
      acceptor.setDaemon(true);
      acceptor.start();
      ReleaseRecordingSpawner spawner = new ReleaseRecordingSpawner(
          RelayAddress.of("127.0.0.1", silentRelay.getLocalPort()), 2 * pairs);
      TransferSecret secret = TransferSecret.generate();
      SpawnContext context = new SpawnContext("transfer-1", secret, temporary.resolve("secret"),
          Duration.ofSeconds(60), Instant.now().plusSeconds(3600), Map.of(), Optional.empty());
      SpawnedRelays relays = SpawnedRelays.start(() -> Optional.of(RouteSource.fixed(List.of())),
          new SpawnedRelays.Request(spawner, context, pairs, Duration.ofSeconds(60),
              Optional.empty(), false),
          secret, () -> { });
      try {
        // A host's relay is called only once its spawn has returned it, so that every host
        // is tracked as up when the copy's end comes.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (answeredCount(answered) < 2 * pairs && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(answeredCount(answered)).as("hosts whose relay was called").isEqualTo(2 * pairs);

        relays.awaitBackgroundWork();

        assertThat(spawner.released.get()).as("hosts released").isEqualTo(2 * pairs);
        assertThat(spawner.releasedAlone.get())
            .as("releases that waited out their deadline with the others not yet begun")
            .isZero();
      } finally {
        relays.close();
        synchronized (answered) {
          for (Socket socket : answered) {
            socket.close();
          }
        }
      }
    }
  }

  private static int answeredCount(List<Socket> answered) {
    synchronized (answered) {
      return answered.size();
    }
  }

  private static Thread.State awaitBlockedOrEnded(Thread thread) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      Thread.State state = thread.getState();
      if (state == Thread.State.BLOCKED || state == Thread.State.TERMINATED) {
        return state;
      }
      Thread.sleep(10);
    }
    return thread.getState();
  }

  /** A backend whose every spawn fails, and whose close waits to be let through. */
  private static final class SlowClosingSpawner implements HostSpawner {
    private final CountDownLatch closing;
    private final CountDownLatch letClose;

    SlowClosingSpawner(CountDownLatch closing, CountDownLatch letClose) {
      this.closing = closing;
      this.letClose = letClose;
    }

    @Override
    public String backend() {
      return "test";
    }

    @Override
    public SpawnedHost spawn(SpawnSlot slot) {
      throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "this backend starts nothing");
    }

    @Override
    public void release(SpawnedHost host) {}

    @Override
    public void close() {
      closing.countDown();
      try {
        letClose.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * A backend whose hosts all listen at one address, and whose release waits (up to 10 s) for
   * every host's release to have begun, counting those that had to give up waiting.
   */
  private static final class ReleaseRecordingSpawner implements HostSpawner {
    private final RelayAddress address;
    private final CountDownLatch releasesBegun;
    final AtomicInteger released = new AtomicInteger();
    final AtomicInteger releasedAlone = new AtomicInteger();

    ReleaseRecordingSpawner(RelayAddress address, int hosts) {
      this.address = address;
      this.releasesBegun = new CountDownLatch(hosts);
    }

    @Override
    public String backend() {
      return "test";
    }

    @Override
    public SpawnedHost spawn(SpawnSlot slot) {
      return new SpawnedHost(slot, address, "host-" + slot.site() + "-" + slot.slot(), "");
    }

    @Override
    public void release(SpawnedHost host) {
      releasesBegun.countDown();
      try {
        if (!releasesBegun.await(10, TimeUnit.SECONDS)) {
          releasedAlone.incrementAndGet();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      released.incrementAndGet();
    }

    @Override
    public void close() {}
  }
}
