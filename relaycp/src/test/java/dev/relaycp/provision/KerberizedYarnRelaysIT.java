package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.config.RelayKeys;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.KerberizedClusters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * YARN relays on kerberized clusters: a KDC, two kerberized HDFS clusters ({@link
 * KerberizedClusters}) and a kerberized ResourceManager with two NodeManagers serving both
 * sites; the driver logs in as alice from her keytab, as a user's scheduled copy would, and
 * each site's ApplicationMaster runs in a container that hands its token on to the driver
 * (YARN gives an unmanaged one's to no Kerberos caller). Kerberos state is JVM-wide: this
 * class runs in a fork of its own, as every integration test class does (relaycp/pom.xml).
 */
class KerberizedYarnRelaysIT extends KerberizedYarnSites {
  @BeforeAll
  static void start() throws Exception {
    startSites(false);
  }

  /**
   * alice copies through YARN relays on both sites: YARN gives an unmanaged ApplicationMaster's
   * token to no Kerberos caller (alice@REALM is not the application's user, alice), so each
   * site's ApplicationMaster runs in a container that hands its token on to the driver. The
   * relay containers hold no Kerberos login, only the tokens in their launch credentials, and
   * the files they write are alice's; nothing is left running or staged.
   */
  @Test
  void aliceCopiesThroughYarnRelaysOnKerberizedYarnAndTheCopiesAreHers() throws Exception {
    Run copy = runAsAlice("copy", List.of("copy",
        clusters.sourceUri("/shared/data").toString(),
        clusters.destinationUri("/user/alice/copy").toString(),
        "--relays", "yarn", "--json", "--no-progress", "--no-history"));

    assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isZero();
    JsonNode summary = new ObjectMapper().readTree(copy.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("yarn");
    assertThat(summary.get("files").asInt()).isEqualTo(FILES.size());
    assertThat(summary.get("relaysStarted").get("src").asInt()).isPositive();
    assertThat(summary.get("relaysStarted").get("dst").asInt()).isPositive();
    assertCopiedAsAlice("/user/alice/copy");
    assertNothingLeft("relaycp hdfs://", "alice", "/user/alice/copy");
  }

  /**
   * A driver that holds delegation tokens and no Kerberos login, as an Oozie launcher's action
   * does, copies through YARN relays: each site's ApplicationMaster container gets the HDFS
   * token the driver holds (taken with the ResourceManager as renewer, as Oozie takes them),
   * since asking for a new one needs a Kerberos login, and YARN leaves that token valid when the
   * applications end: it is the launcher's, for what its workflow does next.
   */
  @Test
  void aDriverHoldingOnlyTokensCopiesThroughYarnRelaysAndItsTokensOutliveTheCopy()
      throws Exception {
    Path tokens = base.resolve("launcher.tokens");
    Credentials launcher = writeLauncherTokens(tokens);
    assertThat(launcher.numberOfTokens()).as("two clusters' tokens and YARN's").isEqualTo(3);

    Run copy = waitFor("launcher", startWithTokens("launcher", List.of("copy",
        clusters.sourceUri("/shared/data").toString(),
        clusters.destinationUri("/user/alice/launcher").toString(),
        "--relays", "yarn", "--json", "--no-progress", "--no-history"), tokens));

    assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isZero();
    JsonNode summary = new ObjectMapper().readTree(copy.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("yarn");
    assertCopiedAsAlice("/user/alice/launcher");
    // A launcher's process runs as its container's user, not as alice by name: its staging
    // folder is that user's.
    assertNothingLeft(
        "relaycp hdfs://", System.getProperty("user.name"), "/user/alice/launcher");
    // The tokens still work once YARN has ended both applications, for as long as YARN takes
    // to cancel an ended application's tokens (it hands them to a thread of its own).
    clusters.asSuperuser(() -> {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      do {
        for (Token<? extends TokenIdentifier> token : launcher.getAllTokens()) {
          if (token.getKind().equals(DelegationTokenIdentifier.HDFS_DELEGATION_KIND)) {
            assertThat(token.renew(clusters.configuration()))
                .as(token.getService().toString()).isGreaterThan(System.currentTimeMillis());
          }
        }
        Thread.sleep(500);
      } while (System.nanoTime() < deadline);
      return null;
    });
  }

  /**
   * A launcher's driver (tokens only) lets YARN start relays on one cluster and copies through
   * relays that run already on the other, as a service logged in as itself (the relay processes
   * here log in as the clusters' service principal): the relays act for alice with the tokens
   * the driver hands them, the files are hers, and one application only was submitted.
   */
  @Test
  void aDriverHoldingOnlyTokensCopiesThroughYarnRelaysIntoRelaysRunningOnTheOtherCluster()
      throws Exception {
    writeLauncherTokens(base.resolve("across.tokens"));
    Path secretFile = base.resolve("across.secret");
    TransferSecret.generate().writeTo(secretFile);
    Map<String, String> properties = new LinkedHashMap<>();
    for (String key : List.of(
        CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION,
        CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTH_TO_LOCAL,
        DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY,
        DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY)) {
      properties.put(key, clusters.configuration().get(key));
    }
    properties.put(RelayKeys.RELAY_JAVA_OPTS.key(),
        "-Djava.security.krb5.conf=" + clusters.krb5Conf());
    try (LocalRelayProcesses running = LocalRelayProcesses.start(1, secretFile, properties,
        List.of("--principal", clusters.servicePrincipal(),
            "--keytab", clusters.serviceKeytab().toString()), Optional.empty())) {
      String writer = running.routes().get(0).writer().toString();

      Run copy = waitFor("across", startWithTokens("across", List.of("copy",
          clusters.sourceUri("/shared/data").toString(),
          clusters.destinationUri("/user/alice/across").toString(),
          "--relays", "yarn", "--dst-relays", writer, "--secret-file", secretFile.toString(),
          "--json", "--no-progress", "--no-history"), base.resolve("across.tokens")));

      assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isZero();
      JsonNode summary = new ObjectMapper().readTree(copy.out());
      assertThat(summary.get("verified").asBoolean()).isTrue();
      assertThat(summary.get("relaysStarted").get("src").asInt()).isPositive();
      assertThat(summary.get("relaysStarted").get("dst").asInt()).isZero();
      assertCopiedAsAlice("/user/alice/across");
      assertNothingLeft(
          "relaycp hdfs://", System.getProperty("user.name"), "/user/alice/across", 1);
    }
  }

  /**
   * A driver killed outright: its ApplicationMaster containers, like its relays, stop once its
   * heartbeat is stale for the driver timeout, and YARN ends the applications with them; no
   * container is left.
   */
  @Test
  void afterTheDriverIsKilledNoContainerOutlivesTheDriverTimeout() throws Exception {
    Process driver = startAsAlice("killed", List.of("copy",
        clusters.sourceUri("/shared/data").toString(),
        clusters.destinationUri("/user/alice/killed").toString(),
        "--relays", "yarn", "--no-progress", "--no-history",
        "-D", YarnRelaySettings.DRIVER_TIMEOUT + "=10",
        "-D", "relaycp.relay.parallel-streams=1",
        "-D", "relaycp.relay.bytes-per-second-limit=65536"));
    clusters.asSuperuser(() -> {
      try (YarnClient client = YarnClient.createYarnClient()) {
        client.init(yarn.getConfig());
        client.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        List<ApplicationReport> applications = copiesTo(client, "/user/alice/killed");
        // Both sites' ApplicationMaster containers and a relay of each.
        while (liveContainers(client, applications) < 4) {
          assertThat(driver.isAlive()).as(Files.readString(base.resolve("killed.err")))
              .isTrue();
          assertThat(System.nanoTime()).as("the relays run").isLessThan(deadline);
          Thread.sleep(200);
          applications = copiesTo(client, "/user/alice/killed");
        }
        driver.destroyForcibly().waitFor();

        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (liveContainers(client, applications) > 0 && System.nanoTime() < deadline) {
          Thread.sleep(500);
        }
        assertThat(liveContainers(client, applications))
            .as("containers of the killed driver's applications").isZero();
        for (ApplicationReport application : copiesTo(client, "/user/alice/killed")) {
          assertThat(application.getYarnApplicationState()).as(application.getName())
              .isIn(YarnApplicationState.FAILED, YarnApplicationState.KILLED,
                  YarnApplicationState.FINISHED);
        }
      }
      return null;
    });
  }

  /** The relay applications of copies into {@code target} on the destination. */
  private static List<ApplicationReport> copiesTo(YarnClient client, String target)
      throws Exception {
    return client.getApplications(java.util.Set.of(YarnSite.APPLICATION_TYPE)).stream()
        .filter(application -> application.getName().endsWith(target))
        .toList();
  }

  /**
   * A relay pool on kerberized YARN: its containers come up through ApplicationMaster
   * containers as a copy's do, a copy through the pool verifies, and removing the pool file
   * ends the pool and leaves nothing running or staged.
   */
  @Test
  void aRelayPoolOnKerberizedYarnServesACopyAndEndsWhenItsFileIsRemoved() throws Exception {
    Path poolFile = base.resolve("pool.json");
    Process pool = startAsAlice("pool", List.of("relay-pool", "--pool-file",
        poolFile.toString(), "--for", "10m"));
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.exists(poolFile)) {
        assertThat(pool.isAlive()).as(Files.readString(base.resolve("pool.err"))).isTrue();
        assertThat(System.nanoTime()).as("the pool file is written").isLessThan(deadline);
        Thread.sleep(200);
      }
      Run copy = runAsAlice("pool-copy", List.of("copy",
          clusters.sourceUri("/shared/data").toString(),
          clusters.destinationUri("/user/alice/pool-copy").toString(),
          "--relay-pool", poolFile.toString(), "--json", "--no-progress", "--no-history"));

      assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isZero();
      JsonNode summary = new ObjectMapper().readTree(copy.out());
      assertThat(summary.get("verified").asBoolean()).isTrue();
      assertThat(summary.get("provisioner").asText()).isEqualTo("yarn-pool");
      assertThat(summary.get("files").asInt()).isEqualTo(FILES.size());
    } finally {
      Files.deleteIfExists(poolFile);
    }
    assertThat(pool.waitFor(60, TimeUnit.SECONDS)).as("the pool ends").isTrue();
    assertThat(pool.exitValue()).as(Files.readString(base.resolve("pool.err"))).isZero();
    assertNothingLeft("relaycp relay pool ", "alice", "");
  }

}
