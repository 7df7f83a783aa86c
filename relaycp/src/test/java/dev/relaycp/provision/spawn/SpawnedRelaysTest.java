package dev.relaycp.provision.spawn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.RelayServer;
import dev.relaycp.relay.RelaySettings;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.RelayProbe;
import dev.relaycp.transfer.RouteSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
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
import org.apache.hadoop.conf.Configuration;
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

  /**
   * The copy's end releases the hosts still starting. A relay stopped that way closes the
   * driver's handshake, which is no fault of the host: it must not be replaced by a new host
   * (on a cloud, an instance billed for nothing), nor may another route join.
   */
  @Test
  void aHostReleasedByTheCopysEndBeforeItAnsweredIsNotReplaced() throws Exception {
    int pairs = 1;
    try (StoppingRelay relay = new StoppingRelay()) {
      StoppingSpawner spawner = new StoppingSpawner(relay);
      TransferSecret secret = TransferSecret.generate();
      SpawnContext context = new SpawnContext("transfer-1", secret, temporary.resolve("secret"),
          Duration.ofSeconds(60), Instant.now().plusSeconds(3600), Map.of(), Optional.empty());
      SpawnedRelays relays = SpawnedRelays.start(() -> Optional.of(RouteSource.fixed(List.of())),
          new SpawnedRelays.Request(spawner, context, pairs, Duration.ofSeconds(60),
              Optional.empty(), false),
          secret, () -> { });
      try {
        assertThat(relay.awaitAccepted(2 * pairs, 30)).as("both hosts' relays were called")
            .isTrue();

        relays.awaitBackgroundWork();

        assertThat(relays.mayJoin()).as("a route may still join after the copy's end").isFalse();
        assertThat(relay.awaitDriverGone(30)).as("the driver gave up its handshakes").isTrue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (spawner.spawned.get() == 2 * pairs && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(spawner.spawned.get()).as("hosts asked for").isEqualTo(2 * pairs);
        assertThat(relays.hosts()).allSatisfy(host -> {
          assertThat(host.failure()).as("failure of " + host.slot()).isEmpty();
          assertThat(host.released()).as("released " + host.slot()).isTrue();
        });
      } finally {
        relays.close();
      }
      assertThat(spawner.spawned.get()).as("hosts asked for, once closed").isEqualTo(2 * pairs);
    }
  }

  /**
   * A backend that refuses a setting refuses it for every host: no second host is asked for,
   * and the copy fails with the refusal's own code (a user error, exit 3), not as a start
   * that trying again might mend.
   */
  @Test
  void aRefusalAnotherHostWouldMeetIsNotRetriedAndKeepsItsCode() throws Exception {
    RefusingSpawner spawner = new RefusingSpawner();
    TransferSecret secret = TransferSecret.generate();
    SpawnContext context = new SpawnContext("transfer-1", secret, temporary.resolve("secret"),
        Duration.ofSeconds(60), Instant.now().plusSeconds(3600), Map.of(), Optional.empty());
    SpawnedRelays relays = SpawnedRelays.start(Optional::empty,
        new SpawnedRelays.Request(spawner, context, 1, Duration.ofSeconds(60), Optional.empty(),
            false),
        secret, () -> { });
    try {
      assertThatThrownBy(relays::routes)
          .isInstanceOfSatisfying(RelayCpException.class, failure -> {
            assertThat(failure.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(failure.getMessage()).contains("no such subnet");
          });
      assertThat(spawner.spawned.get()).as("hosts asked for, one a site").isEqualTo(2);
    } finally {
      relays.close();
    }
  }

  /**
   * With pre-testing, a pre-test that cannot run (here: scratch folders on no file system)
   * measures no pair, so none joins; the hosts that came up are stopped at once, not left
   * idle until the copy's end, and without datanode relays the copy fails with that reason.
   */
  @Test
  void aPreTestThatCannotRunReleasesEveryHostThatCameUp() throws Exception {
    TransferSecret secret = TransferSecret.generate();
    Configuration plaintext = new Configuration();
    plaintext.setBoolean("relaycp.relay.tls", false);
    try (RelayServer reader = RelayServer.start(
            RelaySettings.of("127.0.0.1", 0, secret, plaintext));
        RelayServer writer = RelayServer.start(
            RelaySettings.of("127.0.0.1", 0, secret, plaintext))) {
      ReleaseCountingSpawner spawner = new ReleaseCountingSpawner(
          RelayAddress.of("127.0.0.1", reader.localAddress().getPort()),
          RelayAddress.of("127.0.0.1", writer.localAddress().getPort()));
      SpawnContext context = new SpawnContext("transfer-1", secret, temporary.resolve("secret"),
          Duration.ofSeconds(60), Instant.now().plusSeconds(3600), Map.of(), Optional.empty());
      SpawnedRelays.Pretest pretest = new SpawnedRelays.Pretest(
          new RelayProbe(FileSystemOpener.of(plaintext)),
          new RelayProbe.Settings(URI.create("nosuch:///scratch"),
              URI.create("nosuch:///scratch"), 1024, 30));
      SpawnedRelays relays = SpawnedRelays.start(Optional::empty,
          new SpawnedRelays.Request(spawner, context, 1, Duration.ofSeconds(60),
              Optional.of(pretest), false),
          secret, () -> { });
      try {
        assertThatThrownBy(relays::routes)
            .isInstanceOfSatisfying(RelayCpException.class, failure -> assertThat(
                failure.getMessage()).contains("nosuch").doesNotContain("within --spawn-timeout"));
        assertThat(spawner.spawned.get()).as("candidate hosts: two pairs").isEqualTo(4);
        assertThat(spawner.released.get()).as("hosts released before the copy's end")
            .isEqualTo(4);
        assertThat(relays.hosts()).allSatisfy(host ->
            assertThat(host.failure()).hasValueSatisfying(
                why -> assertThat(why).startsWith("pre-test failed")));
      } finally {
        relays.close();
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

  /**
   * Every spawned host's relay: it accepts connections and says nothing, and stops (closes its
   * side of every connection) when its host is released, as a relay killed on its host does.
   */
  private static final class StoppingRelay implements AutoCloseable {
    private final ServerSocket server =
        new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final List<Socket> accepted = new ArrayList<>();
    private final List<Socket> stopped = new ArrayList<>();
    private final AtomicInteger driverGone = new AtomicInteger();

    StoppingRelay() throws IOException {
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            Socket socket = server.accept();
            synchronized (accepted) {
              accepted.add(socket);
              accepted.notifyAll();
            }
          }
        } catch (IOException closed) {
          // the test is over
        }
      }, "stopping-relay");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    RelayAddress address() {
      return RelayAddress.of("127.0.0.1", server.getLocalPort());
    }

    boolean awaitAccepted(int connections, int seconds) throws InterruptedException {
      long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(seconds);
      synchronized (accepted) {
        while (accepted.size() < connections && System.currentTimeMillis() < deadline) {
          accepted.wait(50);
        }
        return accepted.size() >= connections;
      }
    }

    /** Ends the relay's side of every connection and watches for the driver to close its own. */
    void stop() {
      synchronized (accepted) {
        for (Socket socket : accepted) {
          if (stopped.contains(socket)) {
            continue;
          }
          stopped.add(socket);
          try {
            socket.shutdownOutput();
          } catch (IOException gone) {
            driverGone.incrementAndGet();
            continue;
          }
          Thread watcher = new Thread(() -> {
            try {
              while (socket.getInputStream().read() >= 0) {
                // the driver's handshake bytes, if any
              }
            } catch (IOException reset) {
              // closed as well
            }
            driverGone.incrementAndGet();
          }, "stopping-relay-watcher");
          watcher.setDaemon(true);
          watcher.start();
        }
      }
    }

    /** Whether the driver has closed every connection the relay had accepted. */
    boolean awaitDriverGone(int seconds) throws InterruptedException {
      long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(seconds);
      int connections;
      synchronized (accepted) {
        connections = accepted.size();
      }
      while (driverGone.get() < connections && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      return driverGone.get() >= connections;
    }

    @Override
    public void close() throws IOException {
      server.close();
      synchronized (accepted) {
        for (Socket socket : accepted) {
          socket.close();
        }
      }
    }
  }

  /** A backend whose hosts all run the one {@link StoppingRelay}; a release stops it. */
  private static final class StoppingSpawner implements HostSpawner {
    private final StoppingRelay relay;
    final AtomicInteger spawned = new AtomicInteger();

    StoppingSpawner(StoppingRelay relay) {
      this.relay = relay;
    }

    @Override
    public String backend() {
      return "test";
    }

    @Override
    public SpawnedHost spawn(SpawnSlot slot) {
      spawned.incrementAndGet();
      return new SpawnedHost(slot, relay.address(), "host-" + slot.site() + "-" + slot.slot(), "");
    }

    @Override
    public void release(SpawnedHost host) {
      relay.stop();
    }

    @Override
    public void close() {}
  }

  /** A backend that refuses every host, as EC2 refuses a subnet it does not have. */
  private static final class RefusingSpawner implements HostSpawner {
    final AtomicInteger spawned = new AtomicInteger();

    @Override
    public String backend() {
      return "test";
    }

    @Override
    public SpawnedHost spawn(SpawnSlot slot) {
      spawned.incrementAndGet();
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "no such subnet: subnet-0");
    }

    @Override
    public void release(SpawnedHost host) {}

    @Override
    public void close() {}
  }

  /** A backend whose source hosts run one relay and destination hosts another; counts both. */
  private static final class ReleaseCountingSpawner implements HostSpawner {
    private final RelayAddress reader;
    private final RelayAddress writer;
    final AtomicInteger spawned = new AtomicInteger();
    final AtomicInteger released = new AtomicInteger();

    ReleaseCountingSpawner(RelayAddress reader, RelayAddress writer) {
      this.reader = reader;
      this.writer = writer;
    }

    @Override
    public String backend() {
      return "test";
    }

    @Override
    public SpawnedHost spawn(SpawnSlot slot) {
      spawned.incrementAndGet();
      return new SpawnedHost(slot, slot.site().equals(SpawnSlot.SOURCE_SITE) ? reader : writer,
          "host-" + slot.site() + "-" + slot.slot(), "");
    }

    @Override
    public void release(SpawnedHost host) {
      released.incrementAndGet();
    }

    @Override
    public void close() {}
  }
}
