package dev.relaycp.provision.spawn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ec2Settings read from keys and Ec2UserData rendered: pure, no AWS. */
class Ec2SettingsTest {
  @TempDir Path temporary;

  private static Configuration minimal() {
    Configuration configuration = new Configuration(false);
    configuration.set("relaycp.spawn.aws.src.region", "us-west-2");
    configuration.set("relaycp.spawn.aws.dst.region", "eu-west-1");
    configuration.set("relaycp.spawn.aws.image", "ami-1");
    return configuration;
  }

  @Test
  void defaultsAndTheSitelessKeyForBothSites() {
    Ec2Settings settings = Ec2Settings.from(minimal());

    assertThat(settings.source().image()).contains("ami-1");
    assertThat(settings.destination().image()).contains("ami-1");
    assertThat(settings.source().instanceType()).isEqualTo("auto");
    assertThat(settings.source().autoInstanceType()).isTrue();
    assertThat(settings.source().subnet()).isEmpty();
    assertThat(settings.source().securityGroups()).isEmpty();
    assertThat(settings.spot()).isFalse();
    assertThat(settings.port()).isEqualTo(7070);
    assertThat(settings.usePrivateAddress()).isFalse();
    assertThat(settings.associatePublicAddress()).isTrue();
    assertThat(settings.relayCommand()).isEqualTo("hadoop jar /opt/relaycp/relaycp.jar");
    assertThat(settings.parameterPrefix()).isEqualTo("/relaycp/transfers");
    assertThat(settings.startTimeout()).isEqualTo(Duration.ofSeconds(300));
    assertThat(settings.endpoint()).isEmpty();
    assertThat(settings.regions()).containsExactly("us-west-2", "eu-west-1");
  }

  @Test
  void theShippedSiteFileHoldsTheDefaultsAndItsEmptySiteKeysFallBack() {
    Configuration configuration = new Configuration(false);
    configuration.addResource(new org.apache.hadoop.fs.Path("../conf/relaycp-site.xml"));
    configuration.set("relaycp.spawn.aws.src.region", "us-west-2");
    configuration.set("relaycp.spawn.aws.dst.region", "eu-west-1");
    configuration.set("relaycp.spawn.aws.image", "ami-1");
    configuration.set("relaycp.spawn.aws.src.image", "");

    assertThat(Ec2Settings.from(configuration)).isEqualTo(Ec2Settings.from(minimal()));
  }

  @Test
  void aSitesOwnKeyWinsAndEveryKeyIsRead() {
    Configuration configuration = minimal();
    configuration.set("relaycp.spawn.aws.dst.image", "ami-2");
    configuration.set("relaycp.spawn.aws.src.subnet", "subnet-1");
    configuration.set("relaycp.spawn.aws.src.security-groups", "sg-1, sg-2");
    configuration.set("relaycp.spawn.aws.dst.launch-template", "lt-0abc");
    configuration.set("relaycp.spawn.aws.instance-type", "t2.small");
    configuration.set("relaycp.spawn.aws.dst.key-name", "ops");
    configuration.set("relaycp.spawn.aws.spot", "true");
    configuration.set("relaycp.spawn.aws.instance-profile", "relay-role");
    configuration.set("relaycp.spawn.aws.port", "7171");
    configuration.set("relaycp.spawn.aws.use-private-address", "true");
    configuration.set("relaycp.spawn.aws.endpoint", "http://127.0.0.1:5000");

    Ec2Settings settings = Ec2Settings.from(configuration);

    assertThat(settings.source().image()).contains("ami-1");
    assertThat(settings.destination().image()).contains("ami-2");
    assertThat(settings.source().subnet()).contains("subnet-1");
    assertThat(settings.source().securityGroups()).containsExactly("sg-1", "sg-2");
    assertThat(settings.destination().launchTemplate()).contains("lt-0abc");
    assertThat(settings.destination().instanceType()).isEqualTo("t2.small");
    assertThat(settings.destination().keyName()).contains("ops");
    assertThat(settings.source().keyName()).isEmpty();
    assertThat(settings.spot()).isTrue();
    assertThat(settings.instanceProfile()).contains("relay-role");
    assertThat(settings.port()).isEqualTo(7171);
    assertThat(settings.usePrivateAddress()).isTrue();
    assertThat(settings.endpoint()).contains(URI.create("http://127.0.0.1:5000"));
  }

