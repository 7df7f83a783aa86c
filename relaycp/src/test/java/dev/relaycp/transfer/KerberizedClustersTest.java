package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kerberized clusters behave as a secured HDFS does: a user with a ticket reaches only what
 * HDFS permissions give them, a user with neither ticket nor token reaches nothing, and a
 * delegation token, not the name a UserGroupInformation carries, decides whom the NameNodes and
 * datanodes serve. The last is what relaycp's relays will rely on to act only as the caller.
 */
@Tag("kerberos")
class KerberizedClustersTest {
  static final Path SECRET_FILE = new Path("/private/secret.bin");

  @TempDir
  static java.nio.file.Path baseDirectory;
  static KerberizedClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = KerberizedClusters.start(baseDirectory);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  @Test
  void aliceWritesAndReadsHerOwnFilesOnBothClusters() throws Exception {
    byte[] data = data(2 * KerberizedClusters.BLOCK_SIZE + 1234, 1);
    clusters.asUser("alice", () -> {
      for (URI cluster : bothClusters()) {
        try (FileSystem fileSystem = FileSystem.newInstance(cluster, clusters.configuration())) {
          Path file = new Path("/user/alice/own.bin");
          write(fileSystem, file, data);
          assertSameBytes(read(fileSystem, file), data);
          assertThat(fileSystem.getFileStatus(file).getOwner()).isEqualTo("alice");
        }
      }
      return null;
    });
  }

  @Test
  void aliceCanNeitherReadThePrivateFileNorCreateFilesInBobsHome() throws Exception {
    clusters.asUser("alice", () -> {
      for (URI cluster : bothClusters()) {
        try (FileSystem fileSystem = FileSystem.newInstance(cluster, clusters.configuration())) {
          assertThatThrownBy(() -> read(fileSystem, SECRET_FILE))
              .isInstanceOf(AccessControlException.class);
          assertThatThrownBy(() -> write(fileSystem, new Path("/user/bob/from-alice"), data(10, 2)))
              .isInstanceOf(AccessControlException.class);
        }
      }
      return null;
    });
    assertThat(clusters.asSuperuser(() -> {
      try (FileSystem fileSystem =
          FileSystem.newInstance(clusters.sourceUri("/"), clusters.configuration())) {
        return read(fileSystem, SECRET_FILE);
      }
    })).isEqualTo(KerberizedClusters.secret());
  }

  @Test
  void aUserWithNeitherTicketNorTokenIsRefused() throws Exception {
    UserGroupInformation unauthenticated = UserGroupInformation.createRemoteUser("alice");
    try {
      Throwable refusal = catchThrowable(() -> unauthenticated.doAs(
          (PrivilegedExceptionAction<?>) () -> {
            try (FileSystem fileSystem =
                FileSystem.newInstance(clusters.sourceUri("/"), clusters.configuration())) {
              return fileSystem.getFileStatus(new Path("/user/alice"));
            }
          }));
      // The NameNode offers TOKEN and KERBEROS only; the client has neither and gives up.
      assertThat(refusal).isInstanceOf(IOException.class)
          .rootCause().isInstanceOf(AccessControlException.class)
          .hasMessageContaining("Client cannot authenticate via:[TOKEN, KERBEROS]");
    } finally {
      FileSystem.closeAllForUGI(unauthenticated);
    }
  }

  @Test
  void alicesDelegationTokensActAsAliceAtBothClustersAndOnlyAsAlice() throws Exception {
    byte[] data = data(KerberizedClusters.BLOCK_SIZE * 3 / 2, 3);
    Path sourceFile = new Path("/user/alice/to-copy.bin");
    Path destinationFile = new Path("/user/alice/copied-with-a-token.bin");
    clusters.asUser("alice", () -> {
      try (FileSystem source =
          FileSystem.newInstance(clusters.sourceUri("/"), clusters.configuration())) {
        write(source, sourceFile, data);
      }
      return null;
    });

    UserGroupInformation tokenHolder = tokenUser("alice", aliceTokens());
    try {
      tokenHolder.doAs((PrivilegedExceptionAction<?>) () -> {
        try (FileSystem source =
                FileSystem.newInstance(clusters.sourceUri("/"), clusters.configuration());
            FileSystem destination =
                FileSystem.newInstance(clusters.destinationUri("/"), clusters.configuration())) {
          // Block reads and writes at the datanodes: SASL with the block tokens the NameNodes
          // hand out to the token's owner.
          byte[] copied = read(source, sourceFile);
          assertSameBytes(copied, data);
          write(destination, destinationFile, copied);
          assertThatThrownBy(() -> read(source, SECRET_FILE))
              .isInstanceOf(AccessControlException.class);
          assertThatThrownBy(() -> read(destination, SECRET_FILE))
              .isInstanceOf(AccessControlException.class);
        }
        return null;
      });
    } finally {
      FileSystem.closeAllForUGI(tokenHolder);
    }
    assertThat(destinationOwner(destinationFile)).isEqualTo("alice");
  }

