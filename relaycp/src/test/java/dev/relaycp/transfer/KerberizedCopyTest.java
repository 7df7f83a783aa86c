package dev.relaycp.transfer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.CallerCredentials;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.provision.LocalRelayProcesses;
import dev.relaycp.relay.RelayConnection;
import dev.relaycp.relay.RelayConnector;
import dev.relaycp.relay.RelayMessage;
import dev.relaycp.relay.RelayMessage.ChunkDone;
import dev.relaycp.relay.RelayMessage.ChunkFailed;
import dev.relaycp.relay.RelayMessage.ChunkOrder;
import dev.relaycp.relay.RelayMessage.Transfer;
import dev.relaycp.relay.TransferSecret;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copies between two kerberized clusters through relay processes that are logged in as the
 * HDFS superuser: the copy runs as the user who started it, and neither the copy nor a peer
 * holding the relay secret gets more through the relays than that user may do.
 */
@Tag("kerberos")
class KerberizedCopyTest {
  private static final Path PRIVATE_FILE = new Path("/private/secret.bin");
  private static final Path SHARED = new Path("/shared/data");

  @TempDir static java.nio.file.Path baseDirectory;
  static KerberizedClusters clusters;
  static LocalRelayProcesses relays;
  static TransferSecret secret;
  static final Map<String, byte[]> files = new java.util.TreeMap<>();

