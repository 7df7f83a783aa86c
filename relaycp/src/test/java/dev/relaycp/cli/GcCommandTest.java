package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.provision.spawn.AwsClients;
import dev.relaycp.provision.spawn.Ec2HostSpawner;
import dev.relaycp.provision.spawn.Ec2Settings;
import dev.relaycp.provision.spawn.HostSpawner;
import dev.relaycp.provision.spawn.MotoServer;
import dev.relaycp.provision.spawn.SpawnContext;
import dev.relaycp.provision.spawn.SpawnSlot;
import dev.relaycp.provision.spawn.SpawnedHost;
import dev.relaycp.relay.TransferSecret;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * {@code relaycp gc} against moto: what a transfer that is over left (a "killed driver": a
 * spawner dropped without release or close) is removed, a running transfer's is spared.
 */
class GcCommandTest {
  static MotoServer moto;
  static AwsClients inspect;
  @TempDir Path temporary;
  Configuration configuration;
  final List<HostSpawner> running = new ArrayList<>();

  @BeforeAll
  static void startMoto() throws Exception {
    moto = MotoServer.start();
    inspect = moto.clients();
  }

  @AfterAll
  static void stopMoto() throws Exception {
    if (inspect != null) {
      inspect.close();
    }
    if (moto != null) {
      moto.close();
    }
  }

  @BeforeEach
  void emptyAccount() throws Exception {
    moto.reset();
    configuration = moto.spawnConfiguration();
  }

  @AfterEach
  void closeRunningTransfers() {
    running.forEach(HostSpawner::close);
  }

  @Test
  void removesWhatAnExpiredTransferLeftAndSparesARunningOne() throws Exception {
    Left over = killedDriver(Instant.now().minus(Duration.ofMinutes(5)));
    Left live = runningTransfer(Instant.now().plus(Duration.ofHours(1)));

    Run gc = gc("--region", MotoServer.SOURCE_REGION + "," + MotoServer.DESTINATION_REGION);

    assertThat(gc.exitCode()).isZero();
    assertThat(gc.out().lines()).containsExactly(
        line("terminated", "instance", MotoServer.SOURCE_REGION, over.source().handle(), over),
        line("terminated", "instance", MotoServer.DESTINATION_REGION,
            over.destination().handle(), over),
        line("deleted", "parameter", MotoServer.SOURCE_REGION, over.parameter(), over),
        line("deleted", "parameter", MotoServer.DESTINATION_REGION, over.parameter(), over));
    assertThat(state(over.source())).isEqualTo(InstanceStateName.TERMINATED);
    assertThat(state(over.destination())).isEqualTo(InstanceStateName.TERMINATED);
    assertThat(parameterExists(MotoServer.SOURCE_REGION, over)).isFalse();
    assertThat(parameterExists(MotoServer.DESTINATION_REGION, over)).isFalse();
    assertThat(state(live.source())).isEqualTo(InstanceStateName.RUNNING);
    assertThat(state(live.destination())).isEqualTo(InstanceStateName.RUNNING);
    assertThat(parameterExists(MotoServer.SOURCE_REGION, live)).isTrue();
    assertThat(parameterExists(MotoServer.DESTINATION_REGION, live)).isTrue();

    Run again = gc("--region", MotoServer.SOURCE_REGION);
    assertThat(again.exitCode()).isZero();
    assertThat(again.out()).startsWith("nothing to remove in us-west-2");
  }

  @Test
  void dryRunListsAKilledDriversInstanceWithoutTerminatingIt() throws Exception {
    Left over = killedDriver(Instant.now().minus(Duration.ofMinutes(5)));

    // Regions from the configuration, as a user's relaycp-site.xml gives them.
    Run gc = gc("--dry-run", "--json");

    assertThat(gc.exitCode()).isZero();
    JsonNode json = new ObjectMapper().readTree(gc.out());
    assertThat(json.get("dryRun").asBoolean()).isTrue();
    assertThat(json.get("regions")).extracting(JsonNode::asText)
        .containsExactly(MotoServer.SOURCE_REGION, MotoServer.DESTINATION_REGION);
    assertThat(json.get("resources")).hasSize(4);
    JsonNode instance = json.get("resources").get(0);
    assertThat(instance.get("kind").asText()).isEqualTo("instance");
    assertThat(instance.get("id").asText()).isEqualTo(over.source().handle());
    assertThat(instance.get("transferId").asText()).isEqualTo(over.context().transferId());
    assertThat(instance.get("expiresAt").asText())
        .isEqualTo(over.context().expiresAt().toString());
    assertThat(instance.get("state").asText()).isEqualTo("running");
    assertThat(instance.get("removed").asBoolean()).isFalse();
    assertThat(json.get("resources").get(3).get("kind").asText()).isEqualTo("parameter");

    assertThat(state(over.source())).isEqualTo(InstanceStateName.RUNNING);
    assertThat(state(over.destination())).isEqualTo(InstanceStateName.RUNNING);
    assertThat(parameterExists(MotoServer.SOURCE_REGION, over)).isTrue();
  }

