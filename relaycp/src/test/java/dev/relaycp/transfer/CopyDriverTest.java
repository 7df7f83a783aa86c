package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.provision.LocalRelayProcesses;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.RelayServer;
import dev.relaycp.relay.RelaySettings;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CopyDriverTest {
  static final long BLOCK = 256 * 1024;

  @RegisterExtension
  static final ClustersWithRelays fixture =
      ClustersWithRelays.of(2, BLOCK, 2, new Configuration());

  static List<String> files;

  @BeforeAll
  static void writeData() throws IOException {
    files = DemoDataset.write(fixture.source(), new Path("/data"), BLOCK, 40, 9, 42);
  }

  CopyReport copy(String from, String to, boolean overwrite) {
    return new CopyDriver(fixture.opener()).copy(
        CopySettings.of(fixture.sourceUri(from), fixture.destinationUri(to), overwrite),
        fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE);
  }

  @Test
  void copiesEveryCaseByteForByteWithAttributes() throws IOException {
    CopyReport report = copy("/data", "/copy", false);

    assertThat(report.files()).isEqualTo(files.size());
    assertThat(report.allVerified()).isTrue();
    assertThat(report.verification()).hasSize(files.size());
    assertThat(report.chunks()).isGreaterThan(files.size());
    assertThat(report.phaseSeconds()).containsOnlyKeys(
        "listing", "relays", "copying", "completing", "verifying", "committing");
    assertThat(report.provisioner()).isEqualTo("static");
    assertThat(report.localReadFraction()).as("relays on loopback, beside every datanode")
        .isEqualTo(1.0);
    // Each phase is rounded to the millisecond.
    assertThat(report.phaseSeconds().values().stream().mapToDouble(Double::doubleValue).sum())
        .isLessThanOrEqualTo(report.seconds() + 0.005);
    assertThat(report.routeResults()).extracting(RouteResult::routeId).containsExactly(0, 1);
    assertThat(report.routeResults().stream().mapToLong(RouteResult::bytes).sum())
        .isEqualTo(report.bytes());
    assertThat(report.routeResults().stream().mapToInt(RouteResult::chunks).sum())
        .isEqualTo(report.chunks() - report.chunksResent());
    for (RouteResult route : report.routeResults()) {
      assertThat(route.dropped()).isFalse();
      if (route.bytes() > 0) {
        assertThat(route.busySeconds()).isPositive().isLessThanOrEqualTo(report.seconds());
      }
    }
    for (String file : files) {
      Path from = new Path("/data", file);
      Path to = new Path("/copy", file);
      assertThat(read(fixture.destination(), to)).as(file).isEqualTo(read(fixture.source(), from));
      FileStatus original = fixture.source().getFileStatus(from);
      FileStatus copied = fixture.destination().getFileStatus(to);
      assertThat(copied.getPermission()).as(file).isEqualTo(original.getPermission());
      assertThat(copied.getModificationTime()).as(file).isEqualTo(original.getModificationTime());
      assertThat(copied.getReplication()).as(file).isEqualTo(original.getReplication());
      assertThat(copied.getOwner()).as(file).isEqualTo(original.getOwner());
      assertThat(copied.getGroup()).as(file).isEqualTo(original.getGroup());
      assertThat(fixture.destination().getFileChecksum(to)).as(file)
          .isEqualTo(fixture.source().getFileChecksum(from));
    }
    assertThat(fixture.destination().getFileStatus(new Path("/copy/empty dir")).isDirectory())
        .isTrue();
    assertThat(fixture.destination().getFileStatus(new Path("/copy", DemoDataset.MULTI_BLOCK))
        .getLen())
        .isEqualTo(9 * BLOCK + 12_345);
    assertNoStaging();
  }

  @Test
  void existingTargetWithoutOverwriteNamesTheFileAndChangesNothing() throws IOException {
    fixture.destination().mkdirs(new Path("/occupied/big"));
    try (var out = fixture.destination().create(new Path("/occupied", DemoDataset.ONE_BLOCK))) {
      out.write(new byte[] {1, 2, 3});
    }

    assertThatThrownBy(() -> copy("/data", "/occupied", false))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("one-block.bin exists; pass --overwrite")
        .satisfies(e -> assertThat(((RelayCpException) e).code()).isEqualTo(ErrorCode.TARGET_EXISTS));
    assertThat(fixture.destination().getFileStatus(new Path("/occupied", DemoDataset.ONE_BLOCK))
        .getLen())
        .isEqualTo(3);
    assertThat(fixture.destination().exists(new Path("/occupied", DemoDataset.EMPTY))).isFalse();

    CopyReport report = copy("/data", "/occupied", true);
    assertThat(report.allVerified()).isTrue();
    assertThat(fixture.destination().getFileStatus(new Path("/occupied", DemoDataset.ONE_BLOCK))
        .getLen())
        .isEqualTo(BLOCK);
    assertNoStaging();
  }

  @Test
  void anAtomicCopyAppearsWholeByOneRenameAndRefusesAnExistingDestination() throws Exception {
    CopySettings atomic = CopySettings.of(fixture.sourceUri("/data"),
            fixture.destinationUri("/atomic/copy"), false)
        .withSync(new SyncSettings(false, false, PreservedAttribute.DEFAULT, List.of(),
            java.util.Optional.empty(), true));

    CopyReport report = new CopyDriver(fixture.opener()).copy(atomic, fixture.routes(),
        fixture.secret(), TransferProgress.Listener.NONE);

    assertThat(report.allVerified()).isTrue();
    for (String file : files) {
      assertThat(read(fixture.destination(), new Path("/atomic/copy", file))).as(file)
          .isEqualTo(read(fixture.source(), new Path("/data", file)));
    }
    assertThat(fixture.destination().getFileStatus(new Path("/atomic/copy")).getPermission())
        .isEqualTo(fixture.source().getFileStatus(new Path("/data")).getPermission());
    assertThat(fixture.destination().listStatus(new Path("/atomic")))
        .as("only the tree, no staging").hasSize(1);

    assertThatThrownBy(() -> new CopyDriver(fixture.opener()).copy(atomic, fixture.routes(),
        fixture.secret(), TransferProgress.Listener.NONE))
        .isInstanceOfSatisfying(RelayCpException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.TARGET_EXISTS);
          assertThat(e).hasMessageContaining("--atomic");
        });
    assertThat(fixture.destination().listStatus(new Path("/atomic"))).hasSize(1);
  }

  @Test
  void missingSourceIsAUserErrorAndCreatesNothing() throws IOException {
    assertThatThrownBy(() -> copy("/no/such/dir", "/never", false))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("does not exist")
        .satisfies(e -> assertThat(((RelayCpException) e).code())
            .isEqualTo(ErrorCode.SOURCE_NOT_FOUND));
    assertThat(fixture.destination().exists(new Path("/never"))).isFalse();
    assertNoStaging();
  }

  /** Chunks the fixture's relays have read so far. */
  private static long chunksRead() {
    return fixture.relays().servers.stream().mapToLong(server -> server.counters().chunksRead())
        .sum();
  }

  @Test
  void aDestinationThatIsTheSourceOrInsideItIsRefusedBeforeAnythingMoves() throws IOException {
    long before = chunksRead();
    for (String target : new String[] {"/data", "/data/inner", "/data/small/deeper"}) {
      assertThatThrownBy(() -> new CopyDriver(fixture.opener()).copy(
          CopySettings.of(fixture.sourceUri("/data"), fixture.sourceUri(target), true),
          fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE))
          .as(target)
          .isInstanceOfSatisfying(RelayCpException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessageContaining("copy the tree into itself");
    }
    assertThat(fixture.source().exists(new Path("/data/inner"))).isFalse();
    assertThat(chunksRead()).isEqualTo(before);
    // A name that only starts like the source is outside it.
    CopyDriver.refuseCopyIntoItself(new Path("hdfs://nn:8020/data"),
        new Path("hdfs://nn:8020/data-copy"));
    CopyDriver.refuseCopyIntoItself(new Path("hdfs://nn:8020/data"),
        new Path("hdfs://other:8020/data"));
  }

  @Test
  void aSourceWithoutFileChecksumsIsRefusedBeforeAnythingMoves(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path local) throws IOException {
    java.nio.file.Files.writeString(local.resolve("a.txt"), "no checksum here");

    assertThatThrownBy(() -> new CopyDriver(fixture.opener()).copy(
        CopySettings.of(local.toUri(), fixture.destinationUri("/from-local"), false),
        fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_FILESYSTEM))
        .hasMessageContaining("gives no file checksums")
        .hasMessageContaining("nothing was copied");
    assertThat(fixture.destination().exists(new Path("/from-local"))).isFalse();
    assertNoStaging();
  }

  @Test
  void singleFileOntoAnExistingDirectoryLandsInside() throws IOException {
    fixture.destination().mkdirs(new Path("/single"));
    CopyReport report = copy("/data/" + DemoDataset.MULTI_BLOCK, "/single", false);
    assertThat(report.files()).isEqualTo(1);
    assertThat(read(fixture.destination(), new Path("/single/multi-block.bin")))
        .isEqualTo(read(fixture.source(), new Path("/data", DemoDataset.MULTI_BLOCK)));
  }

  @Test
  void relaysAreReleasedOnceTheBytesAreCopiedBeforeAnyFileIsCommitted() throws IOException {
    Path committed = new Path("/released/" + DemoDataset.MULTI_BLOCK);
    AtomicReference<String> closedWhile = new AtomicReference<>();
    AtomicReference<String> closedOn = new AtomicReference<>();
    AtomicBoolean copyReturned = new AtomicBoolean();
    RouteSource recording = new RouteSource() {
      @Override
      public List<Route> routes() {
        return fixture.routes();
      }

      @Override
      public String provisioner() {
        return "recording";
      }

      @Override
      public void close() {
        if (closedWhile.get() != null) {
          return;
        }
        try {
          closedWhile.set(fixture.destination().exists(committed) ? "committed" : "not committed");
        } catch (IOException e) {
          closedWhile.set(e.toString());
        }
        closedOn.set(Thread.currentThread().getName() + (copyReturned.get() ? " after" : ""));
      }
    };

    CopyReport report = new CopyDriver(fixture.opener()).copy(
        CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/released"),
            false),
        tree -> recording, fixture.secret(), TransferProgress.Listener.NONE);
    copyReturned.set(true);

    assertThat(report.allVerified()).isTrue();
    assertThat(fixture.destination().exists(committed)).isTrue();
    assertThat(closedWhile.get()).as("what the relays' release found at the destination")
        .isEqualTo("not committed");
    assertThat(closedOn.get()).as("the release's thread, ended before the copy returned")
        .isEqualTo("relay-release");
  }

  @Test
  void theStagingIsMadeWhileTheRelaysStart() throws IOException {
    Set<String> before = stagingNames();
    AtomicReference<String> startedOn = new AtomicReference<>();
    AtomicBoolean stagingSeen = new AtomicBoolean();

    CopyReport report = new CopyDriver(fixture.opener()).copy(
        CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/overlapped"),
            false),
        tree -> {
          startedOn.set(Thread.currentThread().getName());
          stagingSeen.set(awaitNewStaging(before));
          return RouteSource.fixed(fixture.routes());
        }, fixture.secret(), TransferProgress.Listener.NONE);

    assertThat(report.allVerified()).isTrue();
    assertThat(stagingSeen).as("a staging appeared while the relays were starting").isTrue();
    assertThat(startedOn.get()).isEqualTo("relays-start");
    assertThat(report.phaseSeconds()).containsKeys("listing", "relays", "copying");
    assertNoStaging();
  }

  @Test
  void aRelayStartThatFailsLeavesNoStagingAndSaysWhy() throws IOException {
    Set<String> before = stagingNames();
    AtomicBoolean stagingSeen = new AtomicBoolean();

    assertThatThrownBy(() -> new CopyDriver(fixture.opener()).copy(
            CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/unstarted"),
                false),
            tree -> {
              stagingSeen.set(awaitNewStaging(before));
              throw new RelayCpException(ErrorCode.RELAY_START_FAILED,
                  "no relay container announced itself");
            }, fixture.secret(), TransferProgress.Listener.NONE))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("no relay container announced itself")
        .satisfies(e -> assertThat(((RelayCpException) e).code())
            .isEqualTo(ErrorCode.RELAY_START_FAILED));
    assertThat(stagingSeen).as("a staging appeared while the relays were starting").isTrue();
    assertThat(fixture.destination().exists(new Path("/unstarted"))).isFalse();
    assertNoStaging();
  }

  /** Names of the staging folders at the destination's root now. */
  static Set<String> stagingNames() throws IOException {
    return Arrays.stream(fixture.destination().listStatus(new Path("/")))
        .map(status -> status.getPath().getName())
        .filter(name -> name.startsWith(".relaycp-staging"))
        .collect(Collectors.toSet());
  }

  /** Whether a staging folder not in {@code before} appears within 20 s. */
  static boolean awaitNewStaging(Set<String> before) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    try {
      while (System.nanoTime() < deadline) {
        Set<String> now = stagingNames();
        now.removeAll(before);
        if (!now.isEmpty()) {
          return true;
        }
        Thread.sleep(50);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  @Test
  void corruptedFrameIsDetectedAndTheChunkResent() throws IOException {
    RelayServer writer = fixture.relays().servers.get(1);
    long corruptBefore = writer.counters().corruptFrames();
    try (CorruptingProxy proxy = new CorruptingProxy(writer.localAddress().getPort(), 200_000)) {
      Route damaged = new Route(0, fixture.routes().get(0).reader(),
          RelayAddress.of("127.0.0.1", proxy.port()));
      CopyReport report = new CopyDriver(fixture.opener()).copy(
          CopySettings.of(fixture.sourceUri("/data/big"), fixture.destinationUri("/corrupt"),
              false),
          List.of(damaged), fixture.secret(), TransferProgress.Listener.NONE);

      assertThat(report.allVerified()).isTrue();
      assertThat(report.chunksResent()).isGreaterThanOrEqualTo(1);
      assertThat(writer.counters().corruptFrames()).isGreaterThan(corruptBefore);
      assertThat(read(fixture.destination(), new Path("/corrupt/multi-block.bin")))
          .isEqualTo(read(fixture.source(), new Path("/data", DemoDataset.MULTI_BLOCK)));
    }
  }

  @Test
  void wrongSecretIsRefusedAndNothingIsWritten() throws IOException {
    RelayServer reader = fixture.relays().servers.get(0);
    long rejectedBefore = reader.counters().connectionsRejected();

    assertThatThrownBy(() -> new CopyDriver(fixture.opener()).copy(
            CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/refused"), false),
            fixture.routes().subList(0, 1), TransferSecret.generate(),
            TransferProgress.Listener.NONE))
        .isInstanceOf(RelayCpException.class)
        .hasMessageStartingWith("every route failed")
        .hasMessageContaining("the same --secret-file")
        // Refused on every route: the user's to fix, which no retry mends.
        .satisfies(e -> assertThat(((RelayCpException) e).code())
            .isEqualTo(ErrorCode.RELAY_AUTHENTICATION_FAILED));
    assertThat(reader.counters().connectionsRejected()).isGreaterThan(rejectedBefore);
    assertThat(fixture.destination().exists(new Path("/refused"))).isFalse();
    assertNoStaging();
  }

  @Test
  void unauthenticatedRequestIsClosedWithoutReachingAFileSystem() throws Exception {
    RelayServer reader = fixture.relays().servers.get(0);
    long rejectedBefore = reader.counters().connectionsRejected();
    long readBefore = reader.counters().chunksRead();
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1",
        reader.localAddress().getPort())) {
      socket.setSoTimeout(15_000);
      // A SEND_CHUNK-typed frame in plaintext: neither TLS nor the handshake's proof first.
      byte[] junk = new byte[64];
      java.nio.ByteBuffer frame = java.nio.ByteBuffer.allocate(4 + 1 + junk.length + 4);
      frame.putInt(1 + junk.length + 4).put((byte) 10).put(junk).putInt(0);
      socket.getOutputStream().write(frame.array());
      InputStream in = socket.getInputStream();
      while (in.read() >= 0) {
        // Drain the challenge until the relay closes the connection.
      }
    }
    // TLS closes the connection before the rejection reaches the handshake's handler, which
    // counts it on the relay's event loop: wait (at most 10 s) for the count to show it.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (reader.counters().connectionsRejected() == rejectedBefore
        && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(reader.counters().connectionsRejected()).isGreaterThan(rejectedBefore);
    assertThat(reader.counters().chunksRead()).isEqualTo(readBefore);
  }

  @Test
  void relayKilledMidCopyLeavesACompleteVerifiedCopy() throws Exception {
    java.nio.file.Path secretFile = java.nio.file.Files.createTempFile("secret", "");
    TransferSecret secret = TransferSecret.generate();
    secret.writeTo(secretFile);
    // Each relay sends at most 1 MB/s, so the copy lasts long enough to lose a relay in it.
    try (LocalRelayProcesses local = LocalRelayProcesses.start(2, secretFile,
        java.util.Map.of("relaycp.relay.bytes-per-second-limit", "1000000"), List.of(),
        dev.relaycp.relay.RelayTls.identityToShare())) {
      AtomicBoolean killed = new AtomicBoolean();
      TransferProgress.Listener killer = killingAfterTwoChunks(local.processes().get(1), killed);
      CopyReport report = new CopyDriver(fixture.opener()).copy(
          CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/survived"), false),
          local.routes(), secret, killer);

      assertThat(killed).isTrue();
      assertThat(report.routesDropped()).isEqualTo(1);
      assertThat(report.routeResults()).filteredOn(RouteResult::dropped).hasSize(1);
      assertThat(report.routeResults().stream().mapToLong(RouteResult::bytes).sum())
          .isEqualTo(report.bytes());
      assertThat(report.allVerified()).isTrue();
      for (String file : files) {
        assertThat(read(fixture.destination(), new Path("/survived", file))).as(file)
            .isEqualTo(read(fixture.source(), new Path("/data", file)));
      }
      assertNoStaging();
    } finally {
      java.nio.file.Files.deleteIfExists(secretFile);
    }
  }

  /**
   * The copy's only route drops when its writer relay is killed; its source, like YARN's, only
   * hears of the loss later and then offers a replacement. The copy waits for it rather than
   * failing with no route left, and ends complete and verified on the replacement.
   */
  @Test
  void aCopyThatLosesItsOnlyRouteWaitsForTheReplacementItsSourceStillExpects() throws Exception {
    java.nio.file.Path secretFile = java.nio.file.Files.createTempFile("secret", "");
    fixture.secret().writeTo(secretFile);
    try (LocalRelayProcesses local = LocalRelayProcesses.start(1, secretFile,
        java.util.Map.of("relaycp.relay.bytes-per-second-limit", "1000000"), List.of(),
        dev.relaycp.relay.RelayTls.identityToShare())) {
      Route replacement = new Route(1, fixture.routes().get(0).reader(),
          fixture.routes().get(0).writer());
      ReplacingRouteSource routes = new ReplacingRouteSource(local.routes().get(0), replacement);
      AtomicBoolean killed = new AtomicBoolean();
      TransferProgress.Listener killer = killingAfterTwoChunks(local.processes().get(1), killed);
      CopyReport report = new CopyDriver(fixture.opener()).copy(
          CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/replaced"), false),
          tree -> routes, fixture.secret(), killer);

      assertThat(killed).isTrue();
      assertThat(routes.dropped).containsExactly(local.routes().get(0));
      assertThat(report.routesDropped()).isEqualTo(1);
      assertThat(report.routeResults()).filteredOn(result -> !result.dropped()).hasSize(1);
      assertThat(report.allVerified()).isTrue();
      for (String file : files) {
        assertThat(read(fixture.destination(), new Path("/replaced", file))).as(file)
            .isEqualTo(read(fixture.source(), new Path("/data", file)));
      }
      assertNoStaging();
    } finally {
      java.nio.file.Files.deleteIfExists(secretFile);
    }
  }

  /**
   * The same loss where the source expects no replacement: the copy fails with no route left,
   * nothing at the target, its staged chunks kept, and the same copy run again completes it.
   */
  @Test
  void aCopyThatLosesItsOnlyRouteWithNoReplacementComingFailsWithNoRoutesLeft()
      throws Exception {
    java.nio.file.Path secretFile = java.nio.file.Files.createTempFile("secret", "");
    fixture.secret().writeTo(secretFile);
    try (LocalRelayProcesses local = LocalRelayProcesses.start(1, secretFile,
        java.util.Map.of("relaycp.relay.bytes-per-second-limit", "1000000"), List.of(),
        dev.relaycp.relay.RelayTls.identityToShare())) {
      AtomicBoolean killed = new AtomicBoolean();
      TransferProgress.Listener killer = killingAfterTwoChunks(local.processes().get(1), killed);
      assertThatThrownBy(() -> new CopyDriver(fixture.opener()).copy(
              CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/lost"), false),
              local.routes(), fixture.secret(), killer))
          .isInstanceOf(RelayCpException.class)
          .satisfies(e -> assertThat(((RelayCpException) e).code())
              .isEqualTo(ErrorCode.NO_ROUTES_LEFT))
          .hasMessageContaining("every route failed");
      assertThat(fixture.destination().exists(new Path("/lost"))).isFalse();

      CopyReport resumed = new CopyDriver(fixture.opener()).copy(
          CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/lost"), false),
          fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE);
      assertThat(resumed.resume().resumed()).isTrue();
      assertThat(resumed.resume().chunksReused()).isGreaterThanOrEqualTo(2);
      assertThat(resumed.allVerified()).isTrue();
      for (String file : files) {
        assertThat(read(fixture.destination(), new Path("/lost", file))).as(file)
            .isEqualTo(read(fixture.source(), new Path("/data", file)));
      }
      assertNoStaging();
    } finally {
      java.nio.file.Files.deleteIfExists(secretFile);
    }
  }

  /** Kills {@code relay} once two chunks are done, and notes it in {@code killed}. */
  private static TransferProgress.Listener killingAfterTwoChunks(Process relay,
      AtomicBoolean killed) {
    return progress -> {
      if (progress.chunksDone() >= 2 && killed.compareAndSet(false, true)) {
        relay.destroyForcibly();
      }
    };
  }

  /**
   * One route first; told it dropped, a replacement a second later, as YARN reports a lost
   * container and starts another. A route may join only once a drop was told and until the
   * replacement has joined: a copy that did not tell it fails as soon as its route drops.
   */
  private static final class ReplacingRouteSource implements RouteSource {
    private final Route first;
    private final Route replacement;
    private final List<Route> dropped = new CopyOnWriteArrayList<>();
    private final List<Consumer<Route>> listeners =
        new CopyOnWriteArrayList<>();
    private volatile boolean replaced;

    ReplacingRouteSource(Route first, Route replacement) {
      this.first = first;
      this.replacement = replacement;
    }

    @Override
    public List<Route> routes() {
      return replaced ? List.of(first, replacement) : List.of(first);
    }

    @Override
    public void onJoin(Consumer<Route> joined) {
      listeners.add(joined);
    }

    @Override
    public boolean mayJoin() {
      return !dropped.isEmpty() && !replaced;
    }

    @Override
    public void routeDropped(Route route) {
      dropped.add(route);
      Thread later = new Thread(() -> {
        try {
          Thread.sleep(1_000);
        } catch (InterruptedException e) {
          return;
        }
        replaced = true;
        listeners.forEach(listener -> listener.accept(replacement));
      });
      later.setDaemon(true);
      later.start();
    }

    @Override
    public String provisioner() {
      return "replacing";
    }

    @Override
    public void close() {}
  }

  @Test
  void aPausedWriterRelayIsDroppedWithinTheSilenceTimeoutAndTheCopyFinishesOnTheOthers()
      throws Exception {
    assertPausedRelayIsDropped(3, "/paused-writer");
  }

  @Test
  void aPausedReaderRelayIsDroppedWithinTheSilenceTimeoutAndTheCopyFinishesOnTheOthers()
      throws Exception {
    assertPausedRelayIsDropped(2, "/paused-reader");
  }

  /**
   * Pauses relay process {@code index} (reader then writer of each of two pairs) with SIGSTOP
   * mid-copy: it keeps its connections open and answers nothing, like a host cut off by a
   * half-open WAN connection.
   */
  private void assertPausedRelayIsDropped(int index, String target) throws Exception {
    long silenceSeconds = 3;
    java.nio.file.Path secretFile = java.nio.file.Files.createTempFile("secret", "");
    TransferSecret secret = TransferSecret.generate();
    secret.writeTo(secretFile);
    try (LocalRelayProcesses local = LocalRelayProcesses.start(2, secretFile,
        java.util.Map.of("relaycp.relay.bytes-per-second-limit", "1000000",
            RelayKeys.SILENCE_TIMEOUT_SECONDS.key(), Long.toString(silenceSeconds)),
        List.of(), java.util.Optional.empty())) {
      Process paused = local.processes().get(index);
      java.util.concurrent.atomic.AtomicLong pausedAt = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicLong droppedAt = new java.util.concurrent.atomic.AtomicLong();
      TransferProgress.Listener pauser = progress -> {
        if (progress.chunksDone() >= 2 && pausedAt.get() == 0) {
          signal("STOP", paused);
          pausedAt.set(System.nanoTime());
        }
        if (pausedAt.get() != 0 && progress.routesActive() < 2) {
          droppedAt.compareAndSet(0, System.nanoTime());
        }
      };
      try {
        CopyReport report = new CopyDriver(fixture.opener()).copy(
            CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri(target), false)
                .withSilenceSeconds(silenceSeconds),
            local.routes(), secret, pauser);

        assertThat(pausedAt.get()).as("a relay was paused").isPositive();
        assertThat(report.routesDropped()).isEqualTo(1);
        assertThat(report.allVerified()).isTrue();
        // The silence is counted from the paused relay's last message, which came at most one
        // keep-alive interval (1 s) before the pause, give or take the event loop's timer.
        double secondsToDrop = (droppedAt.get() - pausedAt.get()) / 1e9;
        assertThat(secondsToDrop).as("seconds from the pause until the route was dropped")
            .isBetween(silenceSeconds - 1.5, silenceSeconds + 5.0);
        for (String file : files) {
          assertThat(read(fixture.destination(), new Path(target, file))).as(file)
              .isEqualTo(read(fixture.source(), new Path("/data", file)));
        }
        assertNoStaging();
      } finally {
        // SIGKILL ends a paused process too; it never resumes to write into a finished copy.
        paused.destroyForcibly().waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      java.nio.file.Files.deleteIfExists(secretFile);
    }
  }

  private static void signal(String signal, Process process) {
    try {
      int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
          .inheritIO().start().waitFor();
      assertThat(exit).as("kill -" + signal).isZero();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aRouteWhoseRelaysStartLateStillFindsChunksToSend() throws Exception {
    // Six chunks of one block each. The first route sends one chunk at a time, slowly; the
    // second route's relays start a second and a half into the copy, as spawned VMs boot.
    for (int file = 0; file < 2; file++) {
      try (var out = fixture.source().createFile(new Path("/late/f" + file)).recursive()
          .blockSize(BLOCK).build()) {
        out.write(new byte[(int) (3 * BLOCK)]);
      }
    }
    TransferSecret secret = fixture.secret();
    RelayServer slowReader = RelayServer.start(
        RelaySettings.of("127.0.0.1", 0, secret, new Configuration())
            .withBytesPerSecondLimit(200_000));
    RelayServer slowWriter = RelayServer.start(
        RelaySettings.of("127.0.0.1", 0, secret, new Configuration()));
    int lateReaderPort = freePort();
    int lateWriterPort = freePort();
    List<RelayServer> late = new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread booting = new Thread(() -> {
      try {
        Thread.sleep(1_500);
        late.add(RelayServer.start(
            RelaySettings.of("127.0.0.1", lateReaderPort, secret, new Configuration())));
        late.add(RelayServer.start(
            RelaySettings.of("127.0.0.1", lateWriterPort, secret, new Configuration())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    try {
      booting.start();
      List<Route> routes = List.of(
          new Route(0, RelayFixture.address(slowReader), RelayFixture.address(slowWriter)),
          new Route(1, RelayAddress.of("127.0.0.1", lateReaderPort),
              RelayAddress.of("127.0.0.1", lateWriterPort)));
      CopySettings settings = new CopySettings(fixture.sourceUri("/late"),
          fixture.destinationUri("/late-copy"), false, 1, 8, BLOCK, 8, 8, 60,
          CopySettings.DEFAULT_SILENCE_SECONDS);

      CopyReport report = new CopyDriver(fixture.opener()).copy(settings, routes, secret,
          TransferProgress.Listener.NONE);

      assertThat(report.allVerified()).isTrue();
      assertThat(late).hasSize(2);
      assertThat(late.get(0).counters().chunksRead())
          .as("chunks sent by the route that joined late").isGreaterThan(0);
      assertThat(slowReader.counters().chunksRead() + late.get(0).counters().chunksRead())
          .isGreaterThanOrEqualTo(6);
      assertNoStaging();
    } finally {
      booting.join();
      slowReader.close();
      slowWriter.close();
      late.forEach(RelayServer::close);
    }
  }

  @Test
  void aRouteThatStaysConnectedButAnswersNothingIsDroppedAtItsDeadline() throws Exception {
    // Four chunks of one block. The first route's reader sends 1 kB/s: alive (its keep-alives
    // flow) but a chunk would take over four minutes on it.
    for (int file = 0; file < 4; file++) {
      try (var out = fixture.source().createFile(new Path("/stall/f" + file)).recursive()
          .blockSize(BLOCK).build()) {
        out.write(new byte[(int) BLOCK]);
      }
    }
    TransferSecret secret = fixture.secret();
    RelayServer crawlingReader = RelayServer.start(
        RelaySettings.of("127.0.0.1", 0, secret, new Configuration())
            .withBytesPerSecondLimit(1_000));
    try {
      List<Route> routes = List.of(
          new Route(0, RelayFixture.address(crawlingReader), fixture.routes().get(0).writer()),
          fixture.routes().get(1));
      // A stall time of 5 s; one chunk in flight at a time (the window is one block).
      CopySettings settings = new CopySettings(fixture.sourceUri("/stall"),
          fixture.destinationUri("/stall-copy"), false, 1, 8, BLOCK, 8, 8, 10,
          CopySettings.DEFAULT_SILENCE_SECONDS, 5, CopySettings.DEFAULT_STAGING_BEAT_SECONDS,
          SyncSettings.NONE, false);
      List<TransferProgress> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
      long started = System.nanoTime();

      CopyReport report =
          new CopyDriver(fixture.opener()).copy(settings, routes, secret, seen::add);

      assertThat(report.allVerified()).isTrue();
      assertThat(report.routesDropped()).isEqualTo(1);
      assertThat(report.routeResults().get(0).dropped()).isTrue();
      assertThat(report.chunksResent()).isPositive();
      assertThat(seen).as("the progress line counted the stalled route")
          .anyMatch(progress -> progress.routesStalled() == 1);
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started))
          .as("seconds, against the 260 the crawling route would take").isLessThan(120);
      for (int file = 0; file < 4; file++) {
        assertThat(read(fixture.destination(), new Path("/stall-copy/f" + file)))
            .isEqualTo(read(fixture.source(), new Path("/stall/f" + file)));
      }
      assertNoStaging();
    } finally {
      crawlingReader.close();
    }
  }

  static int freePort() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static void assertNoStaging() throws IOException {
    FileStatus[] top = fixture.destination().listStatus(new Path("/"));
    assertThat(Arrays.stream(top).map(status -> status.getPath().getName()))
        .noneMatch(name -> name.startsWith(".relaycp-staging"));
  }

  static byte[] read(FileSystem fileSystem, Path path) throws IOException {
    try (InputStream in = fileSystem.open(path)) {
      return IOUtils.readFullyToByteArray(new java.io.DataInputStream(in));
    }
  }
}
