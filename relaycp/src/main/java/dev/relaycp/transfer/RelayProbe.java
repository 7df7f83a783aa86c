package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.BestEffortDelete;
import dev.relaycp.fs.CallerCredentials;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.relay.RelayConnection;
import dev.relaycp.relay.RelayConnector;
import dev.relaycp.relay.RelayMessage;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkFailed;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.Transfer;
import dev.relaycp.relay.TransferSecret;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures relay pairs with one short send each, as the thesis's pre-test does, over the path a
 * copy takes: a scratch file of {@code bytes} synthetic bytes is written once in a probe
 * directory below the source directory, then sent as one chunk through each pair in turn (the
 * reader relay reads it from the source, the writer relay writes it into a probe directory
 * below the destination directory), and timed from the order to the reader's CHUNK_DONE. Each
 * pair is probed alone, after an untimed warm-up send that opens its connections. Both probe
 * directories are removed afterwards, whatever happened. Uses the ordinary protocol: relays
 * need nothing new to be probed.
 */
public final class RelayProbe {
  private static final Logger LOG = LoggerFactory.getLogger(RelayProbe.class);
  /** Name prefix of the scratch directories, below SRC and DST. */
  public static final String DIRECTORY_PREFIX = ".relaycp-probe-";
  private static final long WARM_UP_BYTES = 64 * 1024;
  private static final int WRITE_BUFFER_BYTES = 1 << 20;

  /**
   * One pair's measurement, or why it failed.
   *
   * @param route the pair
   * @param bytes bytes sent in the timed send
   * @param seconds seconds from the order to CHUNK_DONE; 0 when it failed
   * @param failure why the pair could not be measured
   */
  public record PairResult(Route route, long bytes, double seconds, Optional<String> failure) {
    public PairResult {
      requireNonNull(route, "route is null");
      requireNonNull(failure, "failure is null");
    }

    public boolean measured() {
      return failure.isEmpty() && seconds > 0;
    }

    /** Bytes per second of the timed send; 0 when the pair was not measured. */
    public double bytesPerSecond() {
      return measured() ? bytes / seconds : 0;
    }
  }

  /**
   * What to probe.
   *
   * @param sourceDirectory a directory on the source where a scratch directory may be made
   * @param destinationDirectory likewise on the destination
   * @param bytes size of the timed send, 1 or more
   * @param waitSeconds how long to wait for a relay to accept a connection, and for each send
   */
  public record Settings(URI sourceDirectory, URI destinationDirectory, long bytes,
      long waitSeconds) {
    public Settings {
      requireNonNull(sourceDirectory, "sourceDirectory is null");
      requireNonNull(destinationDirectory, "destinationDirectory is null");
      if (bytes < 1) {
        throw new IllegalArgumentException("bytes must be 1 or more, got " + bytes);
      }
      if (waitSeconds < 1) {
        throw new IllegalArgumentException("waitSeconds must be 1 or more, got " + waitSeconds);
      }
    }
  }

  private final FileSystemOpener opener;

  public RelayProbe(FileSystemOpener opener) {
    this.opener = requireNonNull(opener, "opener is null");
  }

  /** Probes each route in turn; a pair that fails is reported as such, not thrown. */
  public List<PairResult> probe(Settings settings, List<Route> routes, TransferSecret secret) {
    return probe(settings, routes, secret, false);
  }

  /**
   * Probes every route at once, each on a connection of its own: for pairs that share no
   * host (spawned candidates, each behind its own WAN link), whose sends do not meet, so
   * that measuring 2p candidates costs one send's time, not 2p.
   */
  public List<PairResult> probeTogether(Settings settings, List<Route> routes,
      TransferSecret secret) {
    return probe(settings, routes, secret, true);
  }