  @Test
  void olderThanSparesTransfersThatEndedMoreRecently() throws Exception {
    Left recent = killedDriver(Instant.now().minus(Duration.ofMinutes(10)));

    Run spared = gc("--older-than", "1h", "--region", MotoServer.SOURCE_REGION);
    assertThat(spared.exitCode()).isZero();
    assertThat(spared.out()).startsWith("nothing to remove");
    assertThat(state(recent.source())).isEqualTo(InstanceStateName.RUNNING);

    Run removed = gc("--older-than", "5m", "--region", MotoServer.SOURCE_REGION);
    assertThat(removed.exitCode()).isZero();
    assertThat(removed.out().lines()).hasSize(2)
        .allSatisfy(each -> assertThat(each).contains(recent.context().transferId()));
    assertThat(state(recent.source())).isEqualTo(InstanceStateName.TERMINATED);
  }

  @Test
  void withoutARegionItAsksForOne() {
    configuration = new Configuration(false);

    Run gc = gc("--dry-run");

    assertThat(gc.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(gc.err()).contains("--region");
  }

  @Test
  void agesAreReadInTheirUsualForms() {
    assertThat(GcCommand.parseAge("0")).isEqualTo(Duration.ZERO);
    assertThat(GcCommand.parseAge("90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(GcCommand.parseAge("30m")).isEqualTo(Duration.ofMinutes(30));
    assertThat(GcCommand.parseAge("12h")).isEqualTo(Duration.ofHours(12));
    assertThat(GcCommand.parseAge("2d")).isEqualTo(Duration.ofDays(2));
    assertThat(GcCommand.parseAge("PT1H30M")).isEqualTo(Duration.ofMinutes(90));
    assertThatThrownBy(() -> GcCommand.parseAge("soon"))
        .isInstanceOf(RelayCpException.class)
        .hasMessage("--older-than soon is not a duration of 0 or more; write e.g. 90s, 30m,"
            + " 12h, 2d or PT1H");
  }

  /** What one transfer spawned: a host per site, and its secret parameter. */
  record Left(SpawnContext context, SpawnedHost source, SpawnedHost destination,
      String parameter) {}

  /** A transfer whose driver died: its spawner is dropped, nothing released or closed. */
  private Left killedDriver(Instant expiresAt) throws Exception {
    SpawnContext context = context(expiresAt);
    return spawnPair(spawner(context), context);
  }

  /** A transfer still running: its spawner is closed after the test. */
  private Left runningTransfer(Instant expiresAt) throws Exception {
    SpawnContext context = context(expiresAt);
    HostSpawner spawner = spawner(context);
    running.add(spawner);
    return spawnPair(spawner, context);
  }

  private SpawnContext context(Instant expiresAt) throws Exception {
    String transferId = UUID.randomUUID().toString();
    TransferSecret secret = TransferSecret.generate();
    Path secretFile = temporary.resolve(transferId);
    secret.writeTo(secretFile);
    return new SpawnContext(transferId, secret, secretFile, Duration.ofSeconds(60), expiresAt,
        Map.of("src", "hdfs://nn-a:8020/hb/" + transferId,
            "dst", "hdfs://nn-b:8020/hb/" + transferId), Optional.empty());
  }

  private HostSpawner spawner(SpawnContext context) {
    return Ec2HostSpawner.open(Ec2Settings.from(configuration), context, moto.clients(),
        Clock.systemUTC());
  }

  private static Left spawnPair(HostSpawner spawner, SpawnContext context) {
    SpawnedHost source = spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0));
    SpawnedHost destination = spawner.spawn(context.slot(SpawnSlot.DESTINATION_SITE, 0));
    return new Left(context, source, destination,
        Ec2HostSpawner.parameterName(Ec2Settings.DEFAULT_PARAMETER_PREFIX, context.transferId()));
  }

  private static String line(String action, String kind, String region, String id, Left left) {
    return String.format("%-9s %-9s %-10s %s transfer=%s expires=%s%s", action, kind, region, id,
        left.context().transferId(), left.context().expiresAt(),
        kind.equals("instance") ? " state=running" : "");
  }

  private static InstanceStateName state(SpawnedHost host) {
    String region = host.slot().site().equals(SpawnSlot.SOURCE_SITE)
        ? MotoServer.SOURCE_REGION : MotoServer.DESTINATION_REGION;
    return inspect.ec2(region).describeInstances(request -> request.instanceIds(host.handle()))
        .reservations().get(0).instances().get(0).state().name();
  }

  private static boolean parameterExists(String region, Left left) {
    try {
      inspect.ssm(region).getParameter(request -> request.name(left.parameter()));
      return true;
    } catch (ParameterNotFoundException e) {
      return false;
    }
  }

  record Run(int exitCode, String out, String err) {}

  private Run gc(String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args = new ArrayList<>(List.of("gc"));
    args.addAll(List.of(arguments));
    configuration.forEach(entry -> {
      args.add("-D");
      args.add(entry.getKey() + "=" + entry.getValue());
    });
    int exitCode = RelayCpTool.commandLine(new RelayCpCommand(new Configuration(false)),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute(args.toArray(String[]::new));
    return new Run(exitCode, out.toString(), err.toString());
  }
}
