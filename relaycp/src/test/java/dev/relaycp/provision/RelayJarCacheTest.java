package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.testkit.EmbeddedHdfs;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayJarCacheTest {
  static EmbeddedHdfs hdfs;
  static FileSystem fileSystem;
  @TempDir java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    hdfs = EmbeddedHdfs.start("jar-cache-test", 1);
    fileSystem = hdfs.fileSystem();
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  private RelayJar jar(String name, byte[] content) throws Exception {
    java.nio.file.Path file = local.resolve(name);
    Files.write(file, content);
    return RelayJar.of(new Path(file.toUri()));
  }

  private static Path userFolder(String name) throws Exception {
    Path folder = new Path("/staging-" + name + "/user");
    fileSystem.mkdirs(folder, new FsPermission((short) 0711));
    fileSystem.setPermission(folder.getParent(), new FsPermission((short) 0755));
    fileSystem.setPermission(folder, new FsPermission((short) 0711));
    return folder;
  }

  @Test
  void theSameContentIsStagedOnceAndEveryLaterCopyGetsTheSameResource() throws Exception {
    Path user = userFolder("same");
    RelayJar jar = jar("relay.jar", "relay classes".getBytes());

    LocalResource first = RelayJarCache.stage(fileSystem, user, jar);
    Thread.sleep(10);
    LocalResource second = RelayJarCache.stage(fileSystem, user, jar);

    assertThat(second.getResource()).isEqualTo(first.getResource());
    assertThat(second.getTimestamp()).as("the NodeManagers' cache key").isEqualTo(
        first.getTimestamp());
    assertThat(first.getVisibility()).isEqualTo(LocalResourceVisibility.PUBLIC);
    FileStatus[] cached = fileSystem.listStatus(new Path(user, RelayJarCache.FOLDER));
    assertThat(cached).hasSize(1);
    assertThat(cached[0].getPath().getName()).matches("relaycp-relay-[0-9a-f]{16}\\.jar");
    assertThat(cached[0].getPermission()).isEqualTo(new FsPermission((short) 0644));
    assertThat(fileSystem.getFileStatus(new Path(user, RelayJarCache.FOLDER)).getPermission())
        .isEqualTo(new FsPermission((short) 0711));
  }

  @Test
  void anotherContentGetsAJarOfItsOwn() throws Exception {
    Path user = userFolder("other");

    LocalResource older = RelayJarCache.stage(fileSystem, user,
        jar("old.jar", "version 1".getBytes()));
    LocalResource newer = RelayJarCache.stage(fileSystem, user,
        jar("new.jar", "version 2".getBytes()));

    assertThat(newer.getResource()).isNotEqualTo(older.getResource());
    assertThat(fileSystem.listStatus(new Path(user, RelayJarCache.FOLDER))).hasSize(2);
    try (var in = fileSystem.open(new Path(newer.getResource().getFile()))) {
      assertThat(in.readAllBytes()).isEqualTo("version 2".getBytes());
    }
  }

  @Test
  void aCachedJarOfTheWrongLengthIsReplacedWhole() throws Exception {
    Path user = userFolder("damaged");
    byte[] content = new byte[100_000];
    Arrays.fill(content, (byte) 7);
    RelayJar jar = jar("relay.jar", content);
    LocalResource staged = RelayJarCache.stage(fileSystem, user, jar);
    Path cached = new Path(staged.getResource().getFile());
    try (FSDataOutputStream out = fileSystem.create(cached, true)) {
      out.write(content, 0, 1_000);
    }

    LocalResource again = RelayJarCache.stage(fileSystem, user, jar);

    assertThat(again.getResource()).isEqualTo(staged.getResource());
    assertThat(again.getSize()).isEqualTo(content.length);
    try (var in = fileSystem.open(cached)) {
      assertThat(in.readAllBytes()).isEqualTo(content);
    }
    assertThat(fileSystem.listStatus(new Path(user, RelayJarCache.FOLDER)))
        .as("no temporary file left").hasSize(1);
  }

  @Test
  void twoSitesOnOneFileSystemStagingAtOnceShareOneJar() throws Exception {
    // Both sites' applications start side by side; here both are one local file system, as
    // a copy within one cluster has one HDFS.
    FileSystem local = FileSystem.getLocal(new Configuration());
    RelayJar jar = jar("relay.jar", "relay classes".getBytes());
    for (int round = 0; round < 5; round++) {
      Path user = new Path(this.local.resolve("staging-" + round).toUri());
      local.mkdirs(user);
      CyclicBarrier together = new CyclicBarrier(2);
      Callable<LocalResource> site = () -> {
        together.await();
        return RelayJarCache.stage(local, user, jar);
      };
      ExecutorService sites = Executors.newFixedThreadPool(2);
      try {
        Future<LocalResource> source = sites.submit(site);
        Future<LocalResource> destination = sites.submit(site);

        assertThat(destination.get().getResource()).isEqualTo(source.get().getResource());
        assertThat(destination.get().getTimestamp()).isEqualTo(source.get().getTimestamp());
      } finally {
        sites.shutdownNow();
      }
      assertThat(local.listStatus(new Path(user, RelayJarCache.FOLDER)))
          .as("one jar, no temporary copy").hasSize(1);
    }
  }

  @Test
  void aFolderOthersCannotPassMakesThePrivateResourceOfThisUser() throws Exception {
    Path user = userFolder("closed");
    fileSystem.setPermission(user, new FsPermission((short) 0700));

    LocalResource staged = RelayJarCache.stage(fileSystem, user,
        jar("relay.jar", "relay classes".getBytes()));

    assertThat(staged.getVisibility()).isEqualTo(LocalResourceVisibility.PRIVATE);
  }
}
