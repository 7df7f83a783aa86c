package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.Datanodes;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.HostAddresses;
import dev.relaycp.transfer.Route;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.net.Socket;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ShutdownHookManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relays as YARN containers on both clusters, one application per cluster with its
 * ApplicationMaster inside the driver ({@link YarnSite}); or on one cluster, across from relays
 * that already run on the other ({@link RunningRelaySite}), for a pair of clusters only one of
 * which lets the driver start containers. By default each site gets one relay per datanode;
 * source relays are asked for on the datanodes that hold the listing's blocks, so they read
 * them from local disk. Route i pairs the i-th source relay with the i-th destination relay.
 *
 * <p>While the copy runs, a monitor moves each site's heartbeat forward, asks YARN for a
 * replacement of every relay container that ends (up to {@link
 * YarnRelaySettings#replacementsPerSite()} within an hour), and hands each replacement to the
 * copy as a new route once it announces itself. Closing (also on Ctrl-C or SIGTERM, through a
 * shutdown hook) ends the applications and removes the staged files, and leaves running relays
 * running; a driver killed outright leaves relays that stop themselves once its heartbeat has
 * been still for the driver timeout.
 */
public final class YarnRelays implements RelayProvisioner {
  private static final Logger LOG = LoggerFactory.getLogger(YarnRelays.class);
  /** A class only the product jar has: picocli, relocated by the shade plugin. */
  static final String PRODUCT_JAR_MARKER = "dev/relaycp/shaded/picocli/CommandLine.class";
  /**
   * The relay jar inside the product jar: the product without the AWS SDK, which is what
   * relay containers run, so each copy stages and localizes a small jar.
   */
  static final String RELAY_JAR_ENTRY = "relaycp-relay.jar";
  /** The relay jar taken out of the product jar and hashed, once per process. */
  private static RelayJar extractedRelayJar;
  private static final long POLL_MILLIS = 250;

  /**
   * What to start.
   *
   * @param applicationName the applications' name in YARN, e.g. "relaycp SRC -> DST"
   * @param source the source cluster's configuration (its ResourceManager and file system)
   * @param destination the destination cluster's configuration
   * @param relaysPerSite relays on each site; 0 for one per datanode
   * @param runningSource relays that run on the source site already, for YARN to start none
   *     there (they share {@code secret}); empty for YARN to start the source's relays
   * @param runningDestination the same for the destination site; at most one of the two is
   *     given
   * @param runningRelaysOfThisBuild whether the relays that run already, on one site or
   *     beside these containers ({@link #with}), run the driver's build ({@code
   *     relaycp.copy.running-relays-same-build}); by default they may run another
   */
  public record Request(String applicationName, Configuration source, Configuration destination,
      int relaysPerSite, YarnRelaySettings settings, TransferSecret secret,
      List<RelayAddress> runningSource, List<RelayAddress> runningDestination,
      boolean runningRelaysOfThisBuild) {
    public Request {
      requireNonNull(applicationName, "applicationName is null");
      requireNonNull(source, "source is null");
      requireNonNull(destination, "destination is null");
      requireNonNull(settings, "settings is null");
      requireNonNull(secret, "secret is null");
      runningSource = List.copyOf(requireNonNull(runningSource, "runningSource is null"));
      runningDestination =
          List.copyOf(requireNonNull(runningDestination, "runningDestination is null"));
      if (relaysPerSite < 0) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
            "--relays-per-site must be 1 or more, got " + relaysPerSite);
      }
      if (!runningSource.isEmpty() && !runningDestination.isEmpty()) {
        throw new RelayCpException(ErrorCode.INTERNAL_ERROR, "YARN relays asked for on"
            + " neither site: both sites' relays run already");
      }
    }

    /** YARN relays on both sites. */
    public Request(String applicationName, Configuration source, Configuration destination,
        int relaysPerSite, YarnRelaySettings settings, TransferSecret secret) {
      this(applicationName, source, destination, relaysPerSite, settings, secret, List.of(),
          List.of(), false);
    }
  }

  private final YarnRelaySettings settings;
  private final RelaySite source;
  private final RelaySite destination;
  /** The relays of a site whose relays run already, which this copy neither replaces nor stops. */
  private final Set<RelayAddress> runningRelays = new HashSet<>();
  private final Supplier<RelayJar> jar;
  private final List<Route> routes = new ArrayList<>();
  private final Map<RelayAddress, Integer> routesPerRelay = new HashMap<>();
  /** The relays routes use, by site and container (two clusters may number alike). */
  private final Map<String, RelayAddress> routed = new HashMap<>();
  /** Whether the relays that ran before the copy run this driver's build. */
  private final boolean runningRelaysOfThisBuild;
  private final Map<RelaySite, Long> replacementsAskedAt = new HashMap<>();
  private final Map<RelaySite, ReplacementBudget> replacements = new HashMap<>();
  /** Relays of dropped routes YARN has not reported ended yet, with when the route dropped. */
  private final Map<RelayAddress, Long> droppedRelays = new HashMap<>();
  /**
   * Dropped routes between a container of this copy and a running relay, whose running relay
   * the monitor has yet to try: one that no longer takes connections is dropped from the pairing
   * and its container paired with another.
   */
  private final List<Route> droppedAcrossRunning = new ArrayList<>();
  /** Running relays found no longer taking connections, which join no route again. */
  private final Set<RelayAddress> stoppedRunningRelays = new HashSet<>();
  private final List<Consumer<Route>> listeners = new CopyOnWriteArrayList<>();
  private final Runnable shutdownHook = this::close;
  private Thread monitor;
  /** Whether the first routes are made; the monitor joins later relays only after. */
  private boolean paired;
  /** Whether the copy has every byte: from then on no lost relay is replaced. */
  private boolean copied;
  private boolean closed;
  /** Held for the whole of {@link #close}, apart from this object's lock, which callbacks take. */
  private final Object closeLock = new Object();
  /** Source relays to ask for once the listing names the hosts; 0 once asked for. */
  private int sourceRelaysToAsk;
  /** When the first containers were asked for (System.nanoTime). */
  private volatile long requestedAt;

  private YarnRelays(YarnRelaySettings settings, RelaySite source, RelaySite destination,
      Supplier<RelayJar> jar, boolean runningRelaysOfThisBuild) {
    this.settings = settings;
    this.runningRelaysOfThisBuild = runningRelaysOfThisBuild;
    this.source = source;
    this.destination = destination;
    this.jar = jar;
    for (RelaySite site : List.of(source, destination)) {
      if (!startsRelays(site)) {
        runningRelays.addAll(site.announced().values());
      }
    }
  }

  /** Whether this copy starts {@code site}'s relays (and so replaces and stops them). */
  private static boolean startsRelays(RelaySite site) {
    return site.applicationId().isPresent();
  }

  /**
   * Relays being started while the driver lists the source: made by {@link #begin}, finished
   * with the listing by {@link #withListing}, or released by {@link #close} if the copy ends
   * before it has a listing.
   */
  public static final class Starting implements AutoCloseable {
    private final CompletableFuture<YarnRelays> started;
    private boolean claimed;

    private Starting(CompletableFuture<YarnRelays> started) {
      this.started = started;
    }

    /**
     * Asks for the source relays on {@code sourceHosts} (the datanodes holding the listing's
     * bytes, most first, as {@link HostAddresses#normalize} names them) unless they are asked
     * for already, and returns once one relay per site has announced itself (the others join
     * the copy as routes as they come up); throws RELAY_START_FAILED, having released
     * everything, when a site has none within the start timeout.
     */
    public YarnRelays withListing(List<String> sourceHosts) {
      requireNonNull(sourceHosts, "sourceHosts is null");
      synchronized (this) {
        claimed = true;
      }
      YarnRelays relays = joined(started);
      try {
        relays.askForSourceRelays(sourceHosts);
        relays.awaitFirstPair();
        return relays;
      } catch (RuntimeException e) {
        relays.close();
        throw e;
      }
    }

    /**
     * Releases what was started, unless {@link #withListing} took it over; waits for a start
     * still under way (within the start timeout), so that a copy that failed before its
     * listing was done leaves no application behind when its process ends.
     */
    @Override
    public void close() {
      synchronized (this) {
        if (claimed) {
          return;
        }
        claimed = true;
      }
      try {
        started.join().close();
      } catch (CompletionException | CancellationException e) {
        LOG.debug("The YARN relays did not start, so there is nothing to release", e);
      }
    }
  }

  /**
   * Starts the relays' applications on both clusters at once, on a thread of its own, and
   * asks for the destination's relays, which go on any node; with one relay per datanode,
   * also for the source's, on every datanode: where the listing would place them. What is
   * left waits for the listing ({@link Starting#withListing}). A YARN application takes
   * seconds to register and a relay JVM seconds to start, and a listing takes as long or
   * longer; they need not wait for each other.
   */
  public static Starting begin(Request request) {
    requireNonNull(request, "request is null");
    return new Starting(CompletableFuture.supplyAsync(() -> startSites(request),
        daemonThread("yarn-relays-start")));
  }

  /**
   * The value of {@code future}, waited for; a failure is thrown as the unchecked exception it
   * failed with, else as the CompletionException around it.
   */
  private static <T> T joined(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  /** Runs each task on a daemon thread of its own named {@code name}. */
  private static Executor daemonThread(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      thread.start();
    };
  }

  /**
   * Adds {@code hook} to Hadoop's shutdown hooks, to run before its file systems close; if the
   * JVM is already shutting down (a signal came while the relays started), no hook would run:
   * runs {@code ifShuttingDown} (what the hook would have done) and throws {@link
   * ErrorCode#INTERRUPTED}.
   */
  private static void addShutdownHook(Runnable hook, Runnable ifShuttingDown) {
    try {
      ShutdownHookManager.get().addShutdownHook(hook, FileSystem.SHUTDOWN_HOOK_PRIORITY + 1);
    } catch (IllegalStateException e) {
      ifShuttingDown.run();
      throw new RelayCpException(ErrorCode.INTERRUPTED,
          "the copy was stopped while its YARN relays started", e);
    }
  }

  /**
   * Removes {@code hook} from Hadoop's shutdown hooks, unless they are running; a hook never
   * added is no error.
   */
  private static void removeShutdownHook(Runnable hook) {
    if (!ShutdownHookManager.get().isShutdownInProgress()) {
      ShutdownHookManager.get().removeShutdownHook(hook);
    }
  }

  private static YarnRelays startSites(Request request) {
    YarnRelaySettings settings = request.settings();
    Path product = productJar(settings.jar());
    // The relay jar is taken out of the product jar and hashed (tenths of a second) while the
    // sites submit their applications; they need it only to stage it.
    CompletableFuture<RelayJar> taken =
        CompletableFuture.supplyAsync(() -> relayJar(product), daemonThread("relay-jar"));
    Supplier<RelayJar> jar = () -> joined(taken);
    String transferId = UUID.randomUUID().toString();
    // Until the relays' own hook is in place, each site YARN starts has a hook of its own: a
    // Ctrl-C while the applications register must not leave them to YARN's expiry. A site
    // whose relays run already makes nothing to undo, so it has none.
    SiteStartShutdownHook sourceHook = SiteStartShutdownHook.forSite("src");
    SiteStartShutdownHook destinationHook = SiteStartShutdownHook.forSite("dst");
    if (request.runningSource().isEmpty()) {
      addShutdownHook(sourceHook, () -> { });
    }
    try {
      if (request.runningDestination().isEmpty()) {
        addShutdownHook(destinationHook, () -> { });
      }
    } catch (RuntimeException e) {
      removeShutdownHook(sourceHook);
      throw e;
    }
    // The two clusters' applications start side by side: each takes a round trip or two
    // to its ResourceManager and a write of the jar to its file system.
    CompletableFuture<RelaySite> starting = CompletableFuture.supplyAsync(() -> startSite(
        "dst", request, request.destination(), request.runningDestination(), transferId, jar,
        destinationHook), daemonThread("yarn-relays-start-dst"));
    RelaySite source;
    try {
      source = startSite("src", request, request.source(), request.runningSource(), transferId,
          jar, sourceHook);
    } catch (RuntimeException e) {
      removeShutdownHook(sourceHook);
      // The destination's start goes on; its hook stays until it has ended, then it closes.
      starting.whenComplete((destination, failure) -> {
        if (destination != null) {
          destination.close();
        }
        removeShutdownHook(destinationHook);
      });
      throw e;
    }
    RelaySite destination;
    try {
      destination = joined(starting);
    } catch (RuntimeException e) {
      source.close();
      removeShutdownHook(sourceHook);
      removeShutdownHook(destinationHook);
      throw e;
    }
    YarnRelays relays = new YarnRelays(settings, source, destination, jar,
        request.runningRelaysOfThisBuild());
    try {
      addShutdownHook(relays.shutdownHook, relays::close);
    } finally {
      sourceHook.handOver();
      destinationHook.handOver();
      removeShutdownHook(sourceHook);
      removeShutdownHook(destinationHook);
    }
    try {
      boolean perDatanode = request.relaysPerSite() == 0;
      Optional<Datanodes> sourceDatanodes = perDatanode && source instanceof YarnSite yarn
          ? datanodes(yarn) : Optional.empty();
      relays.startMonitor();
      relays.requestedAt = System.nanoTime();
      if (destination instanceof YarnSite yarn) {
        int destinationCount = relayCount(request.relaysPerSite(), perDatanode
            ? datanodes(yarn) : Optional.empty(), yarn);
        yarn.request(placement(destinationCount, List.of(), yarn.nodeManagerHosts()));
      }
      if (source instanceof YarnSite yarn) {
        synchronized (relays) {
          relays.sourceRelaysToAsk = relayCount(request.relaysPerSite(), sourceDatanodes, yarn);
        }
      }
      if (sourceDatanodes.isPresent()) {
        List<String> hosts = new ArrayList<>();
        for (String host : sourceDatanodes.get().hosts()) {
          hosts.add(HostAddresses.normalize(host));
        }
        relays.askForSourceRelays(hosts);
      }
      return relays;
    } catch (RuntimeException e) {
      relays.close();
      throw e;
    }
  }

  /**
   * The site {@code name} ("src" or "dst"): its {@code running} relays, where given, else a
   * YARN application started on the cluster of {@code configuration}.
   */
  private static RelaySite startSite(String name, Request request, Configuration configuration,
      List<RelayAddress> running, String transferId, Supplier<RelayJar> jar,
      SiteStartShutdownHook hook) {
    if (!running.isEmpty()) {
      return RunningRelaySite.of(name, running);
    }
    return YarnSite.start(name, request.applicationName(), transferId, configuration,
        request.settings(), jar, request.secret(), hook);
  }

  /**
   * Asks for the source relays on {@code dataHosts} first, unless already asked for (or the
   * source's relays run already).
   */
  private synchronized void askForSourceRelays(List<String> dataHosts) {
    if (sourceRelaysToAsk > 0 && !closed && source instanceof YarnSite yarn) {
      yarn.request(placement(sourceRelaysToAsk, dataHosts, yarn.nodeManagerHosts()));
      sourceRelaysToAsk = 0;
    }
  }

  /** The product jar: the configured one, else the jar this class was loaded from. */
  static Path productJar(Optional<String> configured) {
    File jar;
    if (configured.isPresent()) {
      jar = new File(configured.get());
    } else {
      try {
        jar = new File(YarnRelays.class.getProtectionDomain().getCodeSource().getLocation()
            .toURI());
      } catch (URISyntaxException | RuntimeException e) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "cannot tell which jar relaycp"
            + " runs from; set " + YarnRelaySettings.JAR + " to relaycp-<version>.jar", e);
      }
    }
    String fix = "; run relaycp from the jar ./mvnw package builds (relaycp/target/"
        + "relaycp-<version>.jar) or set " + YarnRelaySettings.JAR + " to it";
    if (!jar.isFile()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "YARN relays need relaycp's jar, but " + jar + " is not a jar file" + fix);
    }
    try (JarFile file = new JarFile(jar)) {
      if (file.getEntry(PRODUCT_JAR_MARKER) == null) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, jar + " is not the product jar"
            + " (it lacks the bundled picocli that a relay container needs)" + fix);
      }
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "cannot read " + jar + ": " + e.getMessage() + fix, e);
    }
    return new Path(jar.getAbsoluteFile().toURI());
  }

  /**
   * The jar relay containers run: the relay jar inside {@code product} (taken out into a
   * temporary file, removed when this process ends, and hashed once), else the product jar
   * itself.
   */
  static synchronized RelayJar relayJar(Path product) {
    if (extractedRelayJar != null) {
      return extractedRelayJar;
    }
    File productFile = new File(product.toUri());
    try (JarFile file = new JarFile(productFile)) {
      ZipEntry entry = file.getEntry(RELAY_JAR_ENTRY);
      if (entry == null) {
        return RelayJar.of(product);
      }
      java.nio.file.Path extracted = Files.createTempFile("relaycp-relay-", ".jar");
      extracted.toFile().deleteOnExit();
      try (InputStream in = file.getInputStream(entry)) {
        Files.copy(in, extracted, StandardCopyOption.REPLACE_EXISTING);
      }
      extractedRelayJar = RelayJar.of(new Path(extracted.toUri()));
      LOG.debug("Relay containers run {} ({} bytes), taken from {}", extracted,
          extractedRelayJar.length(), productFile);
      return extractedRelayJar;
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.INTERNAL_ERROR, "cannot take the relay jar out of "
          + productFile + ": " + e.getMessage(), e);
    }
  }

  /**
   * The site's live datanodes; empty where the NameNode does not report them (the report may
   * need the HDFS superuser).
   */
  private static Optional<Datanodes> datanodes(YarnSite site) {
    try {
      return Datanodes.live(site.fileSystem()).filter(datanodes -> datanodes.count() > 0);
    } catch (RelayCpException e) {
      LOG.info("{} site: cannot count its datanodes ({}); one relay per NodeManager instead",
          site.site(), e.getMessage());
      return Optional.empty();
    }
  }

  /** The relays a site gets: as asked, else one per live datanode (else per NodeManager). */
  private static int relayCount(int asked, Optional<Datanodes> datanodes, YarnSite site) {
    if (asked > 0) {
      return asked;
    }
    return datanodes.map(Datanodes::count)
        .orElseGet(() -> Math.max(1, site.nodeManagerHosts().size()));
  }

  /**
   * The node asked for for each of {@code count} relays, one relay a node since each node's
   * WAN link is the point: first the NodeManager hosts that are datanodes holding the
   * listing's bytes ({@code dataHosts}, most bytes first), then the other NodeManager hosts,
   * then (null) any node.
   */
  static List<String> placement(int count, List<String> dataHosts, List<String> nodeManagers) {
    Map<String, String> nodeManagerByAddress = new LinkedHashMap<>();
    for (String host : nodeManagers) {
      nodeManagerByAddress.putIfAbsent(HostAddresses.normalize(host), host);
    }
    List<String> hosts = new ArrayList<>();
    for (String dataHost : dataHosts) {
      String nodeManager = nodeManagerByAddress.remove(dataHost);
      if (nodeManager != null && hosts.size() < count) {
        hosts.add(nodeManager);
      }
    }
    for (String nodeManager : nodeManagerByAddress.values()) {
      if (hosts.size() < count) {
        hosts.add(nodeManager);
      }
    }
    while (hosts.size() < count) {
      hosts.add(null);
    }
    return hosts;
  }

  /**
   * Waits until at least one relay of each site has announced itself, then makes the first
   * routes from the relays up by then: the copy starts on them while the other containers
   * still start (each joins as a route once it and a partner are up), since on a busy
   * cluster the last container may come many seconds after the first.
   */
  private void awaitFirstPair() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(settings.startTimeoutSeconds());
    while (true) {
      Map<RelaySite, Map<String, RelayAddress>> up = new HashMap<>();
      for (RelaySite site : List.of(source, destination)) {
        if (site.failure() != null) {
          throw site.failure();
        }
        replaceLost(site);
        Map<String, RelayAddress> announced = site.announced();
        up.put(site, announced);
        // Every container ended before it announced itself and none may replace it (a JVM
        // option the nodes' Java refuses, a Java too old for the jar): waiting out the start
        // timeout would change nothing.
        if (announced.isEmpty() && !site.mayYetAnnounce() && site.lastContainerEnd() != null) {
          throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "no relay container"
              + " announced itself on the " + siteName(site) + " cluster: its "
              + site.launched() + " containers all ended first, the last with "
              + site.lastContainerEnd() + logs(site));
        }
      }
      Map<String, RelayAddress> sources = up.get(source);
      Map<String, RelayAddress> destinations = up.get(destination);
      if (!sources.isEmpty() && !destinations.isEmpty()) {
        List<Route> first = joinAnnounced();
        synchronized (this) {
          paired = true;
        }
        LOG.info("YARN relays: the first {} routes are up after {} ms ({} source and {}"
                + " destination relays); the others join as they come up", first.size(),
            (System.nanoTime() - requestedAt) / 1_000_000, sources.size(), destinations.size());
        return;
      }
      if (System.nanoTime() > deadline) {
        RelaySite silent = sources.isEmpty() ? source : destination;
        String lastEnd = silent.lastContainerEnd();
        throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "no relay container announced"
            + " itself on the " + siteName(silent) + " cluster within "
            + settings.startTimeoutSeconds() + " s"
            + (lastEnd == null ? "" : " (the last container that ended: " + lastEnd + ")")
            + logs(silent) + ", and raise " + YarnRelaySettings.START_TIMEOUT
            + " if the cluster is busy");
      }
      sleep();
    }
  }

  private String siteName(RelaySite site) {
    return site == source ? "source" : "destination";
  }

  /** Where to read {@code site}'s relays' logs, for a message. */
  private static String logs(RelaySite site) {
    return site.applicationId().map(id -> "; see `yarn logs -applicationId " + id + "`")
        .orElse("");
  }

  private Route addRoute(RelayAddress reader, RelayAddress writer) {
    Route route = new Route(routes.size(), reader, writer);
    routes.add(route);
    routesPerRelay.merge(reader, 1, Integer::sum);
    routesPerRelay.merge(writer, 1, Integer::sum);
    return route;
  }

  /**
   * Adds the routes of relays that already run (spawned hosts, say) to these; they are
   * numbered after the YARN relays' routes and released by whoever started them. Whether they
   * run this build is the request's {@link Request#runningRelaysOfThisBuild}, which {@code
   * running} must agree with.
   */
  public synchronized YarnRelays with(StaticRelays running) {
    for (Route route : running.routes()) {
      if (running.runsThisBuild(route) != runningRelaysOfThisBuild) {
        throw new IllegalArgumentException("running and the request disagree on whether the"
            + " relays of " + route + " run this build");
      }
    }
    for (Route route : running.routes()) {
      addRoute(route.reader(), route.writer());
    }
    return this;
  }

  private void startMonitor() {
    monitor = new Thread(this::monitor, "yarn-relays-monitor");
    monitor.setDaemon(true);
    monitor.start();
  }

  /**
   * Heartbeats from the moment the relays are asked for (a relay that starts and hears
   * nothing stops itself), and once the first routes are made, replacements of lost relays
   * and routes for them.
   */
  private void monitor() {
    long beatEvery = TimeUnit.SECONDS.toNanos(Math.max(1, settings.driverTimeoutSeconds() / 6));
    long lastBeat = 0;
    while (!Thread.currentThread().isInterrupted()) {
      if (System.nanoTime() - lastBeat >= beatEvery) {
        source.beat();
        destination.beat();
        lastBeat = System.nanoTime();
      }
      if (isPaired()) {
        replaceLost(source);
        replaceLost(destination);
        List<Route> joined = new ArrayList<>(joinAnnounced());
        joined.addAll(pairAwayFromStoppedRunningRelays());
        for (Route route : joined) {
          listeners.forEach(listener -> listener.accept(route));
        }
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized boolean isPaired() {
    return paired;
  }

  private synchronized void replaceLost(RelaySite site) {
    for (String lost : site.takeLost()) {
      RelayAddress address = routed.remove(key(site, lost));
      if (address != null) {
        // Its routes are dropping: their other ends are free for its replacement.
        routesPerRelay.remove(address);
        for (Route route : routes) {
          if (route.reader().equals(address) || route.writer().equals(address)) {
            RelayAddress partner = route.reader().equals(address) ? route.writer() : route.reader();
            routesPerRelay.computeIfPresent(partner, (any, count) -> count > 1 ? count - 1 : 0);
          }
        }
      }
      ReplacementBudget budget = budget(site);
      if (closed || copied || !budget.take()) {
        LOG.warn("{} site: relay container {} is not replaced ({} replaced within the last hour,"
                + " {} at most: {})", site.site(), lost, budget.used(),
            settings.replacementsPerSite(), YarnRelaySettings.REPLACEMENTS);
        continue;
      }
      replacementsAskedAt.put(site, System.nanoTime());
      LOG.info("{} site: asking YARN for a relay to replace {}", site.site(), lost);
      site.request(Collections.singletonList(
          address == null ? null : address.host()));
    }
  }

  /**
   * Routes for containers whose running partner stopped. A running relay (of a site whose
   * relays YARN does not start) is never replaced; where a route between it and a container of
   * this copy dropped and it no longer takes connections, it leaves the pairing, and the
   * container, which YARN still runs, pairs with the live running relay of fewest routes. A
   * running relay that still listens is left as it is: the container's own end, if it was
   * that, is YARN's to report and replace.
   */
  private List<Route> pairAwayFromStoppedRunningRelays() {
    List<Route> dropped;
    synchronized (this) {
      dropped = new ArrayList<>(droppedAcrossRunning);
    }
    List<Route> joined = new ArrayList<>();
    for (Route route : dropped) {
      RelayAddress running = runningRelays.contains(route.reader())
          ? route.reader() : route.writer();
      // A connect with a timeout, outside the lock: the copy's callbacks take it.
      boolean listening = listening(running);
      synchronized (this) {
        droppedAcrossRunning.remove(route);
        if (closed || copied || listening) {
          continue;
        }
        if (stoppedRunningRelays.add(running)) {
          LOG.warn("Running relay {} no longer takes connections: it leaves the copy's routes",
              running);
        }
        routed.values().remove(running);
        routesPerRelay.remove(running);
        RelayAddress container = route.reader().equals(running) ? route.writer() : route.reader();
        if (!routed.containsValue(container)) {
          continue;
        }
        routesPerRelay.computeIfPresent(container, (any, count) -> count > 1 ? count - 1 : 0);
        // Every running relay of the site is a candidate, also one not routed yet (its own
        // container still starting), which then counts as routed.
        RelaySite runningSite = route.reader().equals(running) ? source : destination;
        Optional<Map.Entry<String, RelayAddress>> partner =
            runningSite.announced().entrySet().stream()
                .filter(relay -> !stoppedRunningRelays.contains(relay.getValue()))
                .min(Comparator.comparingInt(
                    relay -> routesPerRelay.getOrDefault(relay.getValue(), 0)));
        if (partner.isEmpty()) {
          LOG.warn("Relay {} has no running relay left to pair with", container);
          continue;
        }
        RelayAddress other = partner.get().getValue();
        routed.put(key(runningSite, partner.get().getKey()), other);
        Route repaired = route.reader().equals(container)
            ? addRoute(container, other) : addRoute(other, container);
        LOG.info("Relay {} pairs with running relay {} in place of {}: {}", container, other,
            running, repaired);
        joined.add(repaired);
      }
    }
    return joined;
  }

  /** Whether {@code relay} accepts a TCP connection within two seconds. */
  private static boolean listening(RelayAddress relay) {
    try (Socket connection = new Socket()) {
      connection.connect(relay.toSocketAddress(), (int) TimeUnit.SECONDS.toMillis(2));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Routes for the relays that announced themselves since the last look. A source and a
   * destination relay that are both new make a route together, as the first relays of each
   * site do; a new relay left without a new partner waits for one while the other site still
   * has containers coming (within the start timeout), and otherwise pairs with the relay of
   * the other site that has the fewest live routes: the partner of the relay it replaces, or
   * a relay that serves two routes when one site has more relays than the other.
   */
  private synchronized List<Route> joinAnnounced() {
    if (closed) {
      return List.of();
    }
    List<Map.Entry<String, RelayAddress>> newSources = unrouted(source);
    List<Map.Entry<String, RelayAddress>> newDestinations = unrouted(destination);
    List<Route> joined = new ArrayList<>();
    int pairs = Math.min(newSources.size(), newDestinations.size());
    for (int index = 0; index < pairs; index++) {
      joined.add(join(newSources.get(index), newDestinations.get(index)));
    }
    joined.addAll(joinWithRouted(source, newSources.subList(pairs, newSources.size())));
    joined.addAll(joinWithRouted(destination,
        newDestinations.subList(pairs, newDestinations.size())));
    for (RelaySite site : List.of(source, destination)) {
      if (site.pending() == 0) {
        replacementsAskedAt.remove(site);
      }
    }
    return joined;
  }

  private List<Map.Entry<String, RelayAddress>> unrouted(RelaySite site) {
    List<Map.Entry<String, RelayAddress>> unrouted = new ArrayList<>();
    for (Map.Entry<String, RelayAddress> relay : site.announced().entrySet()) {
      if (!routed.containsKey(key(site, relay.getKey()))
          && !stoppedRunningRelays.contains(relay.getValue())) {
        unrouted.add(relay);
      }
    }
    return unrouted;
  }

  private Route join(Map.Entry<String, RelayAddress> reader,
      Map.Entry<String, RelayAddress> writer) {
    routed.put(key(source, reader.getKey()), reader.getValue());
    routed.put(key(destination, writer.getKey()), writer.getValue());
    Route route = addRoute(reader.getValue(), writer.getValue());
    LOG.info("Relays {} and {} join as {}", reader.getKey(), writer.getKey(), route);
    return route;
  }

  private List<Route> joinWithRouted(RelaySite site,
      List<Map.Entry<String, RelayAddress>> relays) {
    RelaySite other = site == source ? destination : source;
    if (relays.isEmpty() || (other.pending() > 0 && withinStartTimeout())) {
      return List.of();
    }
    List<RelayAddress> partners = new ArrayList<>();
    for (Map.Entry<String, RelayAddress> relay : other.announced().entrySet()) {
      if (routed.containsKey(key(other, relay.getKey()))) {
        partners.add(relay.getValue());
      }
    }
    List<Route> joined = new ArrayList<>();
    for (Map.Entry<String, RelayAddress> relay : relays) {
      Optional<RelayAddress> partner = partners.stream()
          .min(Comparator.comparingInt(address -> routesPerRelay.getOrDefault(address, 0)));
      if (partner.isEmpty()) {
        break;
      }
      routed.put(key(site, relay.getKey()), relay.getValue());
      Route route = site == source
          ? addRoute(relay.getValue(), partner.get())
          : addRoute(partner.get(), relay.getValue());
      LOG.info("{} site: relay {} joins as {}", site.site(), relay.getKey(), route);
      joined.add(route);
    }
    return joined;
  }

  private boolean withinStartTimeout() {
    return System.nanoTime() - requestedAt
        < TimeUnit.SECONDS.toNanos(settings.startTimeoutSeconds());
  }

  private static String key(RelaySite site, String relay) {
    return site.site() + "/" + relay;
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "interrupted starting YARN relays", e);
    }
  }

  @Override
  public synchronized List<Route> routes() {
    return List.copyOf(routes);
  }

  /**
   * The routes whose two relays both still run, in the order they were made: {@link #routes}
   * without those of relays lost since.
   */
  public synchronized List<Route> liveRoutes() {
    List<Route> live = new ArrayList<>();
    for (Route route : routes) {
      if (routed.containsValue(route.reader()) && routed.containsValue(route.writer())) {
        live.add(route);
      }
    }
    return live;
  }

  /** The hash of the relay jar these relays run ({@link RelayJar#contentHash}). */
  public String relayJarHash() {
    return jar.get().contentHash();
  }

  /**
   * The hash of the relay jar that relays started from this process would run, the jar
   * {@code configured} names or this process's own, as {@link #relayJarHash} gives it for
   * relays that run; empty where relaycp does not run from its product jar.
   */
  public static Optional<String> relayJarHash(Optional<String> configured) {
    try {
      return Optional.of(relayJar(productJar(configured)).contentHash());
    } catch (RelayCpException e) {
      LOG.debug("No relay jar to compare: {}", e.getMessage());
      return Optional.empty();
    }
  }

  @Override
  public void onJoin(Consumer<Route> joined) {
    listeners.add(requireNonNull(joined, "joined is null"));
  }

  /**
   * A relay still starting within the start timeout (of the first containers, or of a
   * replacement) may still join.
   */
  @Override
  public synchronized boolean mayJoin() {
    if (closed) {
      return false;
    }
    long timeout = TimeUnit.SECONDS.toNanos(settings.startTimeoutSeconds());
    boolean starting = withinStartTimeout()
        && (source.pending() > 0 || destination.pending() > 0);
    return starting || awaitingLossReport() || !droppedAcrossRunning.isEmpty()
        || replacementsAskedAt.values().stream()
            .anyMatch(askedAt -> System.nanoTime() - askedAt < timeout);
  }

  /**
   * The relays of {@code route}, where they are this copy's containers, may have ended: until
   * YARN says whether they did (and a replacement is asked for), or {@link
   * YarnRelaySettings#LOSS_REPORT} passes, a relay may still join. Where the route joined a
   * container to a running relay, a route of the container with another running relay may
   * join, once the monitor found the running one stopped. Nothing is awaited once the copy has
   * every byte, nor a replacement once none is left to ask for.
   */
  @Override
  public synchronized void routeDropped(Route route) {
    requireNonNull(route, "route is null");
    if (closed || copied) {
      return;
    }
    if (runningRelays.contains(route.reader()) != runningRelays.contains(route.writer())
        && !droppedAcrossRunning.contains(route)) {
      droppedAcrossRunning.add(route);
    }
    if (!replacementsLeft()) {
      return;
    }
    long now = System.nanoTime();
    for (RelayAddress relay : List.of(route.reader(), route.writer())) {
      if (startedHere(relay)) {
        droppedRelays.putIfAbsent(relay, now);
      }
    }
  }

  /** Whether a relay of a dropped route may yet be reported ended, within the bound. */
  private boolean awaitingLossReport() {
    long now = System.nanoTime();
    droppedRelays.entrySet().removeIf(dropped -> !routed.containsValue(dropped.getKey())
        || now - dropped.getValue() >= YarnRelaySettings.LOSS_REPORT.toNanos());
    return !droppedRelays.isEmpty() && !copied && replacementsLeft();
  }

  private boolean replacementsLeft() {
    return (startsRelays(source) && budget(source).anyLeft())
        || (startsRelays(destination) && budget(destination).anyLeft());
  }

  private ReplacementBudget budget(RelaySite site) {
    return replacements.computeIfAbsent(site,
        any -> ReplacementBudget.perHour(settings.replacementsPerSite()));
  }

  @Override
  public String provisioner() {
    return "yarn";
  }

  /**
   * Whether both relays of {@code route} are containers of this copy, which run the jar the
   * driver localized (its own, unless {@code relaycp.yarn.jar} names another); relays that ran
   * before the copy may be of another build, unless the request said they run this one.
   */
  @Override
  public synchronized boolean runsThisBuild(Route route) {
    return (startedHere(route.reader()) && startedHere(route.writer()))
        || runningRelaysOfThisBuild;
  }

  /** Whether {@code relay} is a container of this copy that still runs. */
  private boolean startedHere(RelayAddress relay) {
    return routed.containsValue(relay) && !runningRelays.contains(relay);
  }

  @Override
  public Map<String, Integer> relaysStarted() {
    return Map.of("src", source.launched(), "dst", destination.launched());
  }

  /** The applications' ids by site ("src", "dst"), where this copy started relays. */
  public Map<String, String> applications() {
    Map<String, String> applications = new LinkedHashMap<>();
    for (RelaySite site : List.of(source, destination)) {
      site.applicationId().ifPresent(id -> applications.put(site.site(), id));
    }
    return applications;
  }

  /** The staging folders' URIs by site ("src", "dst"), where this copy started relays. */
  public Map<String, String> stagingFolders() {
    Map<String, String> folders = new LinkedHashMap<>();
    for (RelaySite site : List.of(source, destination)) {
      site.stagingFolder().ifPresent(folder -> folders.put(site.site(), folder));
    }
    return folders;
  }

  /**
   * Once the copy has every byte, waits while relays say they are still making their node's
   * class-data archive ({@link ClassDataArchive}; YARN would stop the dump with the container),
   * at most {@code relaycp.yarn.class-data-wait-seconds} and only until {@link #close}. The
   * dump runs once a node and relay jar, so later copies on the same nodes do not wait. No lost
   * relay is replaced from now on.
   */
  @Override
  public void awaitBackgroundWork() {
    synchronized (this) {
      if (closed) {
        return;
      }
      copied = true;
    }
    long bound = TimeUnit.SECONDS.toNanos(settings.classDataWaitSeconds());
    long started = System.nanoTime();
    boolean waited = false;
    while (bound > 0) {
      synchronized (this) {
        if (closed) {
          return;
        }
      }
      List<String> busy = new ArrayList<>();
      source.busy().forEach(relay -> busy.add(key(source, relay)));
      destination.busy().forEach(relay -> busy.add(key(destination, relay)));
      if (busy.isEmpty()) {
        break;
      }
      if (!waited) {
        LOG.info("Keeping {} relay(s) up to {} s while they make their node's class-data"
            + " archive: {}", busy.size(), settings.classDataWaitSeconds(), busy);
        waited = true;
      }
      if (System.nanoTime() - started >= bound) {
        LOG.info("Ending {} relay(s) still making their node's class-data archive after {} s"
            + " ({}); a later copy's relay on the node makes it", busy.size(),
            settings.classDataWaitSeconds(), RelayKeys.YARN_CLASS_DATA_WAIT_SECONDS.key());
        return;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (waited) {
      LOG.info("The relays' class-data archives were made {} ms after the copy's last byte",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }
  }

  /**
   * Ends the applications and removes their staging folders. A call made while another thread
   * closes returns only once that close has ended. The shutdown hook relies on that: on SIGTERM
   * the copy's own close may be under way when the hook runs, and once the hook returns Hadoop
   * closes the file systems and the JVM halts, which would cut that close off mid-way.
   */
  @Override
  public void close() {
    synchronized (closeLock) {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
      }
      end();
    }
  }

  private void end() {
    if (monitor != null) {
      monitor.interrupt();
    }
    // The sites close side by side: in a shutdown hook, which Hadoop cuts off after
    // hadoop.service.shutdown.timeout, one slow ResourceManager must not leave the other
    // site's application running.
    CompletableFuture<Void> destinationClosed = CompletableFuture.runAsync(destination::close,
        daemonThread("yarn-relays-close-dst"));
    try {
      source.close();
    } finally {
      try {
        destinationClosed.join();
      } catch (CompletionException e) {
        LOG.warn("Cannot close the destination's relays: {}", e.getCause().toString());
      }
      if (!ShutdownHookManager.get().isShutdownInProgress()) {
        ShutdownHookManager.get().removeShutdownHook(shutdownHook);
      }
    }
  }
}
