package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ReplacedFile;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.Route;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayPoolRoutesTest {
  private static final TransferSecret SECRET = TransferSecret.of(new byte[] {
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  private static final Map<String, String> APPLICATIONS =
      Map.of("src", "application_1_0001", "dst", "application_2_0001");
  private static final Duration WAIT = Duration.ofSeconds(210);
  @TempDir Path folder;

  /** A clock the test moves. */
  private static final class MovingClock extends Clock {
    private volatile Instant now = Instant.now();

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  private static RelayPool pool(Map<String, String> applications, String... readersThenWriters) {
    List<Route> routes = new ArrayList<>();
    for (int index = 0; index < readersThenWriters.length; index += 2) {
      routes.add(new Route(routes.size(), RelayAddress.parse(readersThenWriters[index]),
          RelayAddress.parse(readersThenWriters[index + 1])));
    }
    return RelayPool.of(routes, SECRET, "0123456789abcdef", applications, Map.of(),
        Instant.now().plus(Duration.ofHours(1)));
  }

  private RelayPoolRoutes follow(Path file, MovingClock clock) throws Exception {
    RelayPool first = pool(APPLICATIONS, "dn1:7001", "dn4:7004", "dn2:7002", "dn5:7005");
    first.writeTo(local(file));
    return RelayPoolRoutes.follow(local(file), RelayPool.read(local(file), Instant.now()), true,
        WAIT, clock);
  }

  @Test
  void aCopyStartsOnThePoolsRoutesAndTakesOnlyTheRoutesThePoolAddsAfter() throws Exception {
    Path file = folder.resolve("pool.json");
    RelayPoolRoutes routes = follow(file, new MovingClock());

    assertThat(routes.routes()).extracting(route -> route.id() + ":" + route.reader())
        .containsExactly("0:dn1:7001", "1:dn2:7002");
    assertThat(routes.provisioner()).isEqualTo("yarn-pool");
    assertThat(routes.runsThisBuild(routes.routes().get(0))).isTrue();
    assertThat(routes.readNewRoutes()).as("the file as it was").isEmpty();

    // dn1's relay was lost and replaced by dn3's: the pool names the new route.
    pool(APPLICATIONS, "dn3:7003", "dn4:7004", "dn2:7002", "dn5:7005").writeTo(local(file));

    assertThat(routes.readNewRoutes()).containsExactly(new Route(2,
        RelayAddress.parse("dn3:7003"), RelayAddress.parse("dn4:7004")));
    assertThat(routes.readNewRoutes()).as("read once").isEmpty();
    assertThat(routes.routes()).hasSize(3);
  }

  @Test
  void aRouteMayJoinForTheReplacementWaitAfterTheLastDropWhileThePoolRuns() throws Exception {
    Path file = folder.resolve("pool.json");
    MovingClock clock = new MovingClock();
    RelayPoolRoutes routes = follow(file, clock);

    assertThat(routes.mayJoin()).as("nothing lost, nothing to wait for").isFalse();
    routes.routeDropped(new Route(1000, RelayAddress.parse("spawned-1:7001"),
        RelayAddress.parse("spawned-2:7002")));
    assertThat(routes.mayJoin()).as("a spawned pair's route is not the pool's").isFalse();
    routes.routeDropped(routes.routes().get(0));
    assertThat(routes.mayJoin()).isTrue();
    clock.advance(WAIT.minusSeconds(1));
    assertThat(routes.mayJoin()).isTrue();
    routes.routeDropped(routes.routes().get(1));
    clock.advance(WAIT.minusSeconds(1));
    assertThat(routes.mayJoin()).as("the wait runs from the last drop").isTrue();
    clock.advance(Duration.ofSeconds(1));
    assertThat(routes.mayJoin()).isFalse();

    routes.close();
    routes.routeDropped(routes.routes().get(0));
    assertThat(routes.mayJoin()).as("closed").isFalse();
  }

  @Test
  void aPoolThatStoppedOrGaveItsFileToAnotherPoolAddsNoRouteAndEndsTheWait() throws Exception {
    Path file = folder.resolve("pool.json");
    RelayPoolRoutes stopped = follow(file, new MovingClock());
    stopped.routeDropped(stopped.routes().get(0));
    Files.delete(file);

    assertThat(stopped.readNewRoutes()).isEmpty();
    assertThat(stopped.mayJoin()).as("the pool's file removed: the pool stops").isFalse();

    RelayPoolRoutes taken = follow(file, new MovingClock());
    taken.routeDropped(taken.routes().get(0));
    pool(Map.of("src", "application_3_0001", "dst", "application_4_0001"),
        "dn3:7003", "dn6:7006").writeTo(local(file));

    assertThat(taken.readNewRoutes()).as("another pool's relays share another secret").isEmpty();
    assertThat(taken.mayJoin()).isFalse();
  }

  @Test
  void routesThePoolAddsReachTheCopyWhileItListensUntilClosed() throws Exception {
    Path file = folder.resolve("pool.json");
    RelayPoolRoutes routes = follow(file, new MovingClock());
    LinkedBlockingQueue<Route> joined = new LinkedBlockingQueue<>();
    routes.onJoin(joined::add);

    pool(APPLICATIONS, "dn1:7001", "dn4:7004", "dn2:7002", "dn5:7005", "dn3:7003", "dn6:7006")
        .writeTo(local(file));

    assertThat(joined.poll(10, TimeUnit.SECONDS)).isEqualTo(new Route(2,
        RelayAddress.parse("dn3:7003"), RelayAddress.parse("dn6:7006")));
    routes.close();
    pool(APPLICATIONS, "dn7:7007", "dn8:7008").writeTo(local(file));
    assertThat(joined.poll(2500, TimeUnit.MILLISECONDS)).as("closed: no longer followed")
        .isNull();
  }

  /**
   * The pool file's file system failing for a while (a NameNode failing over) is not the pool's
   * end: the copy keeps following the file and takes the routes the pool adds after.
   */
  @Test
  void aFileThatCannotBeReadForAWhileIsFollowedStill() throws Exception {
    Path file = folder.resolve("pool.json");
    FailingFile failing = new FailingFile(local(file));
    pool(APPLICATIONS, "dn1:7001", "dn4:7004").writeTo(failing);
    RelayPoolRoutes routes = RelayPoolRoutes.follow(failing,
        RelayPool.read(failing, Instant.now()), true, WAIT, new MovingClock());
    routes.routeDropped(routes.routes().get(0));

    failing.failing = true;
    assertThatThrownBy(() -> RelayPool.read(failing, Instant.now()))
        .isInstanceOfSatisfying(RelayCpException.class,
            failure -> assertThat(failure.code()).isEqualTo(ErrorCode.IO_ERROR));
    assertThat(routes.readNewRoutes()).isEmpty();
    assertThat(routes.mayJoin()).as("still waiting for the pool's replacement").isTrue();

    failing.failing = false;
    pool(APPLICATIONS, "dn1:7001", "dn4:7004", "dn2:7002", "dn5:7005").writeTo(failing);
    assertThat(routes.readNewRoutes()).containsExactly(new Route(1,
        RelayAddress.parse("dn2:7002"), RelayAddress.parse("dn5:7005")));
  }

  /** A pool file whose reads fail with an IOException while {@link #failing} is set. */
  private static final class FailingFile implements ReplacedFile {
    private final ReplacedFile file;
    volatile boolean failing;

    FailingFile(ReplacedFile file) {
      this.file = file;
    }

    @Override
    public Optional<Contents> read() throws IOException {
      if (failing) {
        throw new ConnectException("Connection refused (the NameNode is failing over)");
      }
      return file.read();
    }

    @Override
    public void replace(byte[] bytes) throws IOException {
      file.replace(bytes);
    }

    @Override
    public boolean touch(Instant now) throws IOException {
      return file.touch(now);
    }

    @Override
    public boolean exists() throws IOException {
      return file.exists();
    }

    @Override
    public void delete() throws IOException {
      file.delete();
    }

    @Override
    public void deleteOnExit() throws IOException {
      file.deleteOnExit();
    }

    @Override
    public Optional<String> whyNotWritable() throws IOException {
      return file.whyNotWritable();
    }
  }

  /** {@code file} as the pool's file on this machine. */
  private static ReplacedFile local(Path file) {
    return ReplacedFile.at(file.toString(), new org.apache.hadoop.conf.Configuration(false));
  }
}