  @Test
  void aBadOrMissingValueNamesItsKey() {
    assertRefused(Map.of("relaycp.spawn.aws.port", "70000"),
        "relaycp.spawn.aws.port must be a port 1..65535, got 70000");
    assertRefused(Map.of("relaycp.spawn.aws.spot", "yes"),
        "relaycp.spawn.aws.spot must be true or false, got yes");
    assertRefused(Map.of("relaycp.spawn.aws.start-timeout-seconds", "0"),
        "relaycp.spawn.aws.start-timeout-seconds must be 1 or more, got 0");
    assertRefused(Map.of("relaycp.spawn.aws.endpoint", "localhost"),
        "relaycp.spawn.aws.endpoint must be an absolute URL");
    assertRefused(Map.of("relaycp.spawn.aws.parameter-prefix", "relaycp"),
        "relaycp.spawn.aws.parameter-prefix must be an SSM path");
    assertRefused(Map.of("relaycp.spawn.aws.dst.region", " "),
        "relaycp.spawn.aws.dst.region must name an AWS region");
    Configuration noImage = minimal();
    noImage.unset("relaycp.spawn.aws.image");
    noImage.set("relaycp.spawn.aws.src.image", "ami-1");
    assertThatThrownBy(() -> Ec2Settings.from(noImage))
        .isInstanceOfSatisfying(RelayCpException.class, failure -> assertThat(failure.code())
            .isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageStartingWith("relaycp.spawn.aws.dst.image must name an AMI");
  }

  @Test
  void autoInstanceTypesAreResolvedPerRegion() {
    Configuration configuration = minimal();
    configuration.set("relaycp.spawn.aws.dst.instance-type", "m5.large");

    Ec2Settings settings = Ec2Settings.from(configuration)
        .withAutoInstanceTypes(region -> "best-in-" + region);

    assertThat(settings.source().instanceType()).isEqualTo("best-in-us-west-2");
    assertThat(settings.destination().instanceType()).isEqualTo("m5.large");
    assertThat(settings.withInstanceType("t3.small").destination().instanceType())
        .isEqualTo("t3.small");
  }

  @Test
  void configuredRegionsNeedNoOtherSetting() {
    Configuration configuration = new Configuration(false);
    assertThat(Ec2Settings.configuredRegions(configuration)).isEmpty();
    configuration.set("relaycp.spawn.aws.region", "us-east-1");
    assertThat(Ec2Settings.configuredRegions(configuration)).containsExactly("us-east-1");
    configuration.set("relaycp.spawn.aws.dst.region", "eu-west-1");
    assertThat(Ec2Settings.configuredRegions(configuration))
        .containsExactly("us-east-1", "eu-west-1");
  }

  @Test
  void userDataQuotesEveryValueAndPutsTheRelayCommandAsItIs() {
    SpawnSlot slot = SpawnSlot.of("t-1", "dst", 4);
    String script = Ec2UserData.load(Optional.empty()).render(Ec2UserData.values("eu-west-1",
        "/relaycp/transfers/t-1/secret", "", 7070, "hdfs://nn:8020/it's/heartbeat", 60, slot,
        "/opt/relaycp/bin/relaycp"));

    assertThat(script)
        .contains("heartbeat='hdfs://nn:8020/it'\\''s/heartbeat'")
        .contains("  /opt/relaycp/bin/relaycp relay -D relaycp.relay.driver-timeout-seconds=")
        .contains("\"'dst'\" slot \"'4'\"")
        .contains("tls_parameter=''")
        .doesNotContain("{{");
  }

  @Test
  void aUsersTemplateReplacesTheBuiltInOne() throws Exception {
    Path template = temporary.resolve("user-data.sh");
    Files.writeString(template, "#!/bin/sh\nexec {{relay_command}} relay --port {{port}}\n");
    Map<String, String> values = Ec2UserData.values("r", "/p", "/t", 7070, "hdfs://h/b", 60,
        SpawnSlot.of("t", "src", 0), "relaycp");

    String base64 = Ec2UserData.load(Optional.of(template)).renderBase64(values);

    assertThat(new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8))
        .isEqualTo("#!/bin/sh\nexec relaycp relay --port '7070'\n");
    Files.writeString(template, "echo {{secret}}\n");
    assertThatThrownBy(() -> Ec2UserData.load(Optional.of(template)).render(values))
        .isInstanceOf(RelayCpException.class)
        .hasMessageStartingWith("the user-data template has an unknown placeholder {{secret}}");
  }

  private static void assertRefused(Map<String, String> keys, String message) {
    Configuration configuration = minimal();
    keys.forEach(configuration::set);
    assertThatThrownBy(() -> Ec2Settings.from(configuration))
        .isInstanceOfSatisfying(RelayCpException.class, failure -> assertThat(failure.code())
            .isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageStartingWith(message)
        .hasMessageEndingWith("; fix it in relaycp-site.xml or -D");
  }
}
