package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;

/** Opens authenticated connections to relays on a given event loop group. */
public final class RelayConnector {
  /** Channels stop taking writes past this many queued bytes, and resume below the low mark. */
  static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(512 * 1024, 2 << 20);
  private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
  /**
   * How long one attempt of {@link #connectWaiting} may wait for the relay's SYN-ACK. A relay
   * named before its machine is up (a spawned VM still booting) loses the first SYN, and TCP
   * sends it again only after 1, 3 and 7 seconds: an attempt that waited the full connect
   * timeout would reach a relay up to 7 s after it listens. Short attempts, each with a fresh
   * SYN, reach it within about one retry interval.
   */
  private static final int WAITING_CONNECT_TIMEOUT_MILLIS = 2_000;
  /**
   * How long one attempt may take to connect and finish the handshake: a little less than a
   * relay's own deadline ({@code relaycp.relay.handshake-timeout-seconds}), so that a busy
   * relay's slow handshake runs out here first, where {@link #connectWaiting} tries again as
   * for a relay that does not answer yet, and is not closed by the relay, which reads as a
   * refusal. Not less: a fresh relay JVM among many on busy cores (the first handshake loads
   * and compiles the TLS code) can take tens of seconds, and an attempt given up half-way
   * throws that work away and starts it again, on both ends.
   */
  private static final long HANDSHAKE_TIMEOUT_MILLIS =
      TimeUnit.SECONDS.toMillis(RelayKeys.HANDSHAKE_TIMEOUT_SECONDS.defaultValue() - 5);

  private final EventLoopGroup group;
  private final TransferSecret secret;
  private final long silenceTimeoutMillis;
  private final boolean tls;

  private RelayConnector(EventLoopGroup group, TransferSecret secret,
      long silenceTimeoutMillis, boolean tls) {
    this.group = requireNonNull(group, "group is null");
    this.secret = requireNonNull(secret, "secret is null");
    this.silenceTimeoutMillis = KeepAliveHandler.checkSilence(silenceTimeoutMillis);
    this.tls = tls;
  }

  /** A connector in TLS ({@link RelayTls}), the default; see {@link #withTls}. */
  public static RelayConnector of(EventLoopGroup group, TransferSecret secret) {
    return new RelayConnector(group, secret, RelaySettings.DEFAULT_SILENCE_TIMEOUT_MILLIS, true);
  }

  /**
   * This connector with another silence timeout: a relay that sends nothing (not even a
   * keep-alive) for this long is taken for dead and its connection fails RELAY_UNREACHABLE.
   */
  public RelayConnector withSilenceTimeout(long millis) {
    return new RelayConnector(group, secret, millis, tls);
  }

  /** This connector with TLS on or off, as the relays it reaches run. */
  public RelayConnector withTls(boolean on) {
    return new RelayConnector(group, secret, silenceTimeoutMillis, on);
  }

  /** This connector with TLS as {@code configuration}'s {@code relaycp.relay.tls} says. */
  public RelayConnector configuredBy(Configuration configuration) {
    return withTls(RelayKeys.RELAY_TLS.from(configuration));
  }

  /**
   * Connects and authenticates from a thread that may block, trying again every {@code
   * retryMillis} while nothing listens at {@code address} (a relay still starting) until
   * {@code waitSeconds} have passed. A relay that answers but refuses the proof is not tried
   * again.
   *
   * @throws RelayCpException RELAY_UNREACHABLE or RELAY_AUTHENTICATION_FAILED
   */
  public RelayConnection connectWaiting(RelayAddress address, RelayConnection.Listener listener,
      long waitSeconds, long retryMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
    while (true) {
      Attempt attempt = attempt(address, listener, WAITING_CONNECT_TIMEOUT_MILLIS);
      try {
        return attempt.await(deadline);
      } catch (ExecutionException e) {
        RelayCpException failure = e.getCause() instanceof RelayCpException relay
            ? relay
            : RelayConnection.unreachable(address, e.getCause());
        if (failure.code() != ErrorCode.RELAY_UNREACHABLE || System.nanoTime() > deadline) {
          throw failure;
        }
      } catch (TimeoutException e) {
        // Closes the attempt's connection, which never reaches the listener.
        attempt.result().cancel(false);
        if (System.nanoTime() > deadline) {
          throw RelayConnection.unreachable(address, new TimeoutException("no answer to the"
              + " handshake within the " + waitSeconds + " s wait"));
        }
      }
      Thread.sleep(retryMillis);
    }
  }

