package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class StartingRelaysTest {
  static final SourceTree TREE = new SourceTree(List.of(), List.of(), false);
  static final Route ROUTE = new Route(0, RelayAddress.of("127.0.0.1", 7070),
      RelayAddress.of("127.0.0.1", 7071));

  /** Relays that are there at once, and remember being released. */
  static final class ReleasedRelays implements RouteSource {
    final AtomicBoolean released = new AtomicBoolean();

    @Override
    public List<Route> routes() {
      return List.of(ROUTE);
    }

    @Override
    public String provisioner() {
      return "fake";
    }

    @Override
    public void close() {
      released.set(true);
    }
  }

  @Test
  void theRoutesWaitForTheStartWhichRunsOnAThreadOfItsOwn() throws Exception {
    CountDownLatch mayFinish = new CountDownLatch(1);
    AtomicReference<String> startedOn = new AtomicReference<>();
    ReleasedRelays relays = new ReleasedRelays();

    try (StartingRelays starting = StartingRelays.start(tree -> {
      startedOn.set(Thread.currentThread().getName());
      try {
        mayFinish.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      return relays;
    }, TREE)) {
      CompletableFuture<List<Route>> routes = CompletableFuture.supplyAsync(starting::routes);
      Thread.sleep(200);
      assertThat(routes).as("routes before the start has finished").isNotDone();

      mayFinish.countDown();

      assertThat(routes.get(10, TimeUnit.SECONDS)).containsExactly(ROUTE);
      assertThat(starting.provisioner()).isEqualTo("fake");
      assertThat(startedOn.get()).isEqualTo("relays-start");
    }
    assertThat(relays.released).as("released by close").isTrue();
  }

  @Test
  void aFailedStartIsThrownByTheFirstCallThatNeedsTheRelaysAndCloseReleasesNothing() {
    RelayCpException failure = new RelayCpException(ErrorCode.RELAY_START_FAILED,
        "no relay container announced itself; check the NodeManagers' logs");
    StartingRelays starting = StartingRelays.start(tree -> {
      throw failure;
    }, TREE);

    assertThatThrownBy(starting::routes).isSameAs(failure);
    assertThatThrownBy(starting::mayJoin).isSameAs(failure);
    starting.close();
  }

  @Test
  void closeInterruptsAStartUnderWayAndReleasesWhatItStarted() throws Exception {
    CountDownLatch startBegun = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    ReleasedRelays relays = new ReleasedRelays();
    StartingRelays starting = StartingRelays.start(tree -> {
      startBegun.countDown();
      try {
        Thread.sleep(TimeUnit.MINUTES.toMillis(5));
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
      // What had started by then: the caller must still release it.
      return relays;
    }, TREE);
    assertThat(startBegun.await(10, TimeUnit.SECONDS)).isTrue();

    starting.close();

    assertThat(interrupted).as("the start was interrupted").isTrue();
    assertThat(relays.released).as("what it started was released").isTrue();
  }
}
