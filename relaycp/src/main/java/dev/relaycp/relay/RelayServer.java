package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.fs.HadoopChunkWriter;
import dev.relaycp.fs.HadoopRangeReader;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running relay daemon: a Netty server that serves drivers (as a reader relay) and reader
 * relays (as a writer relay). Blocking FileSystem work runs on its own threads, never on the
 * event loops.
 */
public final class RelayServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelayServer.class);

  private final EventLoopGroup acceptors;
  private final EventLoopGroup eventLoops;
  private final ExecutorService workers;
  private final Channel listener;
  private final RelayCounters counters;
  private final TransferScopes scopes;
  private final boolean tls;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();

  private RelayServer(EventLoopGroup acceptors, EventLoopGroup eventLoops,
      ExecutorService workers, Channel listener, RelayCounters counters, boolean tls,
      TransferScopes scopes) {
    this.tls = tls;
    this.scopes = scopes;
    this.acceptors = acceptors;
    this.eventLoops = eventLoops;
    this.workers = workers;
    this.listener = listener;
    this.counters = counters;
  }

  /** Binds and starts serving; throws a RelayCpException when the port cannot be bound. */
  public static RelayServer start(RelaySettings settings) {
    requireNonNull(settings, "settings is null");
    Optional<PortRange> range =
        settings.port() == 0 ? settings.portRange() : Optional.empty();
    EventLoopGroup acceptors = new NioEventLoopGroup(1, new DefaultThreadFactory("relay-accept", true));
    EventLoopGroup eventLoops = new NioEventLoopGroup(0, new DefaultThreadFactory("relay-io", true));
    DefaultThreadFactory workerThreads = new DefaultThreadFactory("relay-worker", true);
    ExecutorService workers = Executors.newCachedThreadPool(workerThreads);
    RelayCounters counters = new RelayCounters();
    TransferScopes scopes = new TransferScopes();
    if (settings.tls()) {
      RelayTls.prepareInBackground();
    }
    FileSystemOpener opener = FileSystemOpener.of(settings.configuration());
    opener.prepare();
    RelayConnector connector = RelayConnector.of(eventLoops, settings.secret())
        .withSilenceTimeout(settings.silenceTimeoutMillis())
        .withTls(settings.tls());
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(acceptors, eventLoops)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 256)
        .childOption(ChannelOption.AUTO_READ, false)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, RelayConnector.WATER_MARK)
        .childHandler(new RelayServerInitializer(settings, connector,
            new HadoopRangeReader(opener), new HadoopChunkWriter(opener), workers,
            new DefaultThreadFactory("relay-reader", true), counters, scopes));
    Throwable failure = null;
    for (int port : candidatePorts(settings.port(), range)) {
      // A failed bind completes the future with a checked BindException, which sync() would
      // rethrow undeclared: read the outcome instead.
      try {
        ChannelFuture bound = bootstrap.bind(settings.bindHost(), port).awaitUninterruptibly();
        if (bound.isSuccess()) {
          Channel listener = bound.channel();
          LOG.info("Relay listening on {}", listener.localAddress());
          return new RelayServer(
              acceptors, eventLoops, workers, listener, counters, settings.tls(), scopes);
        }
        failure = bound.cause();
      } catch (RuntimeException e) {
        failure = e;
      }
      if (!(failure instanceof BindException)) {
        break;
      }
    }
    acceptors.shutdownGracefully(0, 0, TimeUnit.SECONDS);
    eventLoops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
    workers.shutdownNow();
    if (range.isPresent() && failure instanceof BindException) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "cannot listen on any port of "
          + RelayKeys.RELAY_PORT_RANGE.key() + " " + range.get() + " on " + settings.bindHost()
          + ": all " + range.get().size() + " are in use; widen the range", failure);
    }
    throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
        "cannot listen on " + settings.bindHost() + ":" + settings.port() + ": "
            + failure.getMessage() + "; choose a free --port (0 picks one)", failure);
  }

  /**
   * The ports to try, in order: {@code port} alone, or with a {@code range} each of its ports
   * once from a random one on, so that relays starting on one host at once seldom race for
   * the same port.
   */
  static List<Integer> candidatePorts(int port, Optional<PortRange> range) {
    if (range.isEmpty()) {
      return List.of(port);
    }
    PortRange ports = range.get();
    int start = ThreadLocalRandom.current().nextInt(ports.size());
    List<Integer> candidates = new ArrayList<>(ports.size());
    for (int index = 0; index < ports.size(); index++) {
      candidates.add(ports.first() + (start + index) % ports.size());
    }
    return candidates;
  }

  public InetSocketAddress localAddress() {
    return (InetSocketAddress) listener.localAddress();
  }

  /** Whether its connections run in TLS. */
  public boolean tls() {
    return tls;
  }

  public RelayCounters counters() {
    return counters;
  }

  /**
   * Lets transfers read and write the local file system under {@code root} until {@link
   * #disallowLocalRoot}: otherwise a relay serves no {@code file:} URI (see {@link
   * TransferScope}). For the relay's own warm-up, which copies scratch files through itself.
   */
  public void allowLocalRoot(java.net.URI root) {
    scopes.allowLocalRoot(root);
  }

  public void disallowLocalRoot(java.net.URI root) {
    scopes.disallowLocalRoot(root);
  }

  /** Completes when the listening socket closes. */
  public void awaitClose() throws InterruptedException {
    listener.closeFuture().await();
  }

  /** Stops listening and ends every connection; later calls do nothing. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    listener.close().syncUninterruptibly();
    acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    eventLoops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownNow();
  }
}
