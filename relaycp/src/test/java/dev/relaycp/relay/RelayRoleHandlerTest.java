package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkFailed;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.Data;
import dev.relaycp.relay.RelayMessage.EndOfChunk;
import dev.relaycp.relay.RelayMessage.Transfer;
import dev.relaycp.relay.RelayMessage.WriteChunk;
import io.netty.buffer.Unpooled;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer that holds the secret still reaches only what the transfer it registered allows: two
 * relays on loopback, serving local files under a directory they were told to allow.
 */
class RelayRoleHandlerTest {
  private static final byte[] CONTENT = "inside the source root\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path directory;

  private final TransferSecret secret = TransferSecret.generate();
  private final NioEventLoopGroup driverLoop = new NioEventLoopGroup(1);
  private RelayServer reader;
  private RelayServer writer;
  private Path source;
  private Path staging;
  private Path secretFile;

  @BeforeEach
  void startRelays() throws Exception {
    reader = RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, new Configuration()));
    writer = RelayServer.start(RelaySettings.of("127.0.0.1", 0, secret, new Configuration()));
    reader.allowLocalRoot(directory.toUri());
    writer.allowLocalRoot(directory.toUri());
    source = Files.createDirectories(directory.resolve("source"));
    staging = Files.createDirectories(directory.resolve("staging"));
    Files.write(source.resolve("file"), CONTENT);
    secretFile = Files.write(directory.resolve("private"), CONTENT);
  }

  @AfterEach
  void stopRelays() {
    reader.close();
    writer.close();
    driverLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void anOrderInsideTheTransferIsServed() throws Exception {
    Collecting answers = new Collecting();
    RelayConnection driver = connect(reader, answers);
    driver.send(transfer());

    driver.send(order(1, source.resolve("file").toUri(), staging.resolve("f1").toUri()));

    assertThat(answers.next()).isInstanceOf(ChunkDone.class);
    assertThat(staging.resolve("f1")).hasBinaryContent(CONTENT);
    driver.close();
  }

  @Test
  void aReadOutsideTheSourceRootIsRefusedAndNothingIsWritten() throws Exception {
    Collecting answers = new Collecting();
    RelayConnection driver = connect(reader, answers);
    driver.send(transfer());

    driver.send(order(1, secretFile.toUri(), staging.resolve("f1").toUri()));
    driver.send(order(2, URI.create(source.toUri() + "../private"),
        staging.resolve("f2").toUri()));

    for (int answer = 0; answer < 2; answer++) {
      assertThat(answers.next()).isInstanceOfSatisfying(ChunkFailed.class, failed -> {
        assertThat(failed.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
        assertThat(failed.message()).contains("outside the transfer's source root");
      });
    }
    assertThat(staging).isEmptyDirectory();
    assertThat(reader.counters().chunksRead()).isZero();
    driver.close();
  }

  @Test
  void aWriteOutsideTheStagingSentStraightToTheWriterIsRefused() throws Exception {
    Collecting answers = new Collecting();
    RelayConnection peer = connect(writer, answers);
    peer.send(transfer());
    URI outside = directory.resolve("planted").toUri();

    peer.send(new WriteChunk(order(7, source.resolve("file").toUri(), outside)));
    peer.send(new Data(Unpooled.wrappedBuffer(CONTENT)));
    peer.send(new EndOfChunk(7, CONTENT.length));

    assertThat(answers.next()).isInstanceOfSatisfying(ChunkFailed.class,
        failed -> assertThat(failed.message()).contains("outside the transfer's staging"));
    assertThat(directory.resolve("planted")).doesNotExist();
    peer.close();
  }

  @Test
  void aConnectionThatSendsAnOrderBeforeItsTransferIsClosed() throws Exception {
    Collecting answers = new Collecting();
    RelayConnection driver = connect(reader, answers);

    driver.send(order(1, source.resolve("file").toUri(), staging.resolve("f1").toUri()));

    assertThat(answers.closed.get(30, TimeUnit.SECONDS)).isTrue();
    assertThat(answers.messages).isEmpty();
    assertThat(staging).isEmptyDirectory();
  }

  private Transfer transfer() {
    return new Transfer("relaycp-test", source.toUri(), staging.toUri(), new byte[0]);
  }

  private ChunkOrder order(long id, URI from, URI to) {
    return new ChunkOrder(id, from, 0, CONTENT.length,
        "127.0.0.1:" + writer.localAddress().getPort(),
        ChunkTarget.file(to, (short) 1, 1 << 20));
  }

  private RelayConnection connect(RelayServer relay, Collecting answers) throws Exception {
    return RelayConnector.of(driverLoop, secret).connectWaiting(
        RelayAddress.of("127.0.0.1", relay.localAddress().getPort()), answers, 5, 100);
  }

  private static final class Collecting implements RelayConnection.Listener {
    private final BlockingQueue<RelayMessage> messages = new LinkedBlockingQueue<>();
    private final CompletableFuture<Boolean> closed = new CompletableFuture<>();

    RelayMessage next() throws InterruptedException {
      return messages.poll(30, TimeUnit.SECONDS);
    }

    @Override
    public void onMessage(RelayMessage message) {
      messages.add(message);
      ReferenceCountUtil.release(message);
    }

    @Override
    public void onClosed(Throwable cause) {
      closed.complete(true);
    }
  }
}
