package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkFailed;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.Transfer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Warms a relay's JVM before it serves a copy. A spawned relay's first chunks otherwise run
 * while the JIT compiles the framing, checksum and FileSystem paths; on a small machine that
 * halves the relay's first seconds of WAN rate.
 *
 * <p>{@link #run} sends synthetic bytes through a private relay of the same process, bound to
 * loopback only and in plaintext, from a scratch file to scratch files in the local file
 * system, as {@link #CHUNKS} chunks streamed at once; the private relay is closed and every
 * scratch file removed after. The bytes do not go through TLS even where the relay's own
 * connections do: a fresh JVM encrypting 64 MiB to itself spends seconds of CPU before C2 has
 * compiled AES-GCM's intrinsic, and several spawned relays doing it at once on a busy host
 * missed their first handshakes with the driver. {@link #handshakeWithItself} then runs one
 * TLS and secret handshake against the relay's real listener, which loads what the first
 * driver connection would otherwise load inside its deadline.
 */
public final class RelayWarmUp {
  static final int CHUNKS = 4;
  private static final long ANSWER_TIMEOUT_SECONDS = 120;
  private static final long CONNECT_WAIT_SECONDS = 10;
  private static final long CONNECT_RETRY_MILLIS = 200;

  /**
   * What a warm-up did.
   *
   * @param took from the start to the private relay's close
   * @param bytesWritten what the private relay wrote
   * @param chunksWritten the chunks it wrote
   * @param tls whether the private relay's connections ran in TLS
   */
  public record Result(Duration took, long bytesWritten, long chunksWritten, boolean tls) {
    public Result {
      requireNonNull(took, "took is null");
    }
  }

  private RelayWarmUp() {}

  /**
   * Sends {@code bytes} through a private loopback relay made from {@code settings} (its
   * secret, frame size, streams and file system configuration; TLS off, no rate limit), using
   * scratch files in {@code scratchParent}.
   *
   * @throws RelayCpException when a chunk fails or is not answered in time
   */
  public static Result run(RelaySettings settings, long bytes, Path scratchParent)
      throws IOException, InterruptedException {
    requireNonNull(settings, "settings is null");
    requireNonNull(scratchParent, "scratchParent is null");
    if (bytes < CHUNKS) {
      throw new IllegalArgumentException("warm-up needs at least " + CHUNKS + " bytes, got "
          + bytes);
    }
    long started = System.nanoTime();
    Path scratch = Files.createTempDirectory(scratchParent, "relaycp-warm-up-");
    EventLoopGroup loop = new NioEventLoopGroup(1, new DefaultThreadFactory("warm-up", true));
    try (RelayServer server = RelayServer.start(loopbackTwin(settings))) {
      Path source = writeSource(scratch.resolve("source"), bytes);
      RelayAddress self = loopbackAddress(server.localAddress());
      BlockingQueue<RelayMessage> answers = new LinkedBlockingQueue<>();
      server.allowLocalRoot(scratch.toUri());
      RelayConnection connection = RelayConnector.of(loop, settings.secret())
          .withTls(server.tls())
          .connectWaiting(self, new Collecting(answers), CONNECT_WAIT_SECONDS,
              CONNECT_RETRY_MILLIS);
      try {
        connection.send(new Transfer(
            UserGroupInformation.getCurrentUser().getShortUserName(), scratch.toUri(),
            scratch.toUri(), new byte[0]));
        long chunkBytes = bytes / CHUNKS;
        for (int chunk = 0; chunk < CHUNKS; chunk++) {
          long offset = chunk * chunkBytes;
          long length = chunk == CHUNKS - 1 ? bytes - offset : chunkBytes;
          connection.send(new ChunkOrder(chunk, source.toUri(), offset, length,
              self.toString(), ChunkTarget.file(scratch.resolve("target-" + chunk).toUri(),
                  (short) 1, Math.max(length, 1 << 20))));
        }
        for (int answered = 0; answered < CHUNKS; answered++) {
          RelayMessage answer = answers.poll(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
          if (answer instanceof ChunkFailed failed) {
            throw new RelayCpException(failed.code(), "warm-up chunk failed: " + failed.message());
          }
          if (!(answer instanceof ChunkDone)) {
            throw new RelayCpException(ErrorCode.RELAY_UNREACHABLE,
                "warm-up: no answer from the relay itself within " + ANSWER_TIMEOUT_SECONDS
                    + " s");
          }
        }
      } finally {
        connection.close();
      }
      return new Result(Duration.ofNanos(System.nanoTime() - started),
          server.counters().bytesWritten(), server.counters().chunksWritten(), server.tls());
    } finally {
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      deleteTree(scratch);
    }
  }

  /**
   * Opens one connection to {@code server} from this process, through its TLS (where on) and
   * the secret handshake, and closes it.
   *
   * @throws RelayCpException when the relay does not complete the handshake
   */
  public static void handshakeWithItself(RelayServer server, TransferSecret secret)
      throws InterruptedException {
    requireNonNull(server, "server is null");
    requireNonNull(secret, "secret is null");
    EventLoopGroup loop = new NioEventLoopGroup(1, new DefaultThreadFactory("warm-up", true));
    try {
      RelayConnector.of(loop, secret).withTls(server.tls())
          .connectWaiting(loopbackAddress(server.localAddress()),
              RelayConnection.Listener.IGNORING, CONNECT_WAIT_SECONDS, CONNECT_RETRY_MILLIS)
          .close();
    } finally {
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  /** The warm-up's relay: {@code settings} on loopback, any free port, plaintext, unlimited. */
  private static RelaySettings loopbackTwin(RelaySettings settings) {
    Configuration plaintext = new Configuration(settings.configuration());
    plaintext.setBoolean(RelayKeys.RELAY_TLS.key(), false);
    return new RelaySettings(InetAddress.getLoopbackAddress().getHostAddress(), 0,
        settings.secret(), plaintext, 0, settings.dataFrameBytes(),
        settings.authenticationTimeoutMillis(), settings.parallelStreams(),
        settings.silenceTimeoutMillis());
  }

  private static Path writeSource(Path path, long bytes) throws IOException {
    byte[] block = new byte[1 << 20];
    new Random(bytes).nextBytes(block);
    try (OutputStream out = Files.newOutputStream(path)) {
      for (long left = bytes; left > 0; left -= block.length) {
        out.write(block, 0, (int) Math.min(block.length, left));
      }
    }
    return path;
  }

  /** The relay as seen from its own machine: loopback when it listens on every address. */
  private static RelayAddress loopbackAddress(InetSocketAddress listening) {
    InetAddress address = listening.getAddress();
    String host = address == null || address.isAnyLocalAddress()
        ? InetAddress.getLoopbackAddress().getHostAddress()
        : address.getHostAddress();
    return RelayAddress.of(host, listening.getPort());
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  private record Collecting(BlockingQueue<RelayMessage> answers)
      implements RelayConnection.Listener {
    @Override
    public void onMessage(RelayMessage message) {
      answers.add(message);
      ReferenceCountUtil.release(message);
    }

    @Override
    public void onClosed(Throwable cause) {}
  }
}
