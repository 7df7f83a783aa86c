package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.testkit.HighlyAvailableHdfs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * YARN relays between kerberized clusters that each run two NameNodes behind a nameservice
 * ({@code hdfs://src}, {@code hdfs://dst}), as production clusters run: HDFS issues delegation
 * tokens for the nameservice ({@code ha-hdfs:src}), which serve at either NameNode, the
 * ResourceManager renews them through the failover proxy, and the relays' clients find them by
 * the nameservice's name. Kerberos state is JVM-wide: this class runs in a fork of its own,
 * as every integration test class does (relaycp/pom.xml).
 */
class KerberizedHighAvailabilityYarnRelaysIT extends KerberizedYarnSites {
  private static final String TARGET = "/user/alice/failed-over";

  @BeforeAll
  static void start() throws Exception {
    startSites(true);
  }

  /**
   * An Oozie launcher's driver (alice's tokens for both nameservices and the ResourceManager,
   * no Kerberos login) copies through YARN relays on both sites, and both clusters fail over
   * to their other NameNode while the relays copy: the copy verifies, the files are alice's,
   * and nothing is left running or staged.
   */
  @Test
  void aLauncherCopiesBetweenNameservicesThroughYarnRelaysWhileBothClustersFailOver()
      throws Exception {
    Path tokens = base.resolve("launcher.tokens");
    Credentials launcher = writeLauncherTokens(tokens);
    assertThat(launcher.getAllTokens()).extracting(token -> token.getService().toString())
        .as("tokens for the nameservices, not for a NameNode")
        .contains("ha-hdfs:src", "ha-hdfs:dst");

    // About 12 s of copying at 128 KiB/s a relay, so that the failovers fall within it.
    Process driver = startWithTokens("launcher", List.of("copy",
        clusters.sourceUri("/shared/data").toString(), clusters.destinationUri(TARGET).toString(),
        "--relays", "yarn", "--json", "--no-progress", "--no-history",
        "-D", "relaycp.relay.parallel-streams=1",
        "-D", "relaycp.relay.bytes-per-second-limit=131072"), tokens);
    awaitRelaysOfBothSites(driver);
    HighlyAvailableHdfs.failOver(clusters.source());
    HighlyAvailableHdfs.failOver(clusters.destination());
    assertThat(driver.isAlive()).as("the copy runs when both clusters have failed over")
        .isTrue();
    Run copy = waitFor("launcher", driver);

    assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isZero();
    JsonNode summary = new ObjectMapper().readTree(copy.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("yarn");
    assertThat(summary.get("files").asInt()).isEqualTo(FILES.size());
    assertThat(clusters.source().getNameNode(1).isActiveState()).as("src's second NameNode")
        .isTrue();
    assertThat(clusters.destination().getNameNode(1).isActiveState())
        .as("dst's second NameNode").isTrue();
    assertCopiedAsAlice(TARGET);
    assertNothingLeft("relaycp hdfs://src/", System.getProperty("user.name"), TARGET);
  }

  /** Waits until both sites' ApplicationMaster containers and a relay of each run. */
  private static void awaitRelaysOfBothSites(Process driver) throws Exception {
    clusters.asSuperuser(() -> {
      try (YarnClient client = YarnClient.createYarnClient()) {
        client.init(yarn.getConfig());
        client.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
          List<ApplicationReport> applications =
              client.getApplications(java.util.Set.of(YarnSite.APPLICATION_TYPE)).stream()
                  .filter(application -> application.getName().endsWith(TARGET))
                  .toList();
          if (liveContainers(client, applications) >= 4) {
            return null;
          }
          assertThat(driver.isAlive()).as(Files.readString(base.resolve("launcher.err")))
              .isTrue();
          assertThat(System.nanoTime()).as("the relays run").isLessThan(deadline);
          Thread.sleep(200);
        }
      }
    });
  }
}
