package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.provision.spawn.AwsClients;
import dev.relaycp.provision.spawn.Ec2Settings;
import dev.relaycp.provision.spawn.MotoServer;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;

/**
 * Copies whose spawned relays are EC2 instances of moto's emulated EC2 and SSM: moto starts no
 * machine, so no spawned relay ever answers; what is checked is that relaycp asks for the
 * hosts and, however the copy ends, terminates every instance and deletes the secret.
 */
class SpawnedAwsCopyTest {
  static MotoServer moto;
  static AwsClients inspect;
  static EmbeddedClusters clusters;
  Configuration configuration;

  @BeforeAll
  static void start() throws Exception {
    moto = MotoServer.start();
    inspect = moto.clients();
    System.setProperty("aws.accessKeyId", MotoServer.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", MotoServer.SECRET_KEY);
    clusters = EmbeddedClusters.start(1, 1 << 20);
    try (OutputStream out = clusters.source().getFileSystem()
        .create(new org.apache.hadoop.fs.Path("/tiny/one.bin"))) {
      out.write(new byte[300_000]);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
    if (clusters != null) {
      clusters.close();
    }
    if (inspect != null) {
      inspect.close();
    }
    if (moto != null) {
      moto.close();
    }
  }

  @BeforeEach
  void emptyAccount() throws IOException {
    moto.reset();
    configuration = new Configuration();
    moto.spawnConfiguration().forEach(key -> configuration.set(key.getKey(), key.getValue()));
    configuration.setBoolean(Ec2Settings.USE_PRIVATE_ADDRESS, true);
  }

  record Result(int exitCode, String out, String err) {}

  Result run(String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(configuration),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute(arguments);
    return new Result(code, out.toString(), err.toString());
  }

  List<Instance> instances(String region) {
    List<Instance> instances = new ArrayList<>();
    inspect.ec2(region).describeInstances().reservations()
        .forEach(reservation -> instances.addAll(reservation.instances()));
    return instances;
  }

  void assertNothingLeft() {
    for (String region : List.of(MotoServer.SOURCE_REGION, MotoServer.DESTINATION_REGION)) {
      assertThat(instances(region)).as("instances in %s", region).isNotEmpty()
          .allSatisfy(instance -> assertThat(instance.state().name())
              .isIn(InstanceStateName.TERMINATED, InstanceStateName.SHUTTING_DOWN));
      assertThat(inspect.ssm(region).describeParameters().parameters())
          .as("secret parameters in %s", region).isEmpty();
    }
  }

  @Test
  void aCopyThatSucceedsTerminatesEverySpawnedInstanceAndDeletesTheSecret() throws Exception {
    Result result = run("copy", clusters.sourceUri("/tiny").toString(),
        clusters.destinationUri("/copied").toString(), "--json", "--no-progress",
        "--no-history", "--local-relays", "1", "--spawn", "1", "--spawn-backend", "aws",
        "--spawn-timeout", "5s");

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(result.out());
    assertThat(summary.get("provisioner").asText()).isEqualTo("local+aws");
    JsonNode spawned = summary.get("spawned");
    assertThat(spawned.get("backend").asText()).isEqualTo("aws");
    assertThat(spawned.get("allReleased").asBoolean()).isTrue();
    for (JsonNode host : spawned.get("hosts")) {
      assertThat(host.get("outcome").asText()).as(host.toString()).isIn("unused", "timed_out");
      // A copy this small may end while an instance's launch is still being asked for: that
      // host has no instance on record, and assertNothingLeft finds whatever was launched
      // ended all the same.
      if (!host.get("handle").isNull()) {
        assertThat(host.get("handle").asText()).startsWith("i-");
        assertThat(host.get("machineType").asText()).isIn("t2.micro", "t2.small");
      } else {
        assertThat(host.get("outcome").asText()).as(host.toString()).isEqualTo("unused");
      }
    }
    assertNothingLeft();
  }

  @Test
  void aCopyThatFailsTerminatesEverySpawnedInstanceAndDeletesTheSecret() throws Exception {
    Result result = run("copy", clusters.sourceUri("/tiny").toString(),
        clusters.destinationUri("/never").toString(), "--no-progress", "--no-history",
        "--spawn", "1", "--spawn-backend", "aws", "--spawn-timeout", "3s");

    assertThat(result.exitCode()).as(result.out()).isEqualTo(ExitCodes.EXTERNAL);
    assertThat(result.err()).contains("no spawned relay pair came up through aws");
    assertThat(clusters.destination().getFileSystem()
        .exists(new org.apache.hadoop.fs.Path("/never"))).isFalse();
    assertNothingLeft();
  }
}
