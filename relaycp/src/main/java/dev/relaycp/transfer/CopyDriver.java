package dev.relaycp.transfer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.CallerCredentials;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.fs.DatanodeAddress;
import dev.relaycp.fs.Datanodes;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.relay.RelayConnector;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.Transfer;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.BBPartHandle;
import org.apache.hadoop.fs.BBUploadHandle;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.MultipartUploader;
import org.apache.hadoop.fs.PartHandle;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.util.ShutdownHookManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one copy: list, chunk, start the relays for the listing, send every chunk over
 * whichever route is free (preferring a reader relay on a datanode that holds the chunk's
 * blocks), complete multipart files, verify every file against its source (a file of one
 * chunk as soon as it is staged, while the others are still on the wire), and commit.
 * Returns a report only when every file verified; otherwise throws, having removed everything
 * it staged. Relays come from a {@link RouteSource} made for the listing, which the driver
 * closes at the end whatever the outcome.
 */
public final class CopyDriver {
  private static final Logger LOG = LoggerFactory.getLogger(CopyDriver.class);
  /** A staging directory whose heartbeat is this old belongs to a copy that has ended. */
  public static final Duration LEFTOVER_AFTER = Duration.ofMinutes(10);

  private final FileSystemOpener opener;

  /**
   * @param opener opens SRC and DST (each with its cluster's configuration, where it was given
   *     one: {@link FileSystemOpener#withCluster}); relaycp's settings are read from its
   *     {@link FileSystemOpener#configuration()}
   */
  public CopyDriver(FileSystemOpener opener) {
    this.opener = requireNonNull(opener, "opener is null");
  }

