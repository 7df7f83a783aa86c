package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.plan.RelayCatalog;
import dev.relaycp.provision.spawn.Ec2Settings;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The aws options as a command mixes them in: each over its key, auto from the catalog. */
class AwsSpawnOptionsTest {
  @Command(name = "host")
  static final class Host {
    @Mixin AwsSpawnOptions aws;
  }

  private final RelayCatalog catalog =
      RelayCatalog.load(Path.of("..", "conf", RelayCatalog.FILE_NAME));

  private static AwsSpawnOptions parse(String... args) {
    Host host = new Host();
    new CommandLine(host).parseArgs(args);
    return host.aws;
  }

  @Test
  void optionsOverrideKeysAndAutoTakesTheCatalogsBestInTheRegion() {
    Configuration configuration = new Configuration(false);
    configuration.set("relaycp.spawn.aws.src.region", "eu-west-1");
    configuration.set("relaycp.spawn.aws.src.image", "ami-from-keys");
    configuration.set("relaycp.spawn.aws.dst.instance-type", "m5.large");

    Ec2Settings settings = parse("--src-region", "us-west-2", "--dst-region", "eu-west-1",
        "--src-subnet", "subnet-a", "--dst-subnet", "subnet-b",
        "--src-security-group", "sg-1,sg-2", "--dst-security-group", "sg-3",
        "--image", "ami-both", "--dst-image", "ami-dst", "--vm-type", "auto", "--spot",
        "--instance-profile", "relay-role").settings(configuration, catalog);

    assertThat(settings.source().region()).isEqualTo("us-west-2");
    assertThat(settings.destination().region()).isEqualTo("eu-west-1");
    assertThat(settings.source().subnet()).contains("subnet-a");
    assertThat(settings.destination().subnet()).contains("subnet-b");
    assertThat(settings.source().securityGroups()).containsExactly("sg-1", "sg-2");
    assertThat(settings.destination().securityGroups()).containsExactly("sg-3");
    assertThat(settings.source().image()).contains("ami-both");
    assertThat(settings.destination().image()).contains("ami-dst");
    // The shipped catalog prices aws in us-west-2 only: t2.micro there, and for eu-west-1 too.
    assertThat(settings.source().instanceType()).isEqualTo("t2.micro");
    assertThat(settings.destination().instanceType()).isEqualTo("t2.micro");
    assertThat(settings.spot()).isTrue();
    assertThat(settings.instanceProfile()).contains("relay-role");
  }

  @Test
  void withoutOptionsTheKeysRuleAndANamedTypeStays() {
    Configuration configuration = new Configuration(false);
    configuration.set("relaycp.spawn.aws.region", "us-west-2");
    configuration.set("relaycp.spawn.aws.launch-template", "relaycp-relay");
    configuration.set("relaycp.spawn.aws.dst.instance-type", "m5.large");

    Ec2Settings settings = parse().settings(configuration, catalog);

    assertThat(settings.regions()).containsExactly("us-west-2");
    assertThat(settings.source().launchTemplate()).contains("relaycp-relay");
    assertThat(settings.source().image()).isEmpty();
    assertThat(settings.source().instanceType()).isEqualTo("t2.micro");
    assertThat(settings.destination().instanceType()).isEqualTo("m5.large");
    assertThat(settings.spot()).isFalse();

    assertThat(parse("--vm-type", "t2.small").settings(configuration, catalog)
        .destination().instanceType()).isEqualTo("t2.small");
  }
}
