package dev.relaycp.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayAnnouncementsTest {
  @TempDir java.nio.file.Path temporary;

  @Test
  void readsEveryPublishedAddressByNameAndSkipsHalfWrittenOnes() throws Exception {
    FileSystem fileSystem = FileSystem.getLocal(new Configuration());
    Path directory = new Path(temporary.resolve("relays").toUri());
    fileSystem.mkdirs(directory);
    RelayAnnouncements announcements = RelayAnnouncements.in(fileSystem, directory);

    announcements.publish("container_1_0001_01_000002", "dn1.example.com:40123");
    announcements.publish("container_1_0001_01_000003", "dn2.example.com:40777");
    Files.writeString(temporary.resolve("relays/container_1_0001_01_000004.pending"), "dn3:1");

    assertThat(announcements.read()).containsOnly(
        entry("container_1_0001_01_000002", "dn1.example.com:40123"),
        entry("container_1_0001_01_000003", "dn2.example.com:40777"));
  }

  @Test
  void aRemovedDirectoryHasNoAnnouncements() throws Exception {
    FileSystem fileSystem = FileSystem.getLocal(new Configuration());
    RelayAnnouncements announcements = RelayAnnouncements.in(fileSystem,
        new Path(temporary.resolve("gone").toUri()));

    assertThat(announcements.read()).isEmpty();
  }
}
