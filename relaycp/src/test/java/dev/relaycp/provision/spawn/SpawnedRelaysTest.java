package dev.relaycp.provision.spawn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.RouteSource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        Duration.ofSeconds(60), Instant.now().plusSeconds(3600), Map.of());
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
}