  @Test
  void theNameATokenHolderCarriesGrantsNothingTheTokenDecides() throws Exception {
    Path file = new Path("/user/alice/named-hdfs.bin");
    UserGroupInformation namedSuperuser = tokenUser("hdfs", aliceTokens());
    try {
      namedSuperuser.doAs((PrivilegedExceptionAction<?>) () -> {
        try (FileSystem destination =
            FileSystem.newInstance(clusters.destinationUri("/"), clusters.configuration())) {
          write(destination, file, data(100, 4));
          assertThatThrownBy(() -> read(destination, SECRET_FILE))
              .isInstanceOf(AccessControlException.class);
        }
        return null;
      });
    } finally {
      FileSystem.closeAllForUGI(namedSuperuser);
    }
    assertThat(destinationOwner(file)).isEqualTo("alice");
  }

  @Test
  void theConfigurationDirectoryAloneReachesBothClusters() throws Exception {
    java.nio.file.Path directory = baseDirectory.resolve("client-configuration");
    clusters.writeConfigurationDirectory(directory);
    Configuration configuration = new Configuration();
    configuration.addResource(new Path(directory.resolve("core-site.xml").toUri()));
    configuration.addResource(new Path(directory.resolve("hdfs-site.xml").toUri()));

    assertThat(configuration.get("fs.defaultFS")).isEqualTo(clusters.sourceUri("").toString());
    // A client's files, not the servers': no keytab goes to a client.
    assertThat(Files.readString(directory.resolve("hdfs-site.xml")))
        .doesNotContain("keytab")
        .contains("dfs.data.transfer.protection");
    byte[] data = data(KerberizedClusters.BLOCK_SIZE + 1, 5);
    clusters.asUser("bob", () -> {
      try (FileSystem source = FileSystem.newInstance(configuration);
          FileSystem destination =
              FileSystem.newInstance(clusters.destinationUri("/"), configuration)) {
        write(source, new Path("/user/bob/configured.bin"), data);
        write(destination, new Path("/user/bob/configured.bin"), data);
        assertSameBytes(read(destination, new Path("/user/bob/configured.bin")), data);
        assertThat(source.getFileStatus(new Path("/user/bob/configured.bin")).getOwner())
            .isEqualTo("bob");
      }
      return null;
    });
  }

  /**
   * Alice's delegation tokens for both clusters, renewable by alice, as bytes: what a client
   * would hand a relay, which has no Kerberos login of alice's.
   */
  private static byte[] aliceTokens() throws Exception {
    return clusters.asUser("alice", () -> {
      Credentials credentials = new Credentials();
      for (URI cluster : bothClusters()) {
        try (FileSystem fileSystem = FileSystem.newInstance(cluster, clusters.configuration())) {
          fileSystem.addDelegationTokens("alice", credentials);
        }
      }
      assertThat(credentials.numberOfTokens()).isEqualTo(2);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        credentials.writeTokenStorageToStream(out);
      }
      return bytes.toByteArray();
    });
  }

  /** A user named {@code name} whose only credentials are the serialized {@code tokens}. */
  private static UserGroupInformation tokenUser(String name, byte[] tokens) throws IOException {
    Credentials credentials = new Credentials();
    credentials.readTokenStorageStream(new DataInputStream(new ByteArrayInputStream(tokens)));
    UserGroupInformation user = UserGroupInformation.createRemoteUser(name);
    user.addCredentials(credentials);
    return user;
  }

  private static String destinationOwner(Path file) throws Exception {
    return clusters.asSuperuser(() -> {
      try (FileSystem destination =
          FileSystem.newInstance(clusters.destinationUri("/"), clusters.configuration())) {
        return destination.getFileStatus(file).getOwner();
      }
    });
  }

  private static List<URI> bothClusters() {
    return List.of(clusters.sourceUri("/"), clusters.destinationUri("/"));
  }

  private static byte[] data(long length, long seed) {
    byte[] data = new byte[Math.toIntExact(length)];
    new Random(seed).nextBytes(data);
    return data;
  }

  private static void write(FileSystem fileSystem, Path file, byte[] data) throws IOException {
    try (FSDataOutputStream out = fileSystem.create(file, true)) {
      out.write(data);
    }
  }

  private static byte[] read(FileSystem fileSystem, Path file) throws IOException {
    try (FSDataInputStream in = fileSystem.open(file)) {
      return in.readAllBytes();
    }
  }

  /** Compares without printing megabytes when they differ. */
  private static void assertSameBytes(byte[] actual, byte[] expected) {
    assertThat(actual.length).as("length").isEqualTo(expected.length);
    assertThat(Arrays.mismatch(actual, expected)).as("first differing byte").isEqualTo(-1);
  }
}
