package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reader relay and a writer relay on loopback, driven as the copy driver drives them. */
class ReaderSessionHandlerTest {
  @TempDir Path directory;

  private final TransferSecret secret = TransferSecret.generate();
  private final NioEventLoopGroup driverLoop = new NioEventLoopGroup(1);
  private RelayServer reader;
  private RelayServer writer;

  @BeforeEach
  void startRelays() {
    GatedCloseFileSystem.reset();
    Configuration configuration = new Configuration();
    configuration.setClass("fs." + GatedCloseFileSystem.SCHEME + ".impl",
        GatedCloseFileSystem.class, FileSystem.class);
    reader = RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, configuration));
    writer = RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, configuration));
  }

  @AfterEach
  void stopRelays() {
    reader.close();
    writer.close();
    driverLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void aChunkSentWhileAnotherIsClosingIsWrittenBesideItNotBehindIt() throws Exception {
    byte[] content = "small file\n".getBytes(StandardCharsets.UTF_8);
    Path first = Files.write(directory.resolve("first"), content);
    Path second = Files.write(directory.resolve("second"), content);
    BlockingQueue<RelayMessage> answers = new LinkedBlockingQueue<>();
    RelayConnection driver = RelayConnector.of(driverLoop, secret).connectWaiting(
        RelayAddress.of("127.0.0.1", reader.localAddress().getPort()), new Collecting(answers),
        5, 100);
    // The sources are local files: relays serve them only where they were told to.
    reader.allowLocalRoot(directory.toUri());
    writer.allowLocalRoot(directory.toUri());
    driver.send(new RelayMessage.Transfer("relaycp-test", directory.toUri(),
        URI.create(GatedCloseFileSystem.SCHEME + "://" + directory.resolve("out").toUri().getPath()),
        new byte[0]));

    driver.send(order(1, first, content.length));
    assertThat(GatedCloseFileSystem.awaitFirstClosing(GatedCloseFileSystem.GATE_SECONDS))
        .as("the first file reached its close").isTrue();
    // The reader has sent the first chunk's end: its connection to the writer is free.
    assertThat(chunksReadWithin(reader, 1, 10)).as("the reader finished the first chunk").isTrue();
    driver.send(order(2, second, content.length));

    RelayMessage one = answers.poll(30, TimeUnit.SECONDS);
    RelayMessage two = answers.poll(30, TimeUnit.SECONDS);
    assertThat(one).isInstanceOf(ChunkDone.class);
    assertThat(two).isInstanceOf(ChunkDone.class);
    assertThat(directory.resolve("out/first")).hasBinaryContent(content);
    assertThat(directory.resolve("out/second")).hasBinaryContent(content);
    driver.close();
  }

  /**
   * A reader opens a connection to the writer for each chunk in flight; its limit holds for
   * them all together. Eight chunks of 128 KiB, ordered at once, through a reader limited to
   * 256 KiB/s take about 3.5 s (the first frame goes at once); with a limit on each connection
   * instead, the eight would go side by side in half a second.
   */
  @Test
  void aReadersLimitHoldsForAllItsConnectionsTogether() throws Exception {
    int chunks = 8;
    int chunkBytes = 128 * 1024;
    Configuration configuration = new Configuration();
    try (RelayServer limited = RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret,
        configuration).withBytesPerSecondLimit(256 * 1024))) {
      limited.allowLocalRoot(directory.toUri());
      writer.allowLocalRoot(directory.toUri());
      byte[] content = new byte[chunkBytes];
      java.util.List<Path> sources = new java.util.ArrayList<>();
      for (int index = 0; index < chunks; index++) {
        java.util.Arrays.fill(content, (byte) index);
        sources.add(Files.write(directory.resolve("source-" + index), content));
      }
      BlockingQueue<RelayMessage> answers = new LinkedBlockingQueue<>();
      RelayConnection driver = RelayConnector.of(driverLoop, secret).connectWaiting(
          RelayAddress.of("127.0.0.1", limited.localAddress().getPort()),
          new Collecting(answers), 5, 100);
      URI out = Files.createDirectories(directory.resolve("limited")).toUri();
      driver.send(new RelayMessage.Transfer("relaycp-test", directory.toUri(), out,
          new byte[0]));

      long started = System.nanoTime();
      for (int index = 0; index < chunks; index++) {
        driver.send(new ChunkOrder(index, sources.get(index).toUri(), 0, chunkBytes,
            "127.0.0.1:" + writer.localAddress().getPort(),
            ChunkTarget.file(out.resolve("copy-" + index), (short) 1, 1 << 20)));
      }
      for (int index = 0; index < chunks; index++) {
        assertThat(answers.poll(60, TimeUnit.SECONDS)).isInstanceOf(ChunkDone.class);
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      driver.close();

      assertThat(seconds).as("seconds for 1 MiB through a reader limited to 256 KiB/s")
          .isGreaterThanOrEqualTo(3.0);
      for (int index = 0; index < chunks; index++) {
        assertThat(directory.resolve("limited/copy-" + index))
            .hasSameBinaryContentAs(sources.get(index));
      }
    }
  }

  /** Whether {@code relay} has read {@code chunks} chunks within {@code seconds}. */
  private static boolean chunksReadWithin(RelayServer relay, long chunks, long seconds) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (relay.counters().chunksRead() < chunks) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.onSpinWait();
    }
    return true;
  }

  private ChunkOrder order(long id, Path source, long length) {
    URI target = URI.create(GatedCloseFileSystem.SCHEME + "://"
        + directory.resolve("out").resolve(source.getFileName()).toUri().getPath());
    return new ChunkOrder(id, source.toUri(), 0, length,
        "127.0.0.1:" + writer.localAddress().getPort(),
        ChunkTarget.file(target, (short) 1, 1 << 20));
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