  /**
   * Connects and authenticates. The future fails with a {@link RelayCpException}:
   * RELAY_UNREACHABLE when nothing answers, RELAY_AUTHENTICATION_FAILED when the relay refuses
   * the proof.
   */
  public CompletableFuture<RelayConnection> connect(
      RelayAddress address, RelayConnection.Listener listener) {
    return attempt(address, listener, CONNECT_TIMEOUT_MILLIS).result();
  }

  /**
   * One attempt of {@link #connectWaiting}: its TCP connection and the connection handed out
   * once the relay has accepted the proof.
   */
  private record Attempt(ChannelFuture connecting, CompletableFuture<RelayConnection> result,
      long startedNanos) {
    /**
     * The relay's connection. Until TCP has connected it is awaited no later than the wait's
     * {@code deadline} (but for at least one connect timeout). Once the relay has taken the
     * connection it is up, only busy (a fresh JVM's first handshakes on busy cores take
     * seconds), so its handshake is awaited for the attempt's whole handshake timeout,
     * however little of the wait is left: a short wait (a reader's for a writer it reached
     * before) says how long to look for a relay that may be gone, not how long a relay that
     * answered may take. A relay that took the connection and then sends nothing is cut off
     * by the silence timeout, as on any connection.
     */
    RelayConnection await(long deadline)
        throws ExecutionException, TimeoutException, InterruptedException {
      long handshakeDeadline =
          startedNanos + TimeUnit.MILLISECONDS.toNanos(HANDSHAKE_TIMEOUT_MILLIS);
      long now = System.nanoTime();
      long untilWaitEnds = Math.max(deadline - now,
          TimeUnit.MILLISECONDS.toNanos(WAITING_CONNECT_TIMEOUT_MILLIS));
      try {
        return result.get(
            Math.min(untilWaitEnds, handshakeDeadline - now), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        long handshakeLeft = handshakeDeadline - System.nanoTime();
        if (!connecting.isSuccess() || handshakeLeft <= 0) {
          throw e;
        }
        return result.get(handshakeLeft, TimeUnit.NANOSECONDS);
      }
    }
  }

  private Attempt attempt(
      RelayAddress address, RelayConnection.Listener listener, int connectTimeoutMillis) {
    long started = System.nanoTime();
    requireNonNull(address, "address is null");
    CompletableFuture<Void> authenticated = new CompletableFuture<>();
    RelayConnection.DeliveryHandler delivery = new RelayConnection.DeliveryHandler(listener);
    Bootstrap bootstrap = new Bootstrap()
        .group(group)
        .channel(NioSocketChannel.class)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
        .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            ChannelPipeline pipeline = channel.pipeline();
            pipeline.addFirst(KeepAliveHandler.idleStateHandler(silenceTimeoutMillis));
            if (tls) {
              RelayTls.get().addClient(channel);
            }
            pipeline.addLast(FrameCodec.newFrameDecoder());
            pipeline.addLast(new FrameCodec());
            pipeline.addLast(new MessageCodec());
            pipeline.addLast(new KeepAliveHandler("relay " + address, silenceTimeoutMillis));
            pipeline.addLast(new ClientAuthenticationHandler(secret, address, authenticated));
            pipeline.addLast(delivery);
          }
        });
    CompletableFuture<RelayConnection> result = new CompletableFuture<>();
    ChannelFuture connecting = bootstrap.connect(address.toSocketAddress());
    Channel channel = connecting.channel();
    connecting.addListener(future -> {
      if (!future.isSuccess()) {
        result.completeExceptionally(RelayConnection.unreachable(address, future.cause()));
      }
    });
    result.whenComplete((connection, failure) -> {
      if (failure != null) {
        channel.close();
      }
    });
    // The connection is handed out only once the relay has accepted the proof.
    authenticated.whenComplete((ignored, failure) -> {
      if (failure != null) {
        result.completeExceptionally(failure);
      } else {
        RelayConnection connection = new RelayConnection(address, channel);
        delivery.attach(connection);
        result.complete(connection);
      }
    });
    return new Attempt(connecting, result, started);
  }
}
