package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.testkit.EmbeddedHdfs;
import java.time.Duration;
import java.time.Instant;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StaleStagingFoldersTest {
  static EmbeddedHdfs hdfs;
  static FileSystem fileSystem;

  @BeforeAll
  static void start() throws Exception {
    hdfs = EmbeddedHdfs.start("stale-staging-test", 1);
    fileSystem = hdfs.fileSystem();
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  /** A transfer folder whose heartbeat (if {@code beatAt} is given) last moved then. */
  private static Path transferFolder(Path user, String name, Instant folderAt, Instant beatAt)
      throws Exception {
    Path folder = new Path(user, name);
    fileSystem.mkdirs(new Path(folder, "relays"));
    if (beatAt != null) {
      Path heartbeat = new Path(folder, "heartbeat");
      fileSystem.create(heartbeat, true).close();
      fileSystem.setTimes(heartbeat, beatAt.toEpochMilli(), -1);
    }
    fileSystem.setTimes(folder, folderAt.toEpochMilli(), -1);
    return folder;
  }

  @Test
  void removesTheFoldersWhoseHeartbeatIsStillForADayAndKeepsTheRest() throws Exception {
    Path user = new Path("/staging-sweep/user");
    Instant now = Instant.now();
    Instant twoDaysAgo = now.minus(Duration.ofDays(2));
    Instant anHourAgo = now.minus(Duration.ofHours(1));
    Path killedDriver = transferFolder(user, "killed", twoDaysAgo, twoDaysAgo);
    Path killedBeforeItsHeartbeat = transferFolder(user, "no-heartbeat", twoDaysAgo, null);
    // A driver whose heartbeat moved an hour ago, in a folder made days ago: a long copy.
    Path longCopy = transferFolder(user, "long-copy", twoDaysAgo, anHourAgo);
    Path justMade = transferFolder(user, "just-made", now, null);
    Path own = transferFolder(user, "own", twoDaysAgo, twoDaysAgo);
    Path jars = transferFolder(user, RelayJarCache.FOLDER, twoDaysAgo, null);
    Path file = new Path(user, "a-file");
    fileSystem.create(file, true).close();
    fileSystem.setTimes(file, twoDaysAgo.toEpochMilli(), -1);

    int removed = StaleStagingFolders.remove(fileSystem, user, "own", now);

    assertThat(removed).isEqualTo(2);
    assertThat(fileSystem.exists(killedDriver)).isFalse();
    assertThat(fileSystem.exists(killedBeforeItsHeartbeat)).isFalse();
    for (Path kept : new Path[] {longCopy, justMade, own, jars, file}) {
      assertThat(fileSystem.exists(kept)).as(kept.getName()).isTrue();
    }
  }

  @Test
  void aUserFolderNotMadeYetHasNothingToRemove() {
    assertThat(StaleStagingFolders.remove(fileSystem, new Path("/staging-none/user"), "own",
        Instant.now())).isZero();
  }
}
