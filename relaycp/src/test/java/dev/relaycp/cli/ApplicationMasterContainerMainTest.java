package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.fs.HeartbeatFile;
import dev.relaycp.provision.RelaySettingsVariable;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApplicationMasterContainerMainTest {
  @TempDir Path folder;
  final StringWriter err = new StringWriter();

  int run(UserGroupInformation user, String... arguments) throws Exception {
    Map<String, String> environment = Map.of(RelaySettingsVariable.NAME,
        RelaySettingsVariable.encode(Map.of("relaycp.relay.driver-timeout-seconds", "60")));
    return user.doAs((PrivilegedExceptionAction<Integer>) () ->
        ApplicationMasterContainerMain.run(arguments, environment, new PrintWriter(err, true)));
  }

  /** The ApplicationMaster container's user, holding its AMRM token and an HDFS token. */
  static UserGroupInformation masterWith(Token<?> amrm) {
    UserGroupInformation master = UserGroupInformation.createRemoteUser("alice");
    master.addToken(amrm);
    master.addToken(new Token<>(new byte[] {4}, new byte[] {5}, new Text("HDFS_DELEGATION_TOKEN"),
        new Text("nn:8020")));
    return master;
  }

  static Token<AMRMTokenIdentifier> amrmToken() {
    return new Token<>(new byte[] {1, 2, 3}, new byte[] {9, 8, 7}, AMRMTokenIdentifier.KIND_NAME,
        new Text("rm:8030"));
  }

  @Test
  void handsItsTokenOnToItsOwnerAloneAndLeavesOnceTheDriverRemovedItsHeartbeat()
      throws Exception {
    Path tokenFile = folder.resolve("application-master.token");
    Path heartbeat = folder.resolve("heartbeat");
    FileSystem local = FileSystem.getLocal(new Configuration());
    HeartbeatFile.at(local, new org.apache.hadoop.fs.Path(heartbeat.toUri())).create();
    Token<AMRMTokenIdentifier> token = amrmToken();

    CompletableFuture<Integer> master = CompletableFuture.supplyAsync(() -> {
      try {
        return run(masterWith(token), tokenFile.toUri().toString(),
            heartbeat.toUri().toString());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(tokenFile)) {
      assertThat(master).as(err.toString()).isNotDone();
      assertThat(System.nanoTime()).as("the token is handed on").isLessThan(deadline);
      Thread.sleep(50);
    }

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
        .isEqualTo("rw-------");
    Credentials handed = Credentials.readTokenStorageFile(tokenFile.toFile(),
        new Configuration());
    assertThat(handed.getAllTokens()).as("the AMRM token alone").containsExactly(token);
    assertThat(master).as("it stays while the heartbeat is there").isNotDone();

    Files.delete(heartbeat);
    assertThat(master.get(30, TimeUnit.SECONDS)).isEqualTo(ExitCodes.OK);
  }

  @Test
  void aContainerWithoutAnAmrmTokenSaysSoAndHandsNothingOn() throws Exception {
    Path tokenFile = folder.resolve("application-master.token");
    UserGroupInformation noToken = UserGroupInformation.createRemoteUser("alice");

    int exit = run(noToken, tokenFile.toUri().toString(), folder.resolve("heartbeat").toString());

    assertThat(exit).isEqualTo(ExitCodes.EXTERNAL);
    assertThat(err.toString()).startsWith("relaycp: the ApplicationMaster container holds no"
        + " AMRM token");
    assertThat(tokenFile).doesNotExist();
  }

  @Test
  void aWrongNumberOfArgumentsIsAUsageError() throws Exception {
    int exit = run(masterWith(amrmToken()), "only-one");

    assertThat(exit).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("takes 2 arguments").contains("got 1");
  }
}
