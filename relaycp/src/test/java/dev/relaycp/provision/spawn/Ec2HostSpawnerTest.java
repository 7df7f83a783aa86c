package dev.relaycp.provision.spawn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceAttributeName;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ssm.model.Parameter;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;
import software.amazon.awssdk.services.ssm.model.ParameterType;
import software.amazon.awssdk.services.ssm.model.ResourceTypeForTagging;

/** The aws backend against moto's EC2 and SSM: the contract, and what only EC2 has. */
class Ec2HostSpawnerTest extends HostSpawnerContract {
  static MotoServer moto;
  static AwsClients inspect;
  Configuration configuration;

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

  @Override
  protected HostSpawner newSpawner(SpawnContext context) {
    return Ec2HostSpawner.open(Ec2Settings.from(configuration), context, moto.clients(),
        Clock.systemUTC());
  }

  @Override
  protected void assertRunning(SpawnedHost host) {
    assertThat(instance(host).state().name()).isEqualTo(InstanceStateName.RUNNING);
  }

  @Override
  protected void assertReleased(SpawnedHost host) {
    assertThat(instance(host).state().name())
        .isIn(InstanceStateName.SHUTTING_DOWN, InstanceStateName.TERMINATED);
  }

  @Test
  void launchesTheTypeWithTagsAndUserDataThatReadTheSecretAndTlsIdentityFromSsm()
      throws Exception {
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);