  /** A copy over relays that already run. */
  public CopyReport copy(CopySettings settings, List<Route> routes, TransferSecret secret,
      TransferProgress.Listener progress) {
    requireNonNull(routes, "routes is null");
    if (routes.isEmpty()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "no relays to copy through; pass --relays host:port,... or --local-relays N");
    }
    return copy(settings, tree -> RouteSource.fixed(routes), secret, progress);
  }

  /**
   * A copy over the relays {@code relays} provides for the listing (it may place them by the
   * listing's blocks); called once the targets are checked, so bad input starts no relay.
   */
  public CopyReport copy(CopySettings settings,
      Function<SourceTree, ? extends RouteSource> relays, TransferSecret secret,
      TransferProgress.Listener progress) {
    requireNonNull(settings, "settings is null");
    requireNonNull(relays, "relays is null");
    requireNonNull(secret, "secret is null");
    requireNonNull(progress, "progress is null");
    long started = System.nanoTime();
    if (RelayKeys.RELAY_TLS.from(opener.configuration())) {
      // Made while the source is listed, a wait on its namenode: spawned relays are asked for
      // with it (they adopt it) and routes connect with it, both once the listing is done.
      RelayTls.prepareInBackground();
    }
    SyncSettings sync = settings.sync();
    FileSystem source = opener.open(settings.source());
    FileSystem destination = opener.open(settings.destination());
    Path sourceRoot = source.makeQualified(new Path(settings.source()));
    refuseCopyIntoItself(sourceRoot, destination.makeQualified(new Path(settings.destination())));
    Optional<SnapshotDiffSync> diff = sync.diff().map(range -> SnapshotDiffSync.prepare(source,
        sourceRoot, destination, destination.makeQualified(new Path(settings.destination())),
        range));
    Path listedRoot = diff.map(SnapshotDiffSync::snapshotRoot).orElse(sourceRoot);
    SourceTree listed = diff.isPresent()
        ? SourceLister.listSelected(source, listedRoot, diff.get().changed(), sync::excludes)
        : SourceLister.list(source, sourceRoot, sync::excludes);
    Path destinationRoot = destinationRoot(destination, settings.destination(), listed,
        sourceRoot);
    Committer committer = new Committer(destination, settings.replacesTargets(),
        sync.preserve(), source);
    String transferId = UUID.randomUUID().toString();
    // An earlier run of this copy that did not finish: its staged chunks are taken over. (Not
    // with --diff, whose renames and deletions an earlier run may have applied already.)
    Optional<ResumableStaging.Found> resumable = diff.isPresent() ? Optional.empty()
        : findResumable(destination, sourceRoot, destinationRoot, settings);
    // The diff's renames and deletions go first, so --update finds renamed files in place.
    int diffDeleted = diff.map(changes -> changes.apply(destination, destinationRoot,
        transferId)).orElse(0);
    UpdateCheck.Result update = sync.update()
        ? new UpdateCheck(source, destination, sync.keeps(PreservedAttribute.BLOCK_SIZE),
            settings.verificationThreads()).split(listed, destinationRoot)
        : UpdateCheck.Result.copyAll(listed);
    // Files that earlier run committed already (at their final names, with their source's
    // checksum) are done; any other file at a final name is a conflict as ever.
    UpdateCheck.Result committedEarlier = resumable.isPresent() && !sync.update()
        && !settings.overwrite()
        ? new UpdateCheck(source, destination, sync.keeps(PreservedAttribute.BLOCK_SIZE),
            settings.verificationThreads()).split(update.toCopy(), destinationRoot)
        : UpdateCheck.Result.copyAll(update.toCopy());
    SourceTree tree = committedEarlier.toCopy();
    if (sync.atomic()) {
      refuseExistingForAtomic(destination, destinationRoot);
    }
    committer.checkTargets(tree, destinationRoot);

    Optional<FileChecksum> checksumSample =
        new ChecksumVerifier(source, destination).sourceSample(tree);
    List<Chunk> chunks = new Chunker(settings.blocksPerChunk()).chunk(tree.files());
    PhaseClock phases = new PhaseClock(started);
    phases.end("listing");
    LOG.info("Transfer {}: {} files, {} bytes, {} chunks; {} files skipped as equal",
        transferId, tree.files().size(), tree.totalBytes(), chunks.size(),
        update.skipped().size());
    // The relays start while the copy makes its staging; the copy waits for them only when it
    // needs its first route.
    try (RouteSource routeSource = StartingRelays.start(relays, tree)) {
      CopyReport copied = copy(settings, source, destination, tree, listedRoot, destinationRoot,
          committer, chunks, transferId, routeSource, secret, progress, phases, started,
          checksumSample, resumable);
      copied = copied.withResume(copied.resume().withCommittedEarlier(
          committedEarlier.skipped().size(),
          committedEarlier.skipped().stream().mapToLong(SourceFile::length).sum()));
      for (SourceFile skipped : update.skipped()) {
        committer.refreshSkipped(skipped,
            Committer.finalPath(destinationRoot, skipped.relativePath()));
      }
      int deleted = diffDeleted;
      if (sync.delete() && !listed.singleFile()) {
        deleted += TargetPruner.removeAbsent(destination, destinationRoot, sourceRoot,
            listed.relativePaths(), sync::excludes);
      }
      return copied.withSync(new SyncOutcome(update.skipped().size(),
          update.skipped().stream().mapToLong(SourceFile::length).sum(), deleted,
          diff.map(SnapshotDiffSync::renames).orElse(0), committer.notPreserved()));
    }
  }

  private CopyReport copy(CopySettings settings, FileSystem source, FileSystem destination,
      SourceTree tree, Path sourceRoot, Path destinationRoot, Committer committer,
      List<Chunk> chunks,
      String transferId, RouteSource routeSource, TransferSecret secret,
      TransferProgress.Listener progress, PhaseClock phases, long started,
      Optional<FileChecksum> checksumSample, Optional<ResumableStaging.Found> resumable) {
    reportLeftovers(destination, destinationRoot,
        resumable.map(ResumableStaging.Found::root).orElse(null));
    // The relays read and write as this process's user, only inside the listed root and the
    // staging directory.
    CallerCredentials caller =
        CallerCredentials.obtain(List.of(source, destination));
    // Ctrl-C or SIGTERM ends the JVM without this method's finally: the hook keeps the staging
    // for the next run then too (or removes it, if it holds nothing), before the file systems
    // close (a higher priority runs first). It is registered before the staging exists and
    // waits for one being made, so that a signal at any moment finds the staging ended.
    StagingOnSignal onSignal = new StagingOnSignal();
    try {
      ShutdownHookManager.get().addShutdownHook(onSignal,
          FileSystem.SHUTDOWN_HOOK_PRIORITY + 2);
    } catch (IllegalStateException shuttingDown) {
      caller.close();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "the copy was stopped before it began",
          shuttingDown);
    }
    StagingArea staging;
    CopyJournal journal;
    ScheduledExecutorService heartbeat;
    Run run;
    synchronized (onSignal) {
      try {
        if (onSignal.signalled()) {
          throw new RelayCpException(ErrorCode.INTERRUPTED,
              "the copy was stopped before it began");
        }
        staging = resumable
            .map(found -> StagingArea.adopt(destination, found.root(), found.recovered().runs()))
            .orElseGet(() -> StagingArea.create(destination, destinationRoot, transferId));
        journal = CopyJournal.start(destination, staging.root(),
            CopyJournal.Header.of(sourceRoot, destinationRoot, staging.run()));
      } catch (RuntimeException e) {
        caller.close();
        forget(onSignal);
        throw e;
      }
      heartbeat = Executors.newSingleThreadScheduledExecutor(
          new DefaultThreadFactory("staging-heartbeat", true));
      heartbeat.scheduleWithFixedDelay(staging::beat, settings.stagingBeatSeconds(),
          settings.stagingBeatSeconds(), TimeUnit.SECONDS);
      // The writer relays return each staged file's checksum, which the driver would
      // otherwise ask for across the WAN (see EarlyVerification).
      Transfer transfer = new Transfer(caller.user(), sourceRoot.toUri(),
          staging.root().toUri(), caller.tokenBytes(), settings.compress(),
          RelayKeys.COPY_STORED_CHECKSUMS.from(opener.configuration()));
      run = new Run(settings, tree, chunks, staging, destination, progress, routeSource,
          started, journal, transfer, new ChecksumVerifier(source, destination),
          RelayKeys.COPY_WRITER_TIMES.from(opener.configuration()));
      CopyJournal ending = journal;
      Run ended = run;
      onSignal.endWith(() -> {
        ending.close();
        ended.endStaging(settings.destination(), null);
      });
    }
    RelayCpException failure = null;
    boolean committed = false;
    Thread release = null;
    NioEventLoopGroup eventLoops =
        new NioEventLoopGroup(2, new DefaultThreadFactory("driver-io", true));
    ExecutorService pool = Executors.newCachedThreadPool(new DefaultThreadFactory("driver", true));
    try {
      if (checksumSample.isPresent()) {
        run.verifier.checkDestination(staging.root(), checksumSample.get());
      }
      run.prepare(resumable.map(ResumableStaging.Found::recovered)
          .orElse(CopyJournal.Recovered.NONE));
      RelayConnector connector = RelayConnector.of(eventLoops, secret)
          .withSilenceTimeout(TimeUnit.SECONDS.toMillis(settings.silenceSeconds()))
          .configuredBy(opener.configuration());
      List<Future<?>> workers = new CopyOnWriteArrayList<>();
      Consumer<Route> startWorker = route -> {
        if (run.join(route)) {
          RouteWorker worker = new RouteWorker(route, connector, run.queue, run,
              settings.chunksInFlightPerRoute(), settings.bytesInFlightPerRoute(),
              run::liveRoutes, settings.relayWaitSeconds(), settings.stallSeconds());
          run.routeWorkers.add(worker);
          workers.add(pool.submit(worker));
        }
      };
      List<Route> firstRoutes = routeSource.routes();
      if (firstRoutes.isEmpty()) {
        throw new RelayCpException(ErrorCode.NO_ROUTES_LEFT,
            "no relay route is ready; check that the relays run and can reach both clusters");
      }
      phases.end("relays");
      LOG.info("Transfer {}: {} routes ({} relays) ready", transferId, firstRoutes.size(),
          routeSource.provisioner());
      // Listening first, then the routes ready now: a route that joins in between is seen by
      // both and started once (join() skips repeats).
      routeSource.onJoin(startWorker);
      routeSource.routes().forEach(startWorker);
      while (!run.queue.awaitCompletion(500, TimeUnit.MILLISECONDS)) {
        run.routeWorkers.forEach(RouteWorker::dropIfStalled);
        run.checkRoutesLeft();
        run.report("copying");
      }
      run.stopJoining();
      awaitWorkers(workers);
      phases.end("copying");
      // Every byte is at the destination: nothing after this needs a relay, so the relays
      // (containers, VMs) go while the files are completed, verified and committed, which on
      // a large tree takes minutes of checksums. A failure later needs no route either.
      release = releaseInBackground(routeSource);
      run.report("completing");
      List<URI> staged = run.completeFiles(pool);
      phases.end("completing");
      run.report("verifying");
      List<FileVerification> verification = run.verify(pool, staged);
      phases.end("verifying");
      // Every staged chunk and completed file is in the journal before the first moves to its
      // final name, so a driver killed while committing leaves a next run all it staged; the
      // journal's once-a-second flush could still hold the last of them when the commit follows
      // the last byte closely (files verified while they were copied).
      journal.flushQuietly();
      run.report("committing");
      if (settings.sync().atomic()) {
        // The whole tree is committed inside the staging, then appears by one rename.
        Path whole = staging.atomicTree();
        committer.commit(tree, sourceRoot, whole, staged, pool, settings.verificationThreads());
        committer.renameWhole(whole, destinationRoot);
      } else {
        committer.commit(tree, sourceRoot, destinationRoot, staged, pool,
            settings.verificationThreads());
      }
      committed = true;
      phases.end("committing");
      double seconds = (System.nanoTime() - started) / 1e9;
      run.report("done");
      return new CopyReport(settings.source().toString(), destinationRoot.toString(),
          tree.totalBytes(), tree.files().size(), tree.directories().size(), seconds,
          run.routesTotal(), run.routesDropped.get(), chunks.size(), run.chunksResent.get(),
          verification, run.routeResults(), phases.seconds(), routeSource.provisioner(),
          routeSource.relaysStarted(), run.localReadFraction(), SyncOutcome.NONE,
          run.resumeOutcome());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = new RelayCpException(ErrorCode.INTERRUPTED, "the copy was interrupted", e);
      throw failure;
    } catch (RelayCpException e) {
      failure = e;
      throw e;
    } catch (RuntimeException e) {
      // A bug: its staging is not kept for a resume that would meet it again.
      failure = new RelayCpException(ErrorCode.INTERNAL_ERROR, String.valueOf(e), e);
      throw e;
    } finally {
      run.stopJoining();
      if (run.queue != null) {
        run.queue.fail(new RelayCpException(ErrorCode.INTERRUPTED, "the copy has ended"));
      }
      run.stopVerifying();
      pool.shutdownNow();
      eventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      heartbeat.shutdownNow();
      caller.close();
      journal.close();
      if (committed) {
        staging.remove();
      } else {
        run.endStaging(settings.destination(), failure);
      }
      forget(onSignal);
      if (!committed && release != null) {
        // A copy that failed waits for no relay's background work.
        routeSource.close();
      }
      awaitRelease(release);
    }
  }

  /**
   * What a signal does to a copy's staging: nothing until the staging is made, then what
   * {@link #endWith} says. The copy makes its staging holding this object's lock, so a signal
   * that comes meanwhile waits for it, and one that came before stops the copy from making it.
   */
  private static final class StagingOnSignal implements Runnable {
    private boolean signalled;
    private Runnable end;

    synchronized boolean signalled() {
      return signalled;
    }

    synchronized void endWith(Runnable end) {
      this.end = end;
    }

    @Override
    public synchronized void run() {
      signalled = true;
      if (end != null) {
        end.run();
      }
    }
  }

  /**
   * Closes {@code routeSource}, once the work its relays do past the copy is done, on a thread
   * of its own, which {@link #awaitRelease} joins.
   */
  private static Thread releaseInBackground(RouteSource routeSource) {
    Thread release = new Thread(() -> {
      try {
        routeSource.awaitBackgroundWork();
      } catch (RuntimeException e) {
        LOG.debug("Waiting for the {} relays' background work failed", routeSource.provisioner(),
            e);
      }
      try {
        routeSource.close();
      } catch (RuntimeException e) {
        LOG.warn("Releasing the {} relays failed: {}", routeSource.provisioner(), e.toString());
      }
    }, "relay-release");
    release.setDaemon(true);
    release.start();
    return release;
  }

  /**
   * Removes a copy's signal hook once the copy no longer needs it. While the JVM shuts down,
   * Hadoop refuses the removal, and the hook runs (or has run) anyway, so it is left alone.
   */
  private static void forget(StagingOnSignal onSignal) {
    if (!ShutdownHookManager.get().isShutdownInProgress()) {
      ShutdownHookManager.get().removeShutdownHook(onSignal);
    }
  }

  /**
   * Waits for a release begun by {@link #releaseInBackground} (none: null) to end, so that no
   * relay this copy started outlives its report; an interrupt is kept for the caller.
   */
  private static void awaitRelease(Thread release) {
    if (release == null) {
      return;
    }
    boolean interrupted = false;
    while (release.isAlive()) {
      try {
        release.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** With --atomic the destination appears by one rename, so it must not exist yet. */
  private static void refuseExistingForAtomic(FileSystem destination, Path destinationRoot) {
    try {
      if (destination.exists(destinationRoot)) {
        throw new RelayCpException(ErrorCode.TARGET_EXISTS, "DST " + destinationRoot
            + " exists; --atomic makes DST appear whole by one rename, so give a path that does"
            + " not exist yet (or drop --atomic)");
      }
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading the destination " + destinationRoot);
    }
  }

  /** An earlier run's staging of this copy to take up, waiting while its driver may live. */
  private static Optional<ResumableStaging.Found> findResumable(FileSystem destination,
      Path sourceRoot, Path destinationRoot, CopySettings settings) {
    try {
      Optional<ResumableStaging.Found> found = ResumableStaging.find(destination, sourceRoot,
          destinationRoot, Duration.ofSeconds(3 * settings.stagingBeatSeconds()));
      found.ifPresent(staging -> LOG.info("Resuming the copy staged in {}: {} chunks or files"
              + " of {} earlier run{} are still there", staging.root(),
          staging.recovered().staged().size(), staging.recovered().runs(),
          staging.recovered().runs() == 1 ? "" : "s"));
      return found;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "the copy was interrupted", e);
    }
  }

  /**
   * Says, once, that copies to this destination left staging directories behind (drivers
   * killed outright), and how to remove them; they are not touched, since they are not this
   * copy's.
   */
  private static void reportLeftovers(FileSystem destination, Path destinationRoot,
      Path resumed) {
    try {
      List<LeftoverStaging.Leftover> leftovers = LeftoverStaging.find(destination,
          destinationRoot, Instant.now().minus(LEFTOVER_AFTER)).stream()
          .filter(leftover -> !leftover.path().equals(resumed)).toList();
      if (!leftovers.isEmpty()) {
        LOG.warn("{} staging director{} of earlier copies that did not finish ({} bytes) beside"
                + " {}: {}; `relaycp clean {}` removes them", leftovers.size(),
            leftovers.size() == 1 ? "y" : "ies",
            leftovers.stream().mapToLong(LeftoverStaging.Leftover::bytes).sum(),
            destinationRoot, leftovers.stream().map(leftover -> leftover.path().getName())
                .toList(), destinationRoot);
      }
    } catch (RelayCpException e) {
      LOG.debug("Cannot look for leftover staging beside {}: {}", destinationRoot,
          e.getMessage());
    }
  }

  /**
   * A destination that is the source or lies inside it would copy a tree into itself (and
   * with --overwrite replace the source's own files): refused before anything is read.
   */
  static void refuseCopyIntoItself(Path sourceRoot, Path destination) {
    URI source = sourceRoot.toUri();
    URI target = destination.toUri();
    if (!Objects.equals(source.getScheme(), target.getScheme())
        || !Objects.equals(source.getAuthority(), target.getAuthority())) {
      return;
    }
    String sourcePath = sourceRoot.toUri().getPath();
    String targetPath = target.getPath();
    boolean inside = targetPath.equals(sourcePath) || sourcePath.equals("/")
        || targetPath.startsWith(sourcePath.endsWith("/") ? sourcePath : sourcePath + "/");
    if (inside) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "DST " + destination
          + (targetPath.equals(sourcePath) ? " is SRC itself" : " lies inside SRC " + sourceRoot)
          + ": the copy would copy the tree into itself; pick a destination outside SRC");
    }
  }

  /** Wall seconds of each phase of one copy, in the order they ended. */
  private static final class PhaseClock {
    private final Map<String, Double> seconds = new LinkedHashMap<>();
    private long last;

    PhaseClock(long startedNanos) {
      this.last = startedNanos;
    }

    void end(String phase) {
      long now = System.nanoTime();
      seconds.put(phase, Math.round((now - last) / 1e6) / 1e3);
      last = now;
    }

    Map<String, Double> seconds() {
      return seconds;
    }
  }

  /** Route workers end by themselves once the queue is empty; wait for them to close. */
  private static void awaitWorkers(List<Future<?>> workers) throws InterruptedException {
    for (Future<?> worker : workers) {
      try {
        worker.get(10, TimeUnit.SECONDS);
      } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
        LOG.debug("A route worker did not end cleanly", e);
      }
    }
  }

  /** A single-file source copied onto an existing directory lands inside it. */
  private static Path destinationRoot(
      FileSystem destination, URI uri, SourceTree tree, Path sourceRoot) {
    Path root = destination.makeQualified(new Path(uri));
    FileStatus status;
    try {
      status = destination.getFileStatus(root);
    } catch (FileNotFoundException e) {
      return root;
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading the destination " + root);
    }
    if (tree.singleFile() && status.isDirectory()) {
      return new Path(root, sourceRoot.getName());
    }
    if (!tree.singleFile() && status.isFile()) {
      throw new RelayCpException(ErrorCode.TARGET_EXISTS, "destination " + root
          + " is a file but the source is a directory; give a directory path as DST");
    }
    return root;
  }

  /** The state of one copy while its chunks are on the wire. */
  private static final class Run implements RouteWorker.Driver {
    private final CopySettings settings;
    private final SourceTree tree;
    private final List<Chunk> chunks;
    private final StagingArea staging;
    private final FileSystem destination;
    private final TransferProgress.Listener progress;
    /** The chunks still to send; made by {@link #prepare}, before any route starts. */
    private volatile ChunkQueue queue;
    private final CopyJournal journal;
    private final AtomicIntegerArray sends;
    /** Files of several chunks an earlier run completed, by file index. */
    private final Map<Integer, URI> completedFiles = new HashMap<>();
    private int chunksReused;
    private long bytesReused;
    private final Object stagingEnd = new Object();
    private boolean stagingEnded;
    /** Every route's worker, for the stall watch and the progress line. */
    private final List<RouteWorker> routeWorkers = new CopyOnWriteArrayList<>();
    private final Map<Integer, byte[]> uploads = new HashMap<>();
    private final Map<Integer, Map<Integer, byte[]>> parts = new ConcurrentHashMap<>();
    private final Map<Integer, URI> wholeFiles = new ConcurrentHashMap<>();
    private final SourceCrcs sourceCrcs = new SourceCrcs();
    private final AtomicLong bytesDone = new AtomicLong();
    private final AtomicInteger chunksDone = new AtomicInteger();
    private final AtomicInteger chunksResent = new AtomicInteger();
    private final AtomicInteger routesDropped = new AtomicInteger();
    /** Why the last route to drop dropped, for the message of a copy left with none. */
    private volatile String lastDropReason;
    /**
     * Whether every route that dropped did so because a relay refused its peer's secret: a
     * copy left with no route then fails as the user's to fix (the relays' --secret-file), not
     * as one a retry may mend.
     */
    private volatile boolean everyDropRefused = true;
    private final RouteSource routeSource;
    /** Whether this copy asks writer relays of this build to give files their times. */
    private final boolean timesToWriters;
    /**
     * The routes whose writers give the files they write whole their times, decided as each
     * joins: asking the route source on every order would take its lock, which a YARN source
     * holds while it reads its relays' announcements.
     */
    private final Set<Route> writersGivingTimes = ConcurrentHashMap.newKeySet();
    /** Per route, in the order routes joined (guarded by itself); each chunk out, its route's. */
    private final Map<Route, RouteCounters> routeCounters = new LinkedHashMap<>();
    private final Map<Integer, RouteCounters> chunkRoutes = new ConcurrentHashMap<>();
    /** Each route's reader host, as block locations name hosts. */
    private final Map<Route, String> readerHosts = new ConcurrentHashMap<>();
    private final AtomicLong bytesReadLocally = new AtomicLong();
    /** Spreads the write pipelines; null where the destination's datanodes are not known. */
    private volatile FavoredDatanodes favored;
    private boolean joining = true;
    private MultipartUploader uploader;
    /** Whether parts are files concatenated at completion (see {@link #startUploads}). */
    private boolean concatParts;
    /** When the copy started (System.nanoTime), for the time each route joined. */
    private final long started;
    private final Transfer transfer;
    /** The tree's bytes, summed once: the progress line asks for them at every chunk. */
    private final long totalBytes;
    private final ChecksumVerifier verifier;
    /** Checks each file staged whole as its chunk lands, while the copy goes on. */
    private final EarlyVerification early;

    Run(CopySettings settings, SourceTree tree, List<Chunk> chunks, StagingArea staging,
        FileSystem destination, TransferProgress.Listener progress, RouteSource routeSource,
        long started, CopyJournal journal, Transfer transfer, ChecksumVerifier verifier,
        boolean writerTimes) {
      this.settings = settings;
      this.timesToWriters = writerTimes && settings.sync().keeps(PreservedAttribute.TIMES);
      this.transfer = transfer;
      this.started = started;
      this.tree = tree;
      this.chunks = chunks;
      this.staging = staging;
      this.destination = destination;
      this.progress = progress;
      this.routeSource = routeSource;
      this.journal = journal;
      this.sends = new AtomicIntegerArray(chunks.size());
      this.totalBytes = tree.totalBytes();
      this.verifier = verifier;
      this.early = EarlyVerification.start(verifier, settings.verificationThreads(),
          mismatch -> queue.fail(mismatchFailure(mismatch)));
    }

    /**
     * Starts the uploads and queues every chunk that {@code recovered} does not already hold:
     * a whole file staged by an earlier run, a file it completed from its chunks, or (where
     * parts are concatenated) a part it wrote into this file's part directory.
     */
    void prepare(CopyJournal.Recovered recovered) {
      startUploads();
      favorDatanodes();
      List<Chunk> toSend = new ArrayList<>();
      for (Chunk chunk : chunks) {
        SourceFile file = tree.files().get(chunk.fileIndex());
        Optional<URI> reused;
        if (chunk.wholeFile()) {
          reused = recovered.find(CopyJournal.Key.of(file, chunk));
          reused.ifPresent(uri -> wholeFiles.put(chunk.fileIndex(), uri));
        } else if (concatParts) {
          Optional<URI> completed = recovered.find(
              CopyJournal.Key.completed(file, chunk.chunksInFile()));
          completed.ifPresent(uri -> completedFiles.put(chunk.fileIndex(), uri));
          reused = completed.isPresent() ? completed : recovered.find(
                  CopyJournal.Key.of(file, chunk))
              .filter(uri -> staging.partDirectory(chunk.fileIndex()).toUri().getPath()
                  .equals(new Path(uri).getParent().toUri().getPath()));
          if (completed.isEmpty()) {
            reused.ifPresent(uri -> parts.get(chunk.fileIndex())
                .put(chunk.indexInFile(), uri.toString().getBytes(UTF_8)));
          }
        } else {
          reused = Optional.empty();
        }
        if (reused.isPresent()) {
          chunksReused++;
          bytesReused += chunk.length();
        } else {
          toSend.add(chunk);
        }
      }
      if (chunksReused > 0) {
        LOG.info("Taking over {} of {} chunks ({} bytes) from earlier runs; sending {}",
            chunksReused, chunks.size(), bytesReused, toSend.size());
      }
      bytesDone.addAndGet(bytesReused);
      chunksDone.addAndGet(chunksReused);
      queue = new ChunkQueue(toSend);
    }

    /**
     * Learns the destination's datanodes, to spread the chunks' write pipelines over them
     * ({@link FavoredDatanodes}); without the NameNode's report (HDFS gives it to its superuser
     * only), HDFS places the replicas itself.
     */
    private void favorDatanodes() {
      Optional<List<DatanodeAddress>> datanodes = Datanodes.transferAddresses(destination);
      if (datanodes.isPresent() && !datanodes.get().isEmpty()) {
        favored = FavoredDatanodes.over(datanodes.get(), ThreadLocalRandom.current().nextLong());
        LOG.info("Spreading the write pipelines over the destination's {} datanodes",
            datanodes.get().size());
      } else if (destination instanceof DistributedFileSystem) {
        LOG.info("The destination's NameNode did not list its datanodes (it lists them for the"
            + " HDFS superuser only): HDFS places each chunk's replicas itself");
      }
    }

    ResumeOutcome resumeOutcome() {
      return new ResumeOutcome(staging.run(), chunksReused, 0, bytesReused);
    }

    /**
     * Ends a copy that did not commit: keeps its staging for the next run of the same command
     * when it holds staged chunks and the copy stopped for a reason a retry may mend (Ctrl-C
     * and SIGTERM, with {@code failure} null, included); removes it otherwise. Says which.
     * Runs once, whichever of the driver and its shutdown hook comes first; a call made while
     * the other ends it returns once that has ended, so the signal hook does not return (and
     * let Hadoop close the file systems) while the copy's own thread still writes the staging's
     * marker.
     */
    void endStaging(URI destinationUri, RelayCpException failure) {
      synchronized (stagingEnd) {
        if (stagingEnded) {
          return;
        }
        stagingEnded = true;
        keepOrRemoveStaging(destinationUri, failure);
      }
    }

    private void keepOrRemoveStaging(URI destinationUri, RelayCpException failure) {
      // On a signal the staging is kept even if no chunk is recorded yet, once a route has
      // joined: its relays may still be writing into it, and a removed directory would come
      // back unmarked. Before that (the relays still starting) nothing can be in it.
      boolean holdsChunks = journal.entries() > 0 || chunksReused > 0
          || (failure == null && routesTotal() > 0);
      boolean mayMend = failure == null || (failure.code().retryable()
          && failure.code() != ErrorCode.VERIFICATION_FAILED);
      if (holdsChunks && mayMend) {
        staging.keepForResume();
        LOG.warn("Stopped before the copy ended: {} of {} bytes are staged in {}; run the same"
                + " command again to resume, or `relaycp clean {}` to remove them",
            bytesDone.get(), totalBytes, staging.root(), destinationUri);
      } else {
        if (failure == null) {
          LOG.warn("Stopped before the copy ended: removing the staging directory {}",
              staging.root());
        }
        staging.remove();
      }
    }

    /** Counts a route in; false if the copy no longer takes routes or has it already. */
    boolean join(Route route) {
      synchronized (routeCounters) {
        if (!joining || routeCounters.containsKey(route)) {
          return false;
        }
        routeCounters.put(route, new RouteCounters(route, System::nanoTime, started));
      }
      readerHosts.put(route, HostAddresses.normalize(route.reader().host()));
      if (timesToWriters && routeSource.runsThisBuild(route)) {
        writersGivingTimes.add(route);
      }
      LOG.info("{} joined the copy", route);
      report("copying");
      return true;
    }

    /** Routes that join from now on are not used: the chunks are all sent, or the copy failed. */
    void stopJoining() {
      synchronized (routeCounters) {
        joining = false;
      }
    }

    int routesTotal() {
      synchronized (routeCounters) {
        return routeCounters.size();
      }
    }

    int liveRoutes() {
      return Math.max(0, routesTotal() - routesDropped.get());
    }

    /**
     * What a copy left with no route fails with: RELAY_AUTHENTICATION_FAILED where every route
     * dropped for a refused secret, else NO_ROUTES_LEFT.
     */
    private ErrorCode noRoutesLeft() {
      return everyDropRefused && routesDropped.get() > 0
          ? ErrorCode.RELAY_AUTHENTICATION_FAILED : ErrorCode.NO_ROUTES_LEFT;
    }

    /** Fails the copy when no route is left and none may join. */
    void checkRoutesLeft() {
      if (liveRoutes() == 0 && !routeSource.mayJoin()) {
        String why = lastDropReason;
        queue.fail(new RelayCpException(noRoutesLeft(),
            "every route failed and no relay can replace them"
                + (why == null ? "" : ", the last because " + why)
                + "; check that the relays run and can reach both clusters"));
      }
    }

    /** The reader host of a route, as block locations name hosts. */
    String readerHost(Route route) {
      return readerHosts.get(route);
    }

    /** Bytes read by a relay on a datanode holding them, as a fraction of all bytes. */
    double localReadFraction() {
      return totalBytes == 0 ? 1.0 : (double) bytesReadLocally.get() / totalBytes;
    }

    /**
     * Starts a multipart upload for every file of several chunks. On a file system with
     * {@code concat} (HDFS) there is none to start: each part is written as a file of its own
     * with the file's replication and block size, and the parts are concatenated into the
     * first, as DistCp's {@code -blocksperchunk} does. (Hadoop's multipart uploader on HDFS
     * completes into a file created with the destination's default block size, which the
     * concatenated file would then report.)
     */
    void startUploads() {
      try {
        concatParts = destination.hasPathCapability(staging.root(),
            CommonPathCapabilities.FS_CONCAT);
      } catch (IOException e) {
        throw HadoopFailures.translate(e, "asking " + staging.root() + " about concat");
      }
      for (Chunk chunk : chunks) {
        if (chunk.indexInFile() == 0 && !chunk.wholeFile() && concatParts) {
          parts.put(chunk.fileIndex(), new ConcurrentHashMap<>());
        } else if (chunk.indexInFile() == 0 && !chunk.wholeFile()) {
          URI target = staging.multipartFile(chunk.fileIndex());
          try {
            destination.mkdirs(new Path(target).getParent());
            uploads.put(chunk.fileIndex(),
                uploader().startUpload(new Path(target)).get().toByteArray());
          } catch (IOException e) {
            throw HadoopFailures.translate(e, "starting a multipart upload to " + target);
          } catch (InterruptedException | ExecutionException e) {
            throw new RelayCpException(ErrorCode.IO_ERROR,
                "starting a multipart upload to " + target + " failed: " + e.getMessage(), e);
          }
          parts.put(chunk.fileIndex(), new ConcurrentHashMap<>());
        }
      }
    }

    private MultipartUploader uploader() throws IOException {
      if (uploader == null) {
        uploader = destination.createMultipartUploader(staging.root()).build();
      }
      return uploader;
    }

    @Override
    public Transfer transfer() {
      return transfer;
    }

    @Override
    public ChunkOrder order(Chunk chunk, Route route) {
      SourceFile file = tree.files().get(chunk.fileIndex());
      int send = sends.getAndIncrement(chunk.id());
      if (send > 0) {
        chunksResent.incrementAndGet();
      }
      if (send >= settings.maxSendsPerChunk()) {
        RelayCpException failure = new RelayCpException(ErrorCode.CHUNK_FAILED,
            "chunk " + chunk.indexInFile() + " of " + file.uri() + " failed "
                + send + " times; see the log for each reason");
        queue.fail(failure);
        throw failure;
      }
      short replication = replication(file);
      long blockSize = blockSize(file);
      ChunkTarget target;
      if (chunk.wholeFile()) {
        target = ChunkTarget.file(staging.wholeFile(chunk.fileIndex(), send), replication,
            blockSize);
        // The writer gives the file its times inside the destination's site, sparing the
        // commit a call across the WAN for it; only relays of this build read them.
        if (writersGivingTimes.contains(route)) {
          target = target.withTimes(new ChunkTarget.Times(file.attributes().modificationTime(),
              file.attributes().accessTime()));
        }
      } else if (concatParts) {
        target = ChunkTarget.file(staging.partFile(chunk.fileIndex(), partNumber(chunk, send)),
            replication, blockSize);
      } else {
        target = ChunkTarget.part(staging.multipartFile(chunk.fileIndex()),
            uploads.get(chunk.fileIndex()), partNumber(chunk, send), replication, blockSize);
      }
      RouteCounters counters;
      synchronized (routeCounters) {
        counters = routeCounters.get(route);
      }
      FavoredDatanodes spread = favored;
      if (spread != null && target.kind() == ChunkTarget.Kind.FILE) {
        target = target.favoring(spread.open(chunk.id(),
            HostAddresses.normalize(route.writer().host()), replication));
      }
      counters.sent();
      chunkRoutes.put(chunk.id(), counters);
      return new ChunkOrder(chunk.id(), file.uri(), chunk.offset(), chunk.length(),
          route.writer().toString(), target);
    }

    /** The source's replication, or the destination's default where it is not kept. */
    private short replication(SourceFile file) {
      return settings.sync().keeps(PreservedAttribute.REPLICATION) ? file.replication()
          : (short) Math.max(1, destination.getDefaultReplication(staging.root()));
    }

    /** The source's block size, or the destination's default where it is not kept. */
    private long blockSize(SourceFile file) {
      return settings.sync().keeps(PreservedAttribute.BLOCK_SIZE) ? file.blockSize()
          : Math.max(1, destination.getDefaultBlockSize(staging.root()));
    }

    /** What each route carried, in route order. */
    List<RouteResult> routeResults() {
      synchronized (routeCounters) {
        return routeCounters.values().stream().map(RouteCounters::result).toList();
      }
    }

    /** The chunk is back from its route; {@code bytes} delivered, or -1 if it was not. */
    private void backFromRoute(Chunk chunk, long bytes, long wireBytes) {
      FavoredDatanodes spread = favored;
      if (spread != null) {
        spread.close(chunk.id());
      }
      RouteCounters counters = chunkRoutes.remove(chunk.id());
      if (counters == null) {
        return;
      }
      if (bytes >= 0) {
        counters.delivered(bytes, wireBytes);
        String reader = readerHosts.get(counters.route());
        if (reader != null && chunk.localHosts().contains(reader)) {
          bytesReadLocally.addAndGet(bytes);
        }
      } else {
        counters.returned();
      }
    }

    /** Parts sort by chunk, and every send of a chunk has a number of its own. */
    private static int partNumber(Chunk chunk, int send) {
      return chunk.indexInFile() * CopySettings.SEND_LIMIT + send + 1;
    }

    @Override
    public void chunkDone(Chunk chunk, ChunkDone done) {
      backFromRoute(chunk, chunk.length(), done.wireBytes());
      sourceCrcs.record(chunk, done.sourceCrc32c());
      int send = sends.get(chunk.id()) - 1;
      SourceFile file = tree.files().get(chunk.fileIndex());
      if (chunk.wholeFile()) {
        URI staged = staging.wholeFile(chunk.fileIndex(), send);
        wholeFiles.put(chunk.fileIndex(), staged);
        journal.chunkStaged(file, chunk, staged);
        early.submit(chunk.fileIndex(), shownPath(file), file.uri(), staged, file.length(),
            sourceCrcs.ofFile(List.of(chunk)), done.storedChecksum());
      } else if (concatParts) {
        URI staged = staging.partFile(chunk.fileIndex(), partNumber(chunk, send));
        parts.get(chunk.fileIndex()).put(chunk.indexInFile(), staged.toString().getBytes(UTF_8));
        journal.chunkStaged(file, chunk, staged);
      } else {
        parts.get(chunk.fileIndex()).put(chunk.indexInFile(), done.partHandle());
      }
      bytesDone.addAndGet(chunk.length());
      chunksDone.incrementAndGet();
      queue.done(chunk);
      report("copying");
    }

    @Override
    public void chunkFailed(Chunk chunk, ErrorCode code, String message) {
      backFromRoute(chunk, -1, -1);
      if (code.retryable()) {
        LOG.warn("Chunk {} of file {} failed ({}), sending it again: {}", chunk.indexInFile(),
            tree.files().get(chunk.fileIndex()).uri(), code, message);
        queue.requeue(chunk);
      } else {
        queue.fail(new RelayCpException(code, message));
      }
    }

    @Override
    public void routeDropped(Route route, ErrorCode cause, String why, List<Chunk> inFlight) {
      lastDropReason = why;
      if (cause != ErrorCode.RELAY_AUTHENTICATION_FAILED) {
        everyDropRefused = false;
      }
      routesDropped.incrementAndGet();
      synchronized (routeCounters) {
        routeCounters.get(route).dropped();
      }
      inFlight.forEach(chunk -> backFromRoute(chunk, -1, -1));
      inFlight.forEach(queue::requeue);
      routeSource.routeDropped(route);
      if (liveRoutes() == 0 && !routeSource.mayJoin()) {
        queue.fail(new RelayCpException(noRoutesLeft(),
            "every route failed, the last because " + why
                + "; check that the relays run and can reach both clusters"));
      }
      report("copying");
    }

    void report(String phase) {
      int stalled = (int) routeWorkers.stream().filter(RouteWorker::stalled).count();
      progress.update(new TransferProgress(bytesDone.get(), totalBytes, chunksDone.get(),
          chunks.size(), liveRoutes(), stalled, chunksResent.get(), phase));
    }

    /** Completes the multipart uploads and creates empty files; returns each file's staged URI. */
    List<URI> completeFiles(ExecutorService pool) throws InterruptedException {
      return eachFile(pool, this::stageFile);
    }

    /**
     * Runs {@code step} for every file, on at most {@code verificationThreads} of the pool's
     * threads at once (a pool thread for each file would start thousands of threads for a tree
     * of small files); the results are in file order. The first failure ends the step.
     */
    private <T> List<T> eachFile(ExecutorService pool, ParallelSteps.Step<T> step)
        throws InterruptedException {
      try {
        return ParallelSteps.forEachIndex(pool, tree.files().size(),
            settings.verificationThreads(), step);
      } catch (ExecutionException e) {
        throw translateFinishing(e.getCause());
      }
    }

    private URI stageFile(int fileIndex) throws IOException, ExecutionException,
        InterruptedException {
      SourceFile file = tree.files().get(fileIndex);
      if (file.length() == 0) {
        URI empty = staging.emptyFile(fileIndex);
        destination.createFile(new Path(empty)).replication(replication(file))
            .blockSize(blockSize(file)).build().close();
        return empty;
      }
      if (completedFiles.containsKey(fileIndex)) {
        return completedFiles.get(fileIndex);
      }
      if (concatParts && parts.containsKey(fileIndex)) {
        Map<Integer, byte[]> written = parts.get(fileIndex);
        List<Path> inOrder = new ArrayList<>();
        for (int index = 0; index < written.size(); index++) {
          inOrder.add(new Path(URI.create(new String(written.get(index), UTF_8))));
        }
        Path first = inOrder.get(0);
        if (inOrder.size() > 1) {
          destination.concat(first, inOrder.subList(1, inOrder.size()).toArray(new Path[0]));
        }
        journal.fileCompleted(file, inOrder.size(), first.toUri());
        return first.toUri();
      }
      byte[] upload = uploads.get(fileIndex);
      if (upload == null) {
        return wholeFiles.get(fileIndex);
      }
      Map<Integer, PartHandle> handles = new HashMap<>();
      parts.get(fileIndex).forEach((indexInFile, handle) -> handles.put(
          indexInFile + 1, BBPartHandle.from(ByteBuffer.wrap(handle))));
      URI target = staging.multipartFile(fileIndex);
      uploader().complete(BBUploadHandle.from(ByteBuffer.wrap(upload)), new Path(target),
          handles).get();
      return target;
    }

    /**
     * Every file's verification, in file order: what {@link #early} found for a file it
     * checked as staged, else a check made now.
     */
    List<FileVerification> verify(ExecutorService pool, List<URI> staged)
        throws InterruptedException {
      Map<Integer, List<Chunk>> chunksByFile = chunks.stream()
          .collect(Collectors.groupingBy(Chunk::fileIndex));
      List<FileVerification> verification = eachFile(pool, index -> {
        Optional<FileVerification> checked = early.resultFor(index, staged.get(index));
        if (checked.isPresent()) {
          return checked.get();
        }
        SourceFile file = tree.files().get(index);
        return verifier.verify(shownPath(file), file.uri(), staged.get(index), file.length(),
            sourceCrcs.ofFile(chunksByFile.getOrDefault(index, List.of())));
      });
      for (FileVerification file : verification) {
        if (!file.verified()) {
          throw mismatchFailure(file);
        }
      }
      return verification;
    }

    /** Ends the checks of {@link #early}; called once the copy has ended, either way. */
    void stopVerifying() {
      early.close();
    }

    /** How a file appears in the report: its path under SRC, or its name when SRC is it. */
    private static String shownPath(SourceFile file) {
      return file.relativePath().isEmpty() ? new Path(file.uri()).getName() : file.relativePath();
    }

    private static RelayCpException mismatchFailure(FileVerification file) {
      return new RelayCpException(ErrorCode.VERIFICATION_FAILED, "the copy of " + file.path()
          + " does not match its source's checksum; nothing was committed, run the copy again");
    }

    private static RelayCpException translateFinishing(Throwable cause) {
      if (cause instanceof RelayCpException relay) {
        return relay;
      }
      if (cause instanceof IOException io) {
        return HadoopFailures.translate(io, "finishing the copy");
      }
      if (cause instanceof ExecutionException nested && nested.getCause() instanceof IOException io) {
        return HadoopFailures.translate(io, "completing a multipart upload");
      }
      return new RelayCpException(ErrorCode.INTERNAL_ERROR,
          "finishing the copy failed: " + cause, cause);
    }
  }
}
