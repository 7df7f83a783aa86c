package dev.relaycp.provision.spawn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriverHeartbeatsTest {
  @TempDir
  Path staging;

  @Test
  void eachSitesHeartbeatIsMadeAndCloseRemovesThem() throws IOException {
    FileSystem local = FileSystem.getLocal(new Configuration());
    Map<String, FileSystem> sites = new LinkedHashMap<>();
    sites.put(SpawnSlot.SOURCE_SITE, local);
    sites.put(SpawnSlot.DESTINATION_SITE, local);

    DriverHeartbeats heartbeats = DriverHeartbeats.start(sites, staging.toString(), "t1",
        Duration.ofMinutes(1), () -> { });

    assertThat(heartbeats.uris()).containsOnlyKeys(SpawnSlot.SOURCE_SITE,
        SpawnSlot.DESTINATION_SITE);
    Path file = Path.of(URI.create(heartbeats.uris().get(SpawnSlot.SOURCE_SITE)));
    assertThat(file).isRegularFile().hasFileName("heartbeat");
    assertThat(file.getParent().getFileName()).hasToString("t1-spawned");
    heartbeats.close();
    assertThat(file.getParent()).doesNotExist();
  }

  @Test
  void aSiteThatCannotMakeItsHeartbeatFailsTheStartAndTheOtherSitesIsRemoved()
      throws IOException {
    FileSystem local = FileSystem.getLocal(new Configuration());
    Configuration refusing = new Configuration();
    refusing.setClass("fs.refusing.impl", RefusingFileSystem.class, FileSystem.class);
    refusing.setBoolean("fs.refusing.impl.disable.cache", true);
    Map<String, FileSystem> sites = new LinkedHashMap<>();
    sites.put(SpawnSlot.SOURCE_SITE, local);
    sites.put(SpawnSlot.DESTINATION_SITE, FileSystem.get(URI.create("refusing:///"), refusing));

    assertThatThrownBy(() -> DriverHeartbeats.start(sites, staging.toString(), "t2",
        Duration.ofMinutes(1), () -> { }))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("creating the spawned relays' heartbeat refusing:")
        .hasMessageContaining("t2-spawned/heartbeat");
    try (var left = Files.walk(staging)) {
      assertThat(left.filter(path -> path.toString().contains("t2-spawned"))).isEmpty();
    }
  }

  /** A local file system under its own scheme that refuses to create files. */
  public static final class RefusingFileSystem extends RawLocalFileSystem {
    @Override
    public URI getUri() {
      return URI.create("refusing:///");
    }

    @Override
    public FSDataOutputStream create(org.apache.hadoop.fs.Path path, boolean overwrite,
        int bufferSize, short replication, long blockSize, Progressable progress)
        throws IOException {
      throw new IOException("refused to create " + path);
    }

    @Override
    public FSDataOutputStream create(org.apache.hadoop.fs.Path path, FsPermission permission,
        boolean overwrite, int bufferSize, short replication, long blockSize,
        Progressable progress) throws IOException {
      throw new IOException("refused to create " + path);
    }
  }
}