    SpawnedHost host = spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 2));

    Instance instance = instance(host);
    assertThat(instance.instanceTypeAsString()).isEqualTo("t2.micro").isEqualTo(host.machineType());
    assertThat(host.address()).hasToString(instance.publicIpAddress() + ":7070");
    assertThat(instance.subnetId())
        .isEqualTo(configuration.get("relaycp.spawn.aws.src.subnet"));
    assertThat(instance.iamInstanceProfile().arn()).endsWith("relaycp-relay");
    Map<String, String> tags = tags(instance);
    assertThat(tags).containsEntry("relaycp:transfer", context.transferId())
        .containsEntry("relaycp:expires", context.expiresAt().toString())
        .containsEntry("relaycp:site", "src")
        .containsEntry("relaycp:slot", "2")
        .containsEntry("Name", "relaycp src-2 " + context.transferId());
    Ec2Client ec2 = inspect.ec2(MotoServer.SOURCE_REGION);
    assertThat(ec2.describeInstanceAttribute(request -> request.instanceId(host.handle())
            .attribute(InstanceAttributeName.INSTANCE_INITIATED_SHUTDOWN_BEHAVIOR))
        .instanceInitiatedShutdownBehavior().value()).isEqualTo("terminate");

    String parameterName = "/relaycp/transfers/" + context.transferId() + "/secret";
    String identityParameterName =
        "/relaycp/transfers/" + context.transferId() + "/tls-identity";
    String pem = context.tlsIdentity().orElseThrow().pem();
    String keyBody = pem.split("\n")[1];
    String script = new String(Base64.getDecoder().decode(ec2.describeInstanceAttribute(
            request -> request.instanceId(host.handle()).attribute(InstanceAttributeName.USER_DATA))
        .userData().value()), StandardCharsets.UTF_8);
    String secretHex = secretHex(context);
    assertThat(script)
        .startsWith("#!/bin/bash")
        .contains("parameter='" + parameterName + "'")
        .contains("tls_parameter='" + identityParameterName + "'")
        .contains("--name \"$tls_parameter\" --with-decryption")
        .contains("identity=(--tls-identity-file \"$identity_file\")")
        .contains("--driver-heartbeat \"$heartbeat\" \\\n      \"${identity[@]}\"")
        .contains("region='us-west-2'")
        .contains("heartbeat='" + context.heartbeats().get("src") + "'")
        .contains("driver_timeout='60'")
        .contains("aws ssm get-parameter --region \"$region\" --name \"$parameter\" --with-decryption")
        .contains("hadoop jar /opt/relaycp/relaycp.jar relay -D relaycp.relay.driver-timeout-seconds=")
        .contains("--port \"$port\" --secret-file \"$secret_file\" --driver-heartbeat \"$heartbeat\"")
        .contains("shutdown -h now")
        .doesNotContain(secretHex)
        .doesNotContain(keyBody)
        .doesNotContain("{{");
    assertThat(tags.values()).noneMatch(value -> value.contains(secretHex));
    Process syntax = new ProcessBuilder("bash", "-n").redirectErrorStream(true).start();
    syntax.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
    syntax.getOutputStream().close();
    assertThat(syntax.waitFor()).as(new String(syntax.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8)).isZero();

    for (String region : List.of(MotoServer.SOURCE_REGION, MotoServer.DESTINATION_REGION)) {
      Parameter parameter = inspect.ssm(region).getParameter(request -> request
          .name(parameterName).withDecryption(true)).parameter();
      assertThat(parameter.type()).isEqualTo(ParameterType.SECURE_STRING);
      assertThat(parameter.value()).isEqualTo(secretHex);
      assertThat(parameterTags(region, parameterName))
          .containsEntry("relaycp:transfer", context.transferId())
          .containsEntry("relaycp:expires", context.expiresAt().toString());
      Parameter identity = inspect.ssm(region).getParameter(request -> request
          .name(identityParameterName).withDecryption(true)).parameter();
      assertThat(identity.type()).isEqualTo(ParameterType.SECURE_STRING);
      assertThat(identity.value()).isEqualTo(pem);
      assertThat(parameterTags(region, identityParameterName))
          .containsEntry("relaycp:transfer", context.transferId())
          .containsEntry("relaycp:expires", context.expiresAt().toString());
    }
    spawner.release(host);
  }

  @Test
  void destinationHostsRunInTheDestinationRegionWithItsType() throws Exception {
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);

    SpawnedHost host = spawner.spawn(context.slot(SpawnSlot.DESTINATION_SITE, 0));

    assertThat(instances(MotoServer.DESTINATION_REGION, context.transferId()))
        .singleElement()
        .satisfies(instance -> {
          assertThat(instance.instanceId()).isEqualTo(host.handle());
          assertThat(instance.instanceTypeAsString()).isEqualTo("t2.small");
        });
    assertThat(instances(MotoServer.SOURCE_REGION, context.transferId())).isEmpty();
    spawner.release(host);
  }

  @Test
  void releaseAndCloseLeaveEveryInstanceTerminatedAndTheParametersDeleted() throws Exception {
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);
    List<SpawnedHost> hosts = List.of(
        spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0)),
        spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 1)),
        spawner.spawn(context.slot(SpawnSlot.DESTINATION_SITE, 0)));

    hosts.forEach(spawner::release);
    spawner.close();

    for (String region : List.of(MotoServer.SOURCE_REGION, MotoServer.DESTINATION_REGION)) {
      assertThat(instances(region, context.transferId()))
          .isNotEmpty()
          .allSatisfy(instance -> assertThat(instance.state().name())
              .isEqualTo(InstanceStateName.TERMINATED));
      for (String parameter : List.of("secret", "tls-identity")) {
        assertThatThrownBy(() -> inspect.ssm(region).getParameter(request -> request
                .name("/relaycp/transfers/" + context.transferId() + "/" + parameter)))
            .isInstanceOf(ParameterNotFoundException.class);
      }
    }
  }

  @Test
  void aLaunchEc2RefusesLeavesNothing() throws Exception {
    configuration.set("relaycp.spawn.aws.src.subnet", "subnet-0000000000bad");
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);

    assertThatThrownBy(() -> spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0)))
        .isInstanceOfSatisfying(RelayCpException.class, failure -> {
          assertThat(failure.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
          assertThat(failure.getMessage()).contains("us-west-2", "src-0", "subnet-0000000000bad",
              "relaycp.spawn.aws.src.*");
        });
    spawner.close();

    assertThat(instances(MotoServer.SOURCE_REGION, context.transferId())).isEmpty();
    assertThat(inspect.ssm(MotoServer.SOURCE_REGION).describeParameters().parameters()).isEmpty();
  }

  @Test
  void aHostThatGetsNoAddressInTimeIsTerminated() throws Exception {
    // The subnet gives no public address and none is asked for: the host never gets one.
    configuration.set(Ec2Settings.ASSOCIATE_PUBLIC_ADDRESS, "false");
    configuration.set(Ec2Settings.START_TIMEOUT, "1");
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);

    assertThatThrownBy(() -> spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0)))
        .isInstanceOfSatisfying(RelayCpException.class, failure -> {
          assertThat(failure.code()).isEqualTo(ErrorCode.RELAY_START_FAILED);
          assertThat(failure.getMessage()).contains("src-0", "public address after 1 s",
              Ec2Settings.START_TIMEOUT);
        });

    assertThat(instances(MotoServer.SOURCE_REGION, context.transferId()))
        .singleElement()
        .satisfies(instance -> assertThat(instance.state().name())
            .isEqualTo(InstanceStateName.TERMINATED));
  }

  /**
   * EC2 starts the instance, but its answer to RunInstances never reaches the driver (the
   * connection breaks on the way back, at every try of the SDK): the spawn fails, and ends
   * what EC2 started all the same instead of leaving it to bill until relaycp gc.
   */
  @Test
  void aLaunchWhoseAnswerIsLostEndsWhatItStarted() throws Exception {
    SpawnContext context = newContext();
    try (AnswerDroppingProxy proxy =
            AnswerDroppingProxy.start(moto.endpoint(), "Action=RunInstances");
        AwsClients throughProxy = moto.clients(proxy.endpoint())) {
      HostSpawner spawner = Ec2HostSpawner.open(Ec2Settings.from(configuration), context,
          throughProxy, Clock.systemUTC());

      assertThatThrownBy(() -> spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0)))
          .isInstanceOfSatisfying(RelayCpException.class, failure -> {
            assertThat(failure.code()).isEqualTo(ErrorCode.RELAY_START_FAILED);
            assertThat(failure.getMessage()).contains("us-west-2", "src-0");
          });
      spawner.close();

      assertThat(proxy.dropped()).as("RunInstances answers kept from the driver").isPositive();
    }
    assertThat(instances(MotoServer.SOURCE_REGION, context.transferId()))
        .as("what the lost launches started")
        .isNotEmpty()
        .allSatisfy(instance -> assertThat(instance.state().name())
            .isIn(InstanceStateName.SHUTTING_DOWN, InstanceStateName.TERMINATED));
  }

  /**
   * The copy's end (or Ctrl-C) interrupts a spawn whose host still boots; the spawn then
   * terminates the instance from that interrupted thread, which the SDK refuses unless the
   * interrupt is set aside.
   */
  @Test
  void aSpawnInterruptedWhileItsHostBootsTerminatesIt() throws Exception {
    // No address ever comes, so the spawn waits until it is interrupted.
    configuration.set(Ec2Settings.ASSOCIATE_PUBLIC_ADDRESS, "false");
    configuration.set(Ec2Settings.START_TIMEOUT, "120");
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread spawning = new Thread(() -> {
      try {
        spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0));
      } catch (Throwable e) {
        failure.set(e);
      }
    }, "spawning");
    spawning.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (instances(MotoServer.SOURCE_REGION, context.transferId()).isEmpty()
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(instances(MotoServer.SOURCE_REGION, context.transferId()))
        .as("the instance, launched").hasSize(1);

    spawning.interrupt();
    spawning.join(30_000);

    assertThat(spawning.isAlive()).as("the spawn, still running").isFalse();
    assertThat(failure.get()).isInstanceOfSatisfying(RelayCpException.class,
        interrupted -> assertThat(interrupted.code()).isEqualTo(ErrorCode.INTERRUPTED));
    assertThat(instances(MotoServer.SOURCE_REGION, context.transferId()))
        .singleElement()
        .satisfies(instance -> assertThat(instance.state().name())
            .isIn(InstanceStateName.SHUTTING_DOWN, InstanceStateName.TERMINATED));
  }

  @Test
  void privateAddressesWhenTheSitesReachEachOtherPrivately() throws Exception {
    configuration.set(Ec2Settings.USE_PRIVATE_ADDRESS, "true");
    configuration.set(Ec2Settings.PORT, "7171");
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);

    SpawnedHost host = spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0));

    assertThat(host.address().host()).isEqualTo(instance(host).privateIpAddress())
        .startsWith("127.77.1.");
    assertThat(host.address().port()).isEqualTo(7171);
    spawner.release(host);
  }

  @Test
  void extendExpiryRetagsLiveInstancesAndTheParameters() throws Exception {
    SpawnContext context = newContext();
    HostSpawner spawner = open(context);
    SpawnedHost live = spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 0));
    SpawnedHost released = spawner.spawn(context.slot(SpawnSlot.SOURCE_SITE, 1));
    spawner.release(released);
    Instant later = context.expiresAt().plus(2, ChronoUnit.HOURS);

    spawner.extendExpiry(later);

    assertThat(tags(instance(live))).containsEntry("relaycp:expires", later.toString());
    assertThat(tags(instance(released)))
        .containsEntry("relaycp:expires", context.expiresAt().toString());
    for (String region : List.of(MotoServer.SOURCE_REGION, MotoServer.DESTINATION_REGION)) {
      for (String parameter : List.of("secret", "tls-identity")) {
        assertThat(parameterTags(region,
            "/relaycp/transfers/" + context.transferId() + "/" + parameter))
            .containsEntry("relaycp:expires", later.toString());
      }
    }
    // A host spawned after the move carries the new expiry from the start.
    SpawnedHost next = spawner.spawn(context.slot(SpawnSlot.DESTINATION_SITE, 0));
    assertThat(tags(instance(next))).containsEntry("relaycp:expires", later.toString());
    spawner.release(live);
    spawner.release(next);
  }

  static String secretHex(SpawnContext context) throws Exception {
    var out = new java.io.ByteArrayOutputStream();
    context.secret().writeTo(out);
    String hex = out.toString(StandardCharsets.UTF_8).strip();
    assertThat(HexFormat.of().parseHex(hex)).hasSize(32);
    return hex;
  }

  private static Instance instance(SpawnedHost host) {
    String region = host.slot().site().equals(SpawnSlot.SOURCE_SITE)
        ? MotoServer.SOURCE_REGION : MotoServer.DESTINATION_REGION;
    return inspect.ec2(region).describeInstances(request -> request.instanceIds(host.handle()))
        .reservations().get(0).instances().get(0);
  }

  static List<Instance> instances(String region, String transferId) {
    return inspect.ec2(region).describeInstances(request -> request.filters(Filter.builder()
            .name("tag:relaycp:transfer").values(transferId).build()))
        .reservations().stream()
        .flatMap(reservation -> reservation.instances().stream())
        .toList();
  }

  private static Map<String, String> tags(Instance instance) {
    return instance.tags().stream().collect(Collectors.toMap(Tag::key, Tag::value));
  }

  private static Map<String, String> parameterTags(String region, String name) {
    return inspect.ssm(region).listTagsForResource(request -> request
            .resourceType(ResourceTypeForTagging.PARAMETER).resourceId(name))
        .tagList().stream()
        .collect(Collectors.toMap(tag -> tag.key(), tag -> tag.value()));
  }
}
