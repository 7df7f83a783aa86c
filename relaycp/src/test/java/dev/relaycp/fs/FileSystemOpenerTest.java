package dev.relaycp.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.testkit.EmbeddedHdfs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.client.impl.DfsClientConf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FileSystemOpenerTest {
  static EmbeddedHdfs hdfs;

  @BeforeAll
  static void start() throws Exception {
    hdfs = EmbeddedHdfs.start("opener-test", 1);
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void checksumsAreCompositeEvenWhenTheClusterWasOpenedFirstInAnotherMode() throws Exception {
    URI uri = hdfs.cluster().getURI();
    Configuration other = new Configuration();
    other.set(FileSystemOpener.CHECKSUM_COMBINE_MODE, "MD5MD5CRC");
    FileSystem first = FileSystem.get(uri, other);
    Path file = new Path("/two-blocks");
    try (FSDataOutputStream out = first.createFile(file).blockSize(1 << 20).build()) {
      out.write(new byte[(3 << 20) / 2]);
    }
    assertThat(first.getFileChecksum(file).getAlgorithmName()).startsWith("MD5-of-");

    FileSystem opened = FileSystemOpener.of(new Configuration()).open(uri);

    assertThat(opened.getFileChecksum(file).getAlgorithmName()).startsWith("COMPOSITE-");
    assertThat(FileSystemOpener.of(new Configuration()).open(new URI(uri + "/some/path")))
        .isSameAs(opened);
  }

  @Test
  void openersOfEqualSettingsShareAnInstanceAndOthersWriteWithTheirOwn() throws Exception {
    URI uri = hdfs.cluster().getURI();
    Configuration defaults = new Configuration();
    Configuration crc32 = new Configuration();
    crc32.set("dfs.checksum.type", "CRC32");

    FileSystem first = FileSystemOpener.of(defaults).open(uri);
    FileSystem equal = FileSystemOpener.of(new Configuration(defaults)).open(uri);
    FileSystem other = FileSystemOpener.of(crc32).open(uri);

    assertThat(equal).isSameAs(first);
    assertThat(other).isNotSameAs(first);
    assertThat(FileSystemOpener.of(new Configuration(crc32)).open(uri)).isSameAs(other);
    Path byOther = new Path("/written-with-crc32");
    try (FSDataOutputStream out = other.create(byOther)) {
      out.write(new byte[4096]);
    }
    Path byFirst = new Path("/written-with-defaults");
    try (FSDataOutputStream out = first.create(byFirst)) {
      out.write(new byte[4096]);
    }
    assertThat(first.getFileChecksum(byOther).getAlgorithmName()).isEqualTo("COMPOSITE-CRC32");
    assertThat(first.getFileChecksum(byFirst).getAlgorithmName()).isEqualTo("COMPOSITE-CRC32C");
  }

  @Test
  void aClusterGivenAConfigurationOfItsOwnIsOpenedWithItAndSharedWithItsOtherOpeners()
      throws Exception {
    URI uri = hdfs.cluster().getURI();
    Configuration crc32 = new Configuration();
    crc32.set("dfs.checksum.type", "CRC32");
    crc32.set("relaycp.test.cluster-only", "yes");

    FileSystemOpener opener = FileSystemOpener.of(new Configuration()).withCluster(uri, crc32);
    FileSystem opened = opener.open(new URI(uri + "/some/path"));

    assertThat(opened).isSameAs(FileSystemOpener.of(crc32).open(uri))
        .isNotSameAs(FileSystemOpener.of(new Configuration()).open(uri));
    assertThat(opener.configuration().get("relaycp.test.cluster-only")).isNull();
    Path file = new Path("/written-through-the-cluster-configuration");
    try (FSDataOutputStream out = opened.create(file)) {
      out.write(new byte[4096]);
    }
    assertThat(opened.getFileChecksum(file).getAlgorithmName()).isEqualTo("COMPOSITE-CRC32");
  }

  /**
   * Hadoop adds default resources to every configuration when a class first needs them (HDFS's
   * with its first client, YARN's with its first client): an opener made before and one made
   * after of equal configurations still share their instances.
   */
  @Test
  void aDefaultResourceAddedBetweenTwoOpenersDoesNotPartTheirInstances() throws Exception {
    URI uri = hdfs.cluster().getURI();
    Configuration configuration = new Configuration();
    configuration.set("relaycp.test.opener-pair", "before-and-after");
    FileSystem before = FileSystemOpener.of(configuration).open(uri);

    Configuration.addDefaultResource("relaycp-opener-test-site.xml");
    Configuration after = new Configuration(configuration);

    assertThat(after.get("relaycp.test.added-default")).isEqualTo("yes");
    assertThat(FileSystemOpener.of(after).open(uri)).isSameAs(before);
  }

  @Test
  void anHdfsClientItOpensRetriesACloseSoonerThanHdfsByDefault() throws Exception {
    FileSystem opened = FileSystemOpener.of(new HdfsConfiguration()).open(hdfs.cluster().getURI());

    DfsClientConf client = ((DistributedFileSystem) opened).getClient().getConf();
    assertThat(client.getBlockWriteLocateFollowingInitialDelayMs())
        .isEqualTo(FileSystemOpener.CLOSE_FIRST_RETRY_MILLIS).isLessThan(
            HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_DEFAULT);
    assertThat(client.getNumBlockWriteLocateFollowingRetry())
        .isEqualTo(FileSystemOpener.CLOSE_RETRIES);
    Path file = new Path("/closed-soon");
    try (FSDataOutputStream out = opened.create(file)) {
      out.write(new byte[64 * 1024]);
    }
    assertThat(opened.getFileStatus(file).getLen()).isEqualTo(64 * 1024);
  }

  @Test
  void aCloseRetryChosenBySiteOrUserIsKept() {
    Configuration site = new HdfsConfiguration(false);
    site.addResource(new ByteArrayInputStream(("<configuration><property><name>"
        + FileSystemOpener.CLOSE_RETRIES_KEY + "</name><value>7</value></property>"
        + "</configuration>").getBytes(StandardCharsets.UTF_8)), "hdfs-site.xml");
    Configuration user = new HdfsConfiguration();
    user.setInt(FileSystemOpener.CLOSE_FIRST_RETRY_KEY, 100);

    Configuration fromSite = FileSystemOpener.of(site).configuration();
    Configuration fromUser = FileSystemOpener.of(user).configuration();

    assertThat(fromSite.getInt(FileSystemOpener.CLOSE_RETRIES_KEY, 0)).isEqualTo(7);
    assertThat(fromSite.get(FileSystemOpener.CLOSE_FIRST_RETRY_KEY)).isNull();
    assertThat(fromUser.getInt(FileSystemOpener.CLOSE_FIRST_RETRY_KEY, 0)).isEqualTo(100);
    assertThat(fromUser.getInt(FileSystemOpener.CLOSE_RETRIES_KEY, 0))
        .isEqualTo(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_RETRIES_DEFAULT);
  }

  @Test
  void threadsOpeningOneClusterAtOnceGetOneInstanceMadeOnce() throws Exception {
    Configuration configuration = new Configuration();
    configuration.setClass("fs.counted.impl", CountedFileSystem.class, FileSystem.class);
    URI uri = URI.create("counted://cluster-" + System.nanoTime() + "/some/path");
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<FileSystem>> opened = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        opened.add(threads.submit(() -> {
          start.await();
          return FileSystemOpener.of(configuration).open(uri);
        }));
      }
      start.countDown();
      Set<FileSystem> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
      for (Future<FileSystem> each : opened) {
        distinct.add(each.get(30, TimeUnit.SECONDS));
      }

      assertThat(distinct).hasSize(1);
      assertThat(CountedFileSystem.made(uri.getAuthority())).isEqualTo(1);
    } finally {
      threads.shutdownNow();
    }
  }

  /** A local file system that counts the instances made for each authority, slowly. */
  public static final class CountedFileSystem extends RawLocalFileSystem {
    private static final Map<String, AtomicInteger> MADE = new ConcurrentHashMap<>();

    static int made(String authority) {
      return MADE.getOrDefault(authority, new AtomicInteger()).get();
    }

    @Override
    public void initialize(URI name, Configuration configuration) throws IOException {
      MADE.computeIfAbsent(name.getAuthority(), absent -> new AtomicInteger()).incrementAndGet();
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      super.initialize(name, configuration);
    }
  }

  /**
   * A namenode port that takes no connection, as behind a firewall that drops packets: here a
   * listener whose accept queue is full, past which Linux drops the SYNs. HDFS's client would
   * retry each call's connect 45 times, one timeout each.
   */
  @Test
  void aNamenodeThatTakesNoConnectionIsUnreachableWithinOneConnectTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      InetSocketAddress address = new InetSocketAddress(silent.getInetAddress(),
          silent.getLocalPort());
      List<Socket> queued = new ArrayList<>();
      boolean full = false;
      try {
        for (int connection = 0; connection < 16 && !full; connection++) {
          Socket socket = new Socket();
          queued.add(socket);
          try {
            socket.connect(address, 500);
          } catch (SocketTimeoutException e) {
            full = true;
          }
        }
        assumeTrue(full, "connections past a full accept queue were not dropped here, so no"
            + " port that answers nothing can be made on loopback");
        Configuration configuration = new Configuration();
        configuration.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY, 1000);
        URI uri = URI.create("hdfs://127.0.0.1:" + silent.getLocalPort() + "/data");

        assertThatThrownBy(() -> FileSystemOpener.of(configuration).open(uri))
            .isInstanceOfSatisfying(RelayCpException.class, e ->
                assertThat(e.code()).isEqualTo(ErrorCode.CLUSTER_UNREACHABLE))
            .hasMessageContaining("127.0.0.1:" + silent.getLocalPort())
            .hasMessageContaining("took no connection within 1000 ms");
        assertThat(FileSystemOpener.of(configuration).isOpen(uri)).isFalse();
      } finally {
        for (Socket socket : queued) {
          socket.close();
        }
      }
    }
  }

  @Test
  void prepareOpensTheDefaultHdfsClientWithoutCallingItsNamenode() throws Exception {
    try (ServerSocket namenode = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      URI home = URI.create("hdfs://127.0.0.1:" + namenode.getLocalPort());
      Configuration configuration = new Configuration();
      configuration.set(FileSystem.FS_DEFAULT_NAME_KEY, home.toString());
      assertThat(FileSystemOpener.of(configuration).isOpen(home)).isFalse();

      FileSystemOpener.of(configuration).prepare();

      assertThat(FileSystemOpener.of(configuration).isOpen(home)).isTrue();
      namenode.setSoTimeout(500);
      assertThatThrownBy(namenode::accept).isInstanceOf(SocketTimeoutException.class);
    }
  }

  @Test
  void prepareLeavesADefaultThatIsNotHdfsUnopened() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      // A port no other test uses, so no other test can have opened this file system.
      URI home = URI.create("webhdfs://127.0.0.1:" + server.getLocalPort());
      Configuration configuration = new Configuration();
      configuration.set(FileSystem.FS_DEFAULT_NAME_KEY, home.toString());

      FileSystemOpener.of(configuration).prepare();

      assertThat(FileSystemOpener.of(configuration).isOpen(home)).isFalse();
    }
  }
}
