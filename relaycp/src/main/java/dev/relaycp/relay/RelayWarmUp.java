package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

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
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Sends synthetic bytes through a running relay's own reader and writer, over loopback, before
 * it serves a copy. A spawned relay's first chunks otherwise run while the JIT compiles the
 * framing, checksum and FileSystem paths; on a small machine that halves the relay's first
 * seconds of WAN rate. The bytes go from a scratch file to scratch files in the local file
 * system, as {@link #CHUNKS} chunks streamed at once, and every scratch file is removed after.
 */
public final class RelayWarmUp {
  static final int CHUNKS = 4;
  private static final long ANSWER_TIMEOUT_SECONDS = 120;

  private RelayWarmUp() {}

  /**
   * Sends {@code bytes} through {@code server}, proving {@code secret}, using scratch files in
   * {@code scratchParent}; returns how long it took.
   *
   * @throws RelayCpException when a chunk fails or is not answered in time
   */
  public static Duration run(RelayServer server, TransferSecret secret, long bytes,
      Path scratchParent) throws IOException, InterruptedException {
    requireNonNull(server, "server is null");
    requireNonNull(secret, "secret is null");
    requireNonNull(scratchParent, "scratchParent is null");
    if (bytes < CHUNKS) {
      throw new IllegalArgumentException("warm-up needs at least " + CHUNKS + " bytes, got "
          + bytes);
    }
    long started = System.nanoTime();
    Path scratch = Files.createTempDirectory(scratchParent, "relaycp-warm-up-");
    EventLoopGroup loop = new NioEventLoopGroup(1, new DefaultThreadFactory("warm-up", true));
    try {
      Path source = writeSource(scratch.resolve("source"), bytes);
      RelayAddress self = loopbackAddress(server.localAddress());
      BlockingQueue<RelayMessage> answers = new LinkedBlockingQueue<>();
      server.allowLocalRoot(scratch.toUri());
      RelayConnection connection = RelayConnector.of(loop, secret).withTls(server.tls())
          .connectWaiting(self, new Collecting(answers), 10, 200);
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
      return Duration.ofNanos(System.nanoTime() - started);
    } finally {
      server.disallowLocalRoot(scratch.toUri());
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      deleteTree(scratch);
    }
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