  private List<PairResult> probe(Settings settings, List<Route> routes, TransferSecret secret,
      boolean together) {
    requireNonNull(settings, "settings is null");
    requireNonNull(routes, "routes is null");
    requireNonNull(secret, "secret is null");
    FileSystem source = opener.open(settings.sourceDirectory());
    FileSystem destination = opener.open(settings.destinationDirectory());
    String id = UUID.randomUUID().toString();
    Path sourceScratch = source.makeQualified(
        new Path(new Path(settings.sourceDirectory()), DIRECTORY_PREFIX + id));
    Path destinationScratch = destination.makeQualified(
        new Path(new Path(settings.destinationDirectory()), DIRECTORY_PREFIX + id));
    // Before the event loop: tokens that cannot be had leave nothing running.
    CallerCredentials caller =
        CallerCredentials.obtain(List.of(source, destination));
    Transfer transfer = new Transfer(caller.user(), sourceScratch.toUri(),
        destinationScratch.toUri(), caller.tokenBytes());
    NioEventLoopGroup eventLoops =
        new NioEventLoopGroup(1, new DefaultThreadFactory("probe-io", true));
    try {
      Path file = new Path(sourceScratch, "probe.bin");
      writeScratch(source, file, settings.bytes());
      short replication = destination.getDefaultReplication(destinationScratch);
      long blockSize = destination.getDefaultBlockSize(destinationScratch);
      RelayConnector connector = RelayConnector.of(eventLoops, secret)
          .configuredBy(opener.configuration());
      List<PairResult> results = new ArrayList<>();
      if (!together) {
        for (Route route : routes) {
          results.add(probeOne(connector, transfer, route, file.toUri(), destinationScratch,
              replication, blockSize, settings));
        }
        return results;
      }
      ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, routes.size()),
          new DefaultThreadFactory("probe", true));
      try {
        List<Future<PairResult>> probes = new ArrayList<>();
        for (Route route : routes) {
          probes.add(threads.submit(() -> probeOne(connector, transfer, route, file.toUri(),
              destinationScratch, replication, blockSize, settings)));
        }
        for (int index = 0; index < probes.size(); index++) {
          try {
            results.add(probes.get(index).get());
          } catch (ExecutionException e) {
            results.add(failed(routes.get(index), settings, e.getCause().toString()));
          }
        }
        return results;
      } finally {
        threads.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "the probe was interrupted", e);
    } finally {
      caller.close();
      remove(source, sourceScratch);
      remove(destination, destinationScratch);
      eventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  private PairResult probeOne(RelayConnector connector, Transfer transfer, Route route, URI file,
      Path destinationScratch, short replication, long blockSize, Settings settings)
      throws InterruptedException {
    Answers answers = new Answers();
    RelayConnection connection;
    try {
      connection = connector.connectWaiting(route.reader(), answers, settings.waitSeconds(), 500);
    } catch (RelayCpException e) {
      return failed(route, settings, e.getMessage());
    }
    try {
      connection.send(transfer);
      long warmUp = Math.min(WARM_UP_BYTES, settings.bytes());
      Optional<String> warmUpFailure = send(connection, answers, route, file, warmUp,
          target(destinationScratch, route, "warm-up", replication, blockSize), settings);
      if (warmUpFailure.isPresent()) {
        return failed(route, settings, warmUpFailure.get());
      }
      long started = System.nanoTime();
      Optional<String> failure = send(connection, answers, route, file, settings.bytes(),
          target(destinationScratch, route, "timed", replication, blockSize), settings);
      double seconds = (System.nanoTime() - started) / 1e9;
      if (failure.isPresent()) {
        return failed(route, settings, failure.get());
      }
      LOG.info("Probed {}: {} bytes in {} s", route, settings.bytes(), seconds);
      return new PairResult(route, settings.bytes(), seconds, Optional.empty());
    } finally {
      connection.close();
    }
  }

  private static ChunkTarget target(Path scratch, Route route, String what, short replication,
      long blockSize) {
    return ChunkTarget.file(new Path(scratch, "route-" + route.id() + "-" + what + ".bin").toUri(),
        replication, blockSize);
  }

  /** Sends one order and waits for its answer; the failure's message if it did not arrive. */
  private static Optional<String> send(RelayConnection connection, Answers answers, Route route,
      URI file, long length, ChunkTarget target, Settings settings) throws InterruptedException {
    long chunkId = answers.next();
    CompletableFuture<RelayMessage> answer = answers.expect(chunkId);
    connection.send(new ChunkOrder(chunkId, file, 0, length, route.writer().toString(), target));
    try {
      RelayMessage message = answer.get(settings.waitSeconds(), TimeUnit.SECONDS);
      if (message instanceof ChunkDone) {
        return Optional.empty();
      }
      if (message instanceof ChunkFailed failed) {
        return Optional.of(failed.message());
      }
      return Optional.of("the reader relay answered " + message);
    } catch (ExecutionException e) {
      return Optional.of(e.getCause().getMessage());
    } catch (TimeoutException e) {
      return Optional.of("no answer within " + settings.waitSeconds() + " s");
    }
  }

  private static PairResult failed(Route route, Settings settings, String why) {
    LOG.warn("Probing {} failed: {}", route, why);
    return new PairResult(route, settings.bytes(), 0, Optional.of(why));
  }

  /** Synthetic, incompressible bytes: a seeded random megabyte, repeated. */
  private static void writeScratch(FileSystem fileSystem, Path file, long bytes) {
    byte[] buffer = new byte[WRITE_BUFFER_BYTES];
    new Random(file.hashCode()).nextBytes(buffer);
    try (FSDataOutputStream out = fileSystem.createFile(file).recursive().overwrite(false)
        .build()) {
      for (long left = bytes; left > 0; left -= buffer.length) {
        out.write(buffer, 0, (int) Math.min(buffer.length, left));
      }
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "writing the probe's scratch file " + file);
    }
  }

  private static void remove(FileSystem fileSystem, Path directory) {
    BestEffortDelete.delete(fileSystem, directory, true, "the probe directory");
  }

  /** The answers on one connection to a reader relay, by chunk id. */
  private static final class Answers implements RelayConnection.Listener {
    private long lastId;
    private long expectedId = -1;
    private CompletableFuture<RelayMessage> expected = new CompletableFuture<>();

    synchronized long next() {
      return ++lastId;
    }

    synchronized CompletableFuture<RelayMessage> expect(long chunkId) {
      expectedId = chunkId;
      expected = new CompletableFuture<>();
      return expected;
    }

    @Override
    public synchronized void onMessage(RelayMessage message) {
      long chunkId = message instanceof ChunkDone done ? done.chunkId()
          : message instanceof ChunkFailed failed ? failed.chunkId() : -1;
      if (chunkId == expectedId) {
        expected.complete(message);
      }
    }

    @Override
    public synchronized void onClosed(Throwable cause) {
      expected.completeExceptionally(new IOException("the reader relay closed the connection"
          + (cause == null ? "" : ": " + cause.getMessage())));
    }
  }
}