  @BeforeAll
  static void start() throws Exception {
    clusters = KerberizedClusters.start(baseDirectory.resolve("clusters"));
    files.put("small.txt", "a line of text\n".getBytes(UTF_8));
    files.put("nested/blocks.bin", bytes(3 * KerberizedClusters.BLOCK_SIZE + 4321, 7));
    files.put("nested/empty", new byte[0]);
    clusters.asSuperuser(() -> {
      try (FileSystem source = sourceFileSystem()) {
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
          write(source, new Path(SHARED, file.getKey()), file.getValue());
        }
      }
      return null;
    });
    secret = TransferSecret.generate();
    java.nio.file.Path secretFile = baseDirectory.resolve("relay.secret");
    secret.writeTo(secretFile);
    Configuration client = clusters.configuration();
    Map<String, String> properties = new java.util.LinkedHashMap<>();
    for (String key : List.of(
        CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION,
        CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTH_TO_LOCAL,
        DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY,
        DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY)) {
      properties.put(key, client.get(key));
    }
    properties.put(RelayKeys.RELAY_JAVA_OPTS.key(),
        "-Djava.security.krb5.conf=" + clusters.krb5Conf());
    // The relays' own login is the superuser, who may read and write everything.
    relays = LocalRelayProcesses.start(1, secretFile, properties, List.of(
        "--principal", clusters.servicePrincipal(),
        "--keytab", clusters.serviceKeytab().toString()), Optional.empty());
  }

  @AfterAll
  static void stop() {
    if (relays != null) {
      relays.close();
    }
    if (clusters != null) {
      clusters.close();
    }
  }

  @Test
  void aliceCopiesWhatSheMayReadAndTheCopiesAreHers() throws Exception {
    CopyReport report = copyAs("alice", clusters.sourceUri(SHARED.toString()),
        clusters.destinationUri("/user/alice/copy"));

    assertThat(report.allVerified()).isTrue();
    assertThat(report.files()).isEqualTo(files.size());
    clusters.asSuperuser(() -> {
      try (FileSystem destination = destinationFileSystem()) {
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
          Path copied = new Path("/user/alice/copy", file.getKey());
          assertThat(read(destination, copied)).as(file.getKey()).isEqualTo(file.getValue());
          assertThat(destination.getFileStatus(copied).getOwner()).as(file.getKey())
              .isEqualTo("alice");
        }
        assertThat(stagingLeft(destination, new Path("/user/alice"))).isEmpty();
      }
      return null;
    });
  }

  @Test
  void aliceCannotCopyWhatSheMayNotReadNorIntoWhereSheMayNotWrite() throws Exception {
    assertThatThrownBy(() -> copyAs("alice", clusters.sourceUri("/private"),
            clusters.destinationUri("/user/alice/private-copy")))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED));
    assertThatThrownBy(() -> copyAs("alice", clusters.sourceUri(SHARED.toString()),
            clusters.destinationUri("/user/bob/from-alice")))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED));

    clusters.asSuperuser(() -> {
      try (FileSystem destination = destinationFileSystem()) {
        assertThat(destination.exists(new Path("/user/alice/private-copy"))).isFalse();
        assertThat(destination.listStatus(new Path("/user/bob"))).isEmpty();
        assertThat(stagingLeft(destination, new Path("/user/alice"))).isEmpty();
      }
      return null;
    });
  }

  /**
   * A peer holding the relay secret and alice's tokens, naming itself "hdfs" and registering a
   * transfer whose roots are the superuser's: the relay (logged in as the superuser) still
   * reads and writes as alice, and without tokens as nobody at all.
   */
  @Test
  void aPeerWithTheSecretGetsNoMoreThanTheTokensItCarries() throws Exception {
    CallerCredentials alice = clusters.asUser("alice", () -> CallerCredentials.obtain(
        List.of(FileSystemOpener.of(clusters.configuration()).open(clusters.sourceUri("/")),
            FileSystemOpener.of(clusters.configuration()).open(clusters.destinationUri("/")))));
    NioEventLoopGroup loop = new NioEventLoopGroup(1);
    try {
      URI staging = clusters.destinationUri("/user/alice/peer-staging");
      URI readable = clusters.sourceUri(new Path(SHARED, "small.txt").toString());
      URI privateFile = clusters.sourceUri(PRIVATE_FILE.toString());

      // With alice's tokens, what alice may read arrives, as hers.
      assertThat(order(loop, new Transfer("hdfs", clusters.sourceUri("/"), staging,
              alice.tokenBytes()), readable, files.get("small.txt").length,
          new URI(staging + "/readable")))
          .isInstanceOf(ChunkDone.class);
      // What only the superuser may read is refused, whatever name the peer gives.
      assertThat(order(loop, new Transfer("hdfs", clusters.sourceUri("/"), staging,
              alice.tokenBytes()), privateFile, KerberizedClusters.secret().length,
          new URI(staging + "/stolen")))
          .isInstanceOfSatisfying(ChunkFailed.class, failed -> {
            assertThat(failed.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
            assertThat(failed.message()).contains("user=alice");
          });
      // Writing where only the superuser may write is refused too.
      URI privateStaging = clusters.destinationUri("/private");
      assertThat(order(loop, new Transfer("hdfs", clusters.sourceUri("/"), privateStaging,
              alice.tokenBytes()), readable, files.get("small.txt").length,
          new URI(privateStaging + "/planted")))
          .isInstanceOfSatisfying(ChunkFailed.class,
              failed -> assertThat(failed.code()).isEqualTo(ErrorCode.PERMISSION_DENIED));
      // Without tokens the relay's own login is not used: nothing is read at all.
      assertThat(order(loop, new Transfer("hdfs", clusters.sourceUri("/"), staging,
              new byte[0]), readable, files.get("small.txt").length,
          new URI(staging + "/no-tokens")))
          .isInstanceOf(ChunkFailed.class);

      clusters.asSuperuser(() -> {
        try (FileSystem destination = destinationFileSystem()) {
          FileStatus copied = destination.getFileStatus(new Path("/user/alice/peer-staging/readable"));
          assertThat(copied.getOwner()).isEqualTo("alice");
          assertThat(destination.exists(new Path("/user/alice/peer-staging/stolen"))).isFalse();
          assertThat(destination.exists(new Path("/user/alice/peer-staging/no-tokens")))
              .isFalse();
          assertThat(destination.exists(new Path("/private/planted"))).isFalse();
        }
        return null;
      });
    } finally {
      alice.close();
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  /** Sends {@code transfer} and one order to the reader relay; its answer. */
  private static RelayMessage order(NioEventLoopGroup loop, Transfer transfer, URI source,
      long length, URI target) throws Exception {
    BlockingQueue<RelayMessage> answers = new LinkedBlockingQueue<>();
    RelayConnection connection = RelayConnector.of(loop, secret).connectWaiting(
        relays.routes().get(0).reader(), new RelayConnection.Listener() {
          @Override
          public void onMessage(RelayMessage message) {
            answers.add(message);
            ReferenceCountUtil.release(message);
          }

          @Override
          public void onClosed(Throwable cause) {}
        }, 30, 200);
    try {
      connection.send(transfer);
      connection.send(new ChunkOrder(1, source, 0, length,
          relays.routes().get(0).writer().toString(),
          ChunkTarget.file(target, (short) 1, KerberizedClusters.BLOCK_SIZE)));
      RelayMessage answer = answers.poll(60, TimeUnit.SECONDS);
      assertThat(answer).as("the relay's answer").isNotNull();
      return answer;
    } finally {
      connection.close();
    }
  }

  private static CopyReport copyAs(String user, URI source, URI destination) throws Exception {
    return clusters.asUser(user, () -> new CopyDriver(FileSystemOpener.of(
            clusters.configuration()))
        .copy(CopySettings.of(source, destination, false), relays.routes(), secret,
            progress -> {}));
  }

  private static List<FileStatus> stagingLeft(FileSystem fileSystem, Path directory)
      throws IOException {
    return List.of(fileSystem.listStatus(directory)).stream()
        .filter(status -> status.getPath().getName().startsWith(StagingArea.PREFIX))
        .toList();
  }

  private static FileSystem sourceFileSystem() throws IOException {
    return FileSystem.newInstance(clusters.sourceUri("/"), clusters.configuration());
  }

  private static FileSystem destinationFileSystem() throws IOException {
    return FileSystem.newInstance(clusters.destinationUri("/"), clusters.configuration());
  }

  private static void write(FileSystem fileSystem, Path file, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fileSystem.create(file)) {
      out.write(bytes);
    }
  }

  private static byte[] read(FileSystem fileSystem, Path file) throws IOException {
    try (InputStream in = fileSystem.open(file)) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      in.transferTo(bytes);
      return bytes.toByteArray();
    }
  }

  private static byte[] bytes(long length, long seed) {
    byte[] bytes = new byte[(int) length];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }
}
