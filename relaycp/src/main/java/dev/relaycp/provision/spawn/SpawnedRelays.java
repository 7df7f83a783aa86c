package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.provision.RelayProvisioner;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.RelayConnection;
import dev.relaycp.relay.RelayConnector;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.RelayProbe;
import dev.relaycp.transfer.Route;
import dev.relaycp.transfer.RouteSource;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import dev.relaycp.fs.FileSystemOpener;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.ShutdownHookManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relay pairs a {@link HostSpawner} starts for one copy, joined to the copy as routes while it
 * already runs on the routes of {@code base} (the datanode relays), so the copy never waits
 * for a VM to boot. Without a base the copy waits for the first spawned pair.
 *
 * <p>Each pair's two hosts start side by side; a host whose relay has not answered (connected
 * and proved the secret) within the spawn timeout is released and replaced once. With a
 * pre-test, twice the pairs are started, every pair that came up is measured by one timed
 * send ({@link RelayProbe}), the fastest {@code pairs} join and the others are released at
 * once. {@link #close} releases every host, whatever happened, and then closes the base.
 */
public final class SpawnedRelays implements RelayProvisioner {
  private static final Logger LOG = LoggerFactory.getLogger(SpawnedRelays.class);
  /** Spawned routes are numbered from here, after any the base may make. */
  static final int FIRST_ROUTE_ID = 1000;
  /** Candidate pairs are numbered from here while pre-tested; those kept are renumbered. */
  private static final int FIRST_CANDIDATE_ID = 1500;
  private static final long ANSWER_RETRY_MILLIS = 500;

  /**
   * What to start.
   *
   * @param pairs the pairs that join the copy (p)
   * @param spawnTimeout how long a host has, from its spawn request, for its relay to answer
   * @param pretest measure twice the pairs and keep the fastest; empty for no pre-test
   * @param tls whether the spawned relays' connections run in TLS ({@code relaycp.relay.tls},
   *     which the driver and every relay of a transfer share)
   */
  public record Request(HostSpawner spawner, SpawnContext context, int pairs,
      Duration spawnTimeout, Optional<Pretest> pretest, boolean tls) {
    public Request {
      requireNonNull(spawner, "spawner is null");
      requireNonNull(context, "context is null");
      requireNonNull(spawnTimeout, "spawnTimeout is null");
      requireNonNull(pretest, "pretest is null");
      if (pairs < 1) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
            "--spawn must be 1 or more, got " + pairs);
      }
      if (spawnTimeout.isNegative() || spawnTimeout.isZero()) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
            "--spawn-timeout must be positive, got " + spawnTimeout);
      }
    }
  }

  /** How candidate pairs are measured: the probe and its settings (scratch folders, bytes). */
  public record Pretest(RelayProbe probe, RelayProbe.Settings settings) {
    public Pretest {
      requireNonNull(probe, "probe is null");
      requireNonNull(settings, "settings is null");
    }
  }

  /** What became of one spawned host. */
  public enum Outcome {
    /** Its pair joined the copy. */
    ROUTED,
    /** Its pair was measured slower than the pairs kept. */
    REJECTED_BY_PRETEST,
    /** It never answered within the spawn timeout. */
    TIMED_OUT,
    /** The backend could not start it. */
    FAILED,
    /** It came up, but its partner did not, or the copy ended first. */
    UNUSED
  }

  /**
   * One host, for the report and the bill.
   *
   * @param host what the backend started; empty if it started nothing
   * @param runSeconds from the spawn request to the release (what a cloud bills)
   * @param answeredSeconds from the spawn request until its relay answered; empty if never
   * @param pretestMegabytesPerSecond its pair's pre-test rate, when measured
   * @param released whether relaycp has released it (or it never started)
   */
  public record HostRecord(SpawnSlot slot, Optional<SpawnedHost> host, Outcome outcome,
      double runSeconds, OptionalDouble answeredSeconds, OptionalDouble pretestMegabytesPerSecond,
      boolean released, Optional<String> failure) {
    public HostRecord {
      requireNonNull(slot, "slot is null");
      requireNonNull(host, "host is null");
      requireNonNull(outcome, "outcome is null");
      requireNonNull(answeredSeconds, "answeredSeconds is null");
      requireNonNull(pretestMegabytesPerSecond, "pretestMegabytesPerSecond is null");
      requireNonNull(failure, "failure is null");
    }
  }

  /**
   * Everything a copy decides about its spawned relays, for {@link #launch}.
   *
   * @param stagingDirectory where on each site's file system the driver's heartbeat (and the
   *     pre-test's scratch files) go, below a folder of the user's
   * @param driverTimeout how long a spawned relay runs on without hearing from the driver
   * @param pretestBytes the size of each candidate's timed send, when pre-testing
   */
  public record Launch(int pairs, Duration spawnTimeout, boolean pretest, long pretestBytes,
      String stagingDirectory, Duration driverTimeout, URI source, URI destination) {
    public Launch {
      requireNonNull(spawnTimeout, "spawnTimeout is null");
      requireNonNull(stagingDirectory, "stagingDirectory is null");
      requireNonNull(driverTimeout, "driverTimeout is null");
      requireNonNull(source, "source is null");
      requireNonNull(destination, "destination is null");
      if (pretestBytes < 1) {
        throw new IllegalArgumentException("pretestBytes must be 1 or more, got " + pretestBytes);
      }
    }
  }

  /** How long past now a host a live driver spawned counts as in use (moved on every beat). */
  private static final Duration EXPIRY_MARGIN = Duration.ofMinutes(10);

  /**
   * Starts {@code launch.pairs()} spawned pairs through the backend {@code backends} makes for
   * the transfer, beside {@code base}: the driver's heartbeat on each site's cluster (which
   * also moves the backend's expiry), a transfer id, and with a pre-test its scratch folder
   * beside the heartbeat. See {@link #start}.
   */
  public static SpawnedRelays launch(Launch launch, Function<SpawnContext, HostSpawner> backends,
      FileSystemOpener opener, Supplier<Optional<RouteSource>> base, TransferSecret secret,
      java.nio.file.Path secretFile) {
    requireNonNull(launch, "launch is null");
    requireNonNull(backends, "backends is null");
    requireNonNull(opener, "opener is null");
    String transferId = UUID.randomUUID().toString();
    Map<String, FileSystem> sites = new LinkedHashMap<>();
    sites.put(SpawnSlot.SOURCE_SITE, opener.open(launch.source()));
    sites.put(SpawnSlot.DESTINATION_SITE, opener.open(launch.destination()));
    Duration expiry = EXPIRY_MARGIN.plus(launch.driverTimeout());
    boolean tls = RelayKeys.RELAY_TLS.from(opener.configuration());
    AtomicReference<HostSpawner> spawner = new AtomicReference<>();
    DriverHeartbeats heartbeats = DriverHeartbeats.start(sites, launch.stagingDirectory(),
        transferId, Duration.ofSeconds(Math.max(1, launch.driverTimeout().toSeconds() / 6)),
        () -> {
          HostSpawner started = spawner.get();
          if (started != null) {
            started.extendExpiry(Instant.now().plus(expiry));
          }
        });
    try {
      SpawnContext context = new SpawnContext(transferId, secret, secretFile,
          launch.driverTimeout(), Instant.now().plus(expiry).plus(launch.spawnTimeout()),
          heartbeats.uris(), tls ? RelayTls.identityToShare() : Optional.empty());
      spawner.set(backends.apply(context));
      Optional<Pretest> pretest = Optional.empty();
      if (launch.pretest()) {
        URI sourceScratch = URI.create(heartbeats.uris().get(SpawnSlot.SOURCE_SITE)).resolve(".");
        URI destinationScratch =
            URI.create(heartbeats.uris().get(SpawnSlot.DESTINATION_SITE)).resolve(".");
        pretest = Optional.of(new Pretest(new RelayProbe(opener),
            new RelayProbe.Settings(sourceScratch, destinationScratch, launch.pretestBytes(),
                Math.max(30, launch.spawnTimeout().toSeconds()))));
      }
      return start(base, new Request(spawner.get(), context, launch.pairs(),
          launch.spawnTimeout(), pretest, tls),
          secret, heartbeats);
    } catch (RuntimeException e) {
      heartbeats.close();
      throw e;
    }
  }

  /** A host while it lives: its slot, when it was asked for, and what came of it. */
  private static final class Tracked {
    final SpawnSlot slot;
    final long requestedAt = System.nanoTime();
    volatile SpawnedHost host;
    /** Whether the backend's spawn has returned or thrown: until then there is nothing to stop. */
    volatile boolean spawnEnded;
    volatile long answeredAt;
    volatile long releasedAt;
    volatile Outcome outcome = Outcome.UNUSED;
    volatile String failure;
    volatile double pretestRate = Double.NaN;

    Tracked(SpawnSlot slot) {
      this.slot = slot;
    }
  }

  private final Request request;
  /** The datanode relays, once started; empty until then, and when there are none. */
  private volatile Optional<RouteSource> base = Optional.empty();
  private final TransferSecret secret;
  private final NioEventLoopGroup eventLoops =
      new NioEventLoopGroup(1, new DefaultThreadFactory("spawned-relays-io", true));
  private final ExecutorService pool =
      Executors.newCachedThreadPool(new DefaultThreadFactory("spawned-relays", true));
  private final List<Tracked> hosts = new CopyOnWriteArrayList<>();
  private final List<Route> routes = new CopyOnWriteArrayList<>();
  private final List<Consumer<Route>> listeners = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> nextSlot = Map.of(
      SpawnSlot.SOURCE_SITE, new AtomicInteger(), SpawnSlot.DESTINATION_SITE, new AtomicInteger());
  private final CompletableFuture<Void> settled = new CompletableFuture<>();
  /** The first failure to bring a host up or to pre-test the pairs, for {@link #routes}. */
  private final AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();
  private final AutoCloseable heartbeats;
  /** Releases everything on Ctrl-C or SIGTERM, as the copy's own end would. */
  private final Runnable shutdownHook = this::close;
  private volatile boolean closed;
  /**
   * Set once the copy has every byte ({@link #awaitBackgroundWork}): from then on no host is
   * asked for, none joins, and one that fails because it was released is not replaced.
   */
  private volatile boolean copyEnded;
  /** Held for the whole of {@link #close}, apart from this object's lock, which waits take. */
  private final Object closeLock = new Object();

  private SpawnedRelays(Request request, TransferSecret secret, AutoCloseable heartbeats) {
    this.request = request;
    this.secret = secret;
    this.heartbeats = heartbeats;
  }

  /**
   * Starts spawning in the background, then starts the base (the datanode relays, which may
   * take seconds of their own: YARN containers), so that hosts boot meanwhile; returns once
   * the base is up. Routes join as pairs come up; {@code base}'s routes are used meanwhile,
   * and it is closed with these. If the base fails to start, every spawned host is released.
   */
  public static SpawnedRelays start(Supplier<Optional<RouteSource>> base, Request request,
      TransferSecret secret, AutoCloseable heartbeats) {
    requireNonNull(base, "base is null");
    requireNonNull(request, "request is null");
    requireNonNull(secret, "secret is null");
    requireNonNull(heartbeats, "heartbeats is null");
    SpawnedRelays relays = new SpawnedRelays(request, secret, heartbeats);
    ShutdownHookManager.get().addShutdownHook(relays.shutdownHook,
        FileSystem.SHUTDOWN_HOOK_PRIORITY + 1);
    Thread coordinator = new Thread(relays::spawnAll, "spawned-relays-coordinator");
    coordinator.setDaemon(true);
    coordinator.start();
    try {
      relays.base = requireNonNull(base.get(), "base gave null");
    } catch (RuntimeException e) {
      relays.close();
      throw e;
    }
    return relays;
  }

  /** Brings up every candidate pair, then (with a pre-test) keeps the fastest. */
  private void spawnAll() {
    try {
      int candidates = request.pretest().isPresent() ? 2 * request.pairs() : request.pairs();
      LOG.info("Spawning {} relay pair(s) through {}{}", candidates, request.spawner().backend(),
          request.pretest().isPresent() ? " to pre-test, keeping the fastest "
              + request.pairs() : "");
      List<CompletableFuture<Optional<Candidate>>> pairs = new ArrayList<>();
      for (int index = 0; index < candidates; index++) {
        CompletableFuture<Optional<Candidate>> pair =
            CompletableFuture.supplyAsync(this::bringUpPair, pool);
        if (request.pretest().isEmpty()) {
          // Each pair joins the copy as soon as it is up, whatever the others do.
          pair = pair.thenApply(candidate -> {
            candidate.ifPresent(this::join);
            return Optional.<Candidate>empty();
          });
        }
        pairs.add(pair);
      }
      List<Candidate> up = new ArrayList<>();
      for (CompletableFuture<Optional<Candidate>> pair : pairs) {
        pair.exceptionally(failure -> Optional.empty()).join().ifPresent(up::add);
      }
      if (request.pretest().isPresent() && stillWanted()) {
        try {
          keepFastest(up);
        } catch (RuntimeException e) {
          // No pair was measured, so none joins: every host that came up is stopped now, not
          // left to bill, idle, until the copy's end.
          for (Candidate candidate : up) {
            if (candidate.reader().outcome == Outcome.ROUTED) {
              continue;
            }
            candidate.reader().failure = "pre-test failed: " + e.getMessage();
            candidate.writer().failure = "pre-test failed: " + e.getMessage();
            release(candidate.reader());
            release(candidate.writer());
          }
          throw e;
        }
      }
    } catch (RuntimeException e) {
      firstFailure.compareAndSet(null, e);
      LOG.warn("Spawning relays failed: {}", e.getMessage(), e);
    } finally {
      settled.complete(null);
    }
  }

  /** A pair whose two relays answer, not yet a route. */
  private record Candidate(Tracked reader, Tracked writer) {}

  private Optional<Candidate> bringUpPair() {
    CompletableFuture<Optional<Tracked>> reader =
        CompletableFuture.supplyAsync(() -> bringUpHost(SpawnSlot.SOURCE_SITE), pool);
    Optional<Tracked> writer = bringUpHost(SpawnSlot.DESTINATION_SITE);
    Optional<Tracked> source = reader.join();
    if (source.isPresent() && writer.isPresent() && stillWanted()) {
      return Optional.of(new Candidate(source.get(), writer.get()));
    }
    source.ifPresent(this::release);
    writer.ifPresent(this::release);
    return Optional.empty();
  }

  /** One host of {@code site} whose relay answers, trying a second host if the first fails. */
  private Optional<Tracked> bringUpHost(String site) {
    for (int attempt = 0; attempt < 2 && stillWanted(); attempt++) {
      Tracked tracked = new Tracked(request.context().slot(site,
          nextSlot.get(site).getAndIncrement()));
      hosts.add(tracked);
      try {
        try {
          tracked.host = request.spawner().spawn(tracked.slot);
        } finally {
          tracked.spawnEnded = true;
        }
        if (!stillWanted()) {
          release(tracked);
          return Optional.empty();
        }
        awaitAnswer(tracked);
        tracked.answeredAt = System.nanoTime();
        LOG.info("Spawned relay {} at {} answers after {} ms", tracked.slot,
            tracked.host.address(), (tracked.answeredAt - tracked.requestedAt) / 1_000_000);
        return Optional.of(tracked);
      } catch (RuntimeException e) {
        if (!stillWanted()) {
          // Released by the copy's end while it started: its connection closed or its wait was
          // interrupted for that reason, not for a fault of its own.
          LOG.debug("Spawned relay {} was released before it answered: {}", tracked.slot,
              e.getMessage());
          release(tracked);
          return Optional.empty();
        }
        boolean timedOut = tracked.host != null && e instanceof RelayCpException relay
            && relay.code() == ErrorCode.RELAY_UNREACHABLE;
        // A refusal that another host would meet as well (a setting the backend refuses, a
        // relay that refuses the secret) is not tried again on a second, billed host.
        boolean another = attempt == 0
            && !(e instanceof RelayCpException relay && !relay.code().retryable());
        tracked.outcome = timedOut ? Outcome.TIMED_OUT : Outcome.FAILED;
        tracked.failure = e.getMessage();
        firstFailure.compareAndSet(null, e);
        LOG.warn("Spawned relay {} {}: {}; {}", tracked.slot,
            timedOut ? "did not answer within " + request.spawnTimeout().toSeconds() + " s"
                : "could not start", e.getMessage(),
            another ? "releasing it and starting another" : "releasing it");
        release(tracked);
        if (!another) {
          break;
        }
      }
    }
    return Optional.empty();
  }

  /** Waits until the host's relay accepts a connection and the secret, within the timeout. */
  private void awaitAnswer(Tracked tracked) {
    long left = request.spawnTimeout().toNanos() - (System.nanoTime() - tracked.requestedAt);
    long waitSeconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(left));
    RelayConnector connector = RelayConnector.of(eventLoops, secret).withTls(request.tls());
    try {
      connector.connectWaiting(tracked.host.address(), RelayConnection.Listener.IGNORING,
          waitSeconds, ANSWER_RETRY_MILLIS).close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "interrupted waiting for "
          + tracked.slot, e);
    }
  }

  private void keepFastest(List<Candidate> up) {
    Pretest pretest = request.pretest().orElseThrow();
    List<Route> candidates = new ArrayList<>();
    for (int index = 0; index < up.size(); index++) {
      candidates.add(new Route(FIRST_CANDIDATE_ID + index,
          up.get(index).reader().host.address(), up.get(index).writer().host.address()));
    }
    List<RelayProbe.PairResult> results = candidates.isEmpty() ? List.of()
        : pretest.probe().probeTogether(pretest.settings(), candidates, secret);
    List<Integer> order = new ArrayList<>();
    for (int index = 0; index < results.size(); index++) {
      double rate = results.get(index).bytesPerSecond() / 1e6;
      up.get(index).reader().pretestRate = rate;
      up.get(index).writer().pretestRate = rate;
      order.add(index);
      LOG.info("Pre-test: pair {} -> {}: {} MB/s{}", candidates.get(index).reader(),
          candidates.get(index).writer(), String.format(Locale.ROOT, "%.2f", rate),
          results.get(index).failure().map(why -> " (" + why + ")").orElse(""));
    }
    order.sort(Comparator.comparingDouble(
        (Integer index) -> results.get(index).bytesPerSecond()).reversed());
    int kept = 0;
    for (int index : order) {
      Candidate candidate = up.get(index);
      if (kept < request.pairs() && results.get(index).measured()) {
        join(candidate);
        kept++;
      } else {
        candidate.reader().outcome = Outcome.REJECTED_BY_PRETEST;
        candidate.writer().outcome = Outcome.REJECTED_BY_PRETEST;
        release(candidate.reader());
        release(candidate.writer());
      }
    }
    LOG.info("Pre-test: kept {} of {} pairs that came up", kept, up.size());
  }

  private void join(Candidate candidate) {
    Route route;
    synchronized (this) {
      if (!stillWanted()) {
        return;
      }
      route = new Route(FIRST_ROUTE_ID + routes.size(), candidate.reader().host.address(),
          candidate.writer().host.address());
      candidate.reader().outcome = Outcome.ROUTED;
      candidate.writer().outcome = Outcome.ROUTED;
      routes.add(route);
      notifyAll();
    }
    LOG.info("Spawned pair {} and {} joins as {}", candidate.reader().slot,
        candidate.writer().slot, route);
    listeners.forEach(listener -> listener.accept(route));
  }

  /** Whether more spawned routes may still serve the copy: it is neither over nor closed. */
  private boolean stillWanted() {
    return !closed && !copyEnded;
  }

  /**
   * Stops {@code tracked}'s host, once. A host whose spawn is still under way is left alone:
   * its spawn, once it returns, finds the copy over and releases it; marking it released
   * before would skip that release.
   */
  private void release(Tracked tracked) {
    synchronized (tracked) {
      if (tracked.releasedAt != 0 || (tracked.host == null && !tracked.spawnEnded)) {
        return;
      }
      tracked.releasedAt = System.nanoTime();
    }
    if (tracked.host != null) {
      request.spawner().release(tracked.host);
    }
  }

  /**
   * Releases the spawned hosts that are up (they cost by the second and do no work past the
   * copy), then waits for the base's ({@link RouteSource#awaitBackgroundWork}); {@link #close}
   * releases the rest.
   */
  @Override
  public void awaitBackgroundWork() {
    if (!closed) {
      synchronized (this) {
        copyEnded = true;
        notifyAll();
      }
      // Interrupts the spawns still under way, as close does: a host still booting is released
      // as its spawn ends, not left to bill until the copy's close.
      pool.shutdownNow();
      releaseTogether(started());
    }
    base.ifPresent(RouteSource::awaitBackgroundWork);
  }

  /** The hosts whose backend has returned them (up, or still booting). */
  private List<Tracked> started() {
    return hosts.stream().filter(tracked -> tracked.host != null).toList();
  }

  /**
   * Releases {@code tracked} all at once and returns when every release has ended: a backend's
   * release can take seconds (a lab host stopping its relay, an EC2 call per instance), and one
   * after another they would hold the copy's end for the sum of them, 2p hosts' worth.
   */
  private void releaseTogether(List<Tracked> tracked) {
    // A thread each, not the pool: the pool is shut down before close's last releases.
    Executor threadEach = release -> {
      Thread thread = new Thread(release, "spawned-relays-release");
      thread.setDaemon(true);
      thread.start();
    };
    List<CompletableFuture<Void>> releases = tracked.stream()
        .map(one -> CompletableFuture.runAsync(() -> release(one), threadEach))
        .toList();
    releases.forEach(CompletableFuture::join);
  }

  /**
   * The base's routes and the spawned routes up now; without a base, waits for the first
   * spawned pair, failing RELAY_START_FAILED if none comes up.
   */
  @Override
  public List<Route> routes() {
    List<Route> all = new ArrayList<>();
    base.ifPresent(source -> all.addAll(source.routes()));
    if (base.isEmpty()) {
      synchronized (this) {
        while (routes.isEmpty() && !settled.isDone() && !closed) {
          try {
            wait(250);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RelayCpException(ErrorCode.INTERRUPTED, "interrupted spawning relays", e);
          }
        }
      }
      if (routes.isEmpty()) {
        throw noPairCameUp();
      }
    }
    all.addAll(routes);
    return all;
  }

  /**
   * Why no spawned pair joined: a refusal that trying again cannot mend (a setting the backend
   * refuses, a secret the relays refuse) keeps its code, so the exit code says so.
   */
  private RelayCpException noPairCameUp() {
    RuntimeException first = firstFailure.get();
    String backend = request.spawner().backend();
    if (first instanceof RelayCpException refused && !refused.code().retryable()) {
      return new RelayCpException(refused.code(), "no spawned relay pair came up through "
          + backend + ": " + refused.getMessage(), refused);
    }
    return new RelayCpException(ErrorCode.RELAY_START_FAILED, "no spawned relay pair came"
        + " up through " + backend + " within --spawn-timeout ("
        + request.spawnTimeout().toSeconds() + " s), a second host included"
        + (first == null ? "" : "; the first failure: " + first.getMessage())
        + "; see the log for each host's failure", first);
  }

  @Override
  public void onJoin(Consumer<Route> joined) {
    requireNonNull(joined, "joined is null");
    listeners.add(joined);
    base.ifPresent(source -> source.onJoin(joined));
  }

  @Override
  public boolean mayJoin() {
    return !closed && ((!copyEnded && !settled.isDone())
        || base.map(RouteSource::mayJoin).orElse(false));
  }

  /** A spawned route that drops is not replaced; the base's routes are the base's to judge. */
  @Override
  public void routeDropped(Route route) {
    base.ifPresent(source -> source.routeDropped(route));
  }

  @Override
  public String provisioner() {
    return base.map(source -> source.provisioner() + "+").orElse("")
        + request.spawner().backend();
  }

  /**
   * A spawned host's relay runs what its spawn command started, which may be another build;
   * the base's routes are as the base says.
   */
  @Override
  public boolean runsThisBuild(Route route) {
    return base.map(source -> source.runsThisBuild(route)).orElse(false);
  }

  @Override
  public Map<String, Integer> relaysStarted() {
    Map<String, Integer> started = new LinkedHashMap<>(
        base.map(RouteSource::relaysStarted).orElse(Map.of()));
    for (Tracked tracked : hosts) {
      if (tracked.host != null) {
        started.merge(tracked.slot.site(), 1, Integer::sum);
      }
    }
    return started;
  }

  /** Every host asked for so far, in the order asked; complete once closed. */
  public List<HostRecord> hosts() {
    List<HostRecord> records = new ArrayList<>();
    long now = System.nanoTime();
    for (Tracked tracked : hosts) {
      long end = tracked.releasedAt != 0 ? tracked.releasedAt : now;
      records.add(new HostRecord(tracked.slot, Optional.ofNullable(tracked.host),
          tracked.outcome, (end - tracked.requestedAt) / 1e9,
          tracked.answeredAt == 0 ? OptionalDouble.empty()
              : OptionalDouble.of((tracked.answeredAt - tracked.requestedAt) / 1e9),
          Double.isNaN(tracked.pretestRate) ? OptionalDouble.empty()
              : OptionalDouble.of(tracked.pretestRate),
          tracked.releasedAt != 0 || tracked.host == null, Optional.ofNullable(tracked.failure)));
    }
    return records;
  }

  /** Whether twice the pairs were started and measured, the fastest kept. */
  public boolean pretested() {
    return request.pretest().isPresent();
  }

  /** The backend's name: "aws", "exec". */
  public String backend() {
    return request.spawner().backend();
  }

  /**
   * Releases every spawned host (those still starting as their spawn returns), frees what the
   * backend holds for the transfer, and closes the base. A call made while another thread
   * closes returns once that close has ended, so that the shutdown hook does not return (and
   * let the JVM halt) while the copy's own close is still releasing hosts.
   */
  @Override
  public void close() {
    synchronized (closeLock) {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
        notifyAll();
      }
      end();
    }
  }

  /**
   * Waits up to {@code seconds} for the spawning to end, also on an interrupted thread (a
   * close from Ctrl-C, or after an interrupted start), whose interrupt is kept: the hosts still
   * starting are released only once their spawns return.
   */
  private boolean awaitSettled(long seconds) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    boolean interrupted = false;
    try {
      while (true) {
        try {
          settled.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
          return true;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (TimeoutException e) {
          return false;
        } catch (ExecutionException e) {
          return true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void end() {
    try {
      releaseTogether(started());
      // Interrupts the spawns still under way: a backend interrupted in spawn releases what it
      // started, and a host it had already returned is released below.
      pool.shutdownNow();
      if (!settled.isDone()) {
        LOG.info("Waiting for hosts still starting, to release them");
        if (!awaitSettled(request.spawnTimeout().toSeconds() + 30)) {
          LOG.warn("Spawning had not finished {} s after the copy ended; a host it starts"
              + " later stops itself after the driver timeout, and `relaycp gc` removes it",
              request.spawnTimeout().toSeconds() + 30);
        }
      }
      releaseTogether(hosts);
    } finally {
      try {
        request.spawner().close();
        heartbeats.close();
      } catch (Exception e) {
        LOG.warn("Cannot remove the spawned relays' heartbeats: {}", e.getMessage(), e);
      } finally {
        if (!ShutdownHookManager.get().isShutdownInProgress()) {
          ShutdownHookManager.get().removeShutdownHook(shutdownHook);
        }
        pool.shutdownNow();
        eventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        base.ifPresent(RouteSource::close);
      }
    }
  }
}
