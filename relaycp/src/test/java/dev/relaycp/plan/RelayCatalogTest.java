package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RelayCatalogTest {
  private final RelayCatalog catalog = RelayCatalog.load(Path.of("..", "conf", RelayCatalog.FILE_NAME));

  @Test
  void seedRowsCarryTheThesisFigures() {
    MachineType micro = catalog.find("t2.micro");
    assertThat(micro.dollarsPerHour()).isEqualTo(0.0116);
    // Table 5.4: 107 and 718 Mbps, 83 s.
    assertThat(micro.external().bytesPerSecond()).isCloseTo(107e6 / 8, within(1e-6));
    assertThat(micro.internal().bytesPerSecond()).isCloseTo(718e6 / 8, within(1e-6));
    assertThat(micro.bootSeconds()).isEqualTo(83);
    assertThat(micro.source()).contains("Table 5.4");

    MachineType modelSmall = catalog.find("thesis-model/t2.small");
    assertThat(modelSmall.external().mebibytesPerSecond()).isCloseTo(15, within(1e-9));
    assertThat(modelSmall.internal().mebibytesPerSecond()).isCloseTo(90, within(1e-9));
    assertThat(modelSmall.bootSeconds()).isEqualTo(90);
    assertThat(modelSmall.source()).contains("Table 4.3");

    MachineType h1 = catalog.find("thesis-model/h1.2xlarge");
    assertThat(h1.internal().mebibytesPerSecond()).isCloseTo(315, within(1e-9));
    assertThat(h1.external().mebibytesPerSecond()).isCloseTo(30, within(1e-9));
    assertThat(h1.dollarsPerHour()).isEqualTo(0.468);
    assertThat(catalog.machines()).allSatisfy(machine -> assertThat(machine.source()).contains("Table"));
  }

  @Test
  void choosesTheMostWanPerDollar() {
    // 107 Mbps / $0.0116 beats 124 / 0.0230 and 146 / 0.0464 (thesis §5.1.1).
    assertThat(catalog.mostWanPerDollar(Optional.of("aws"), 2).name()).isEqualTo("t2.micro");
    // Among the model parameter sets, t2.small (15 MiB/s for $0.023) beats h1.2xlarge (30 for
    // $0.468), as Figure 4.15 finds.
    assertThat(catalog.mostWanPerDollar(Optional.of("thesis-model"), 2).name()).isEqualTo("t2.small");
    // Requiring ten times the WAN rate inside the site leaves only h1.2xlarge (315 vs 30).
    assertThat(catalog.mostWanPerDollar(Optional.of("thesis-model"), 10).name())
        .isEqualTo("h1.2xlarge");
  }

  @Test
  void autoVmTypeIsTheMostWanPerDollarOfTheProviderInTheRegion() {
    RelayCatalog regional = RelayCatalog.parse(String.join("\n",
        "provider,region,vm_type,dollars_per_hour,external,internal,boot_seconds,"
            + "billing_granularity_seconds,billing_minimum_seconds,source",
        // In us-west-2, c.cheap buys 10 MiB/s per $0.01; b.fast 40 per $0.08 (half as much).
        "aws,us-west-2,b.fast,0.08,40MiB/s,400MiB/s,60,1,60,test",
        "aws,us-west-2,c.cheap,0.01,10MiB/s,100MiB/s,60,1,60,test",
        // Cheaper WAN still, but it cannot be fed as fast as it sends.
        "aws,us-west-2,d.starved,0.01,50MiB/s,20MiB/s,60,1,60,test",
        // The best in eu-west-1 is b.fast, priced lower there.
        "aws,eu-west-1,b.fast,0.02,40MiB/s,400MiB/s,60,1,60,test",
        "aws,eu-west-1,c.cheap,0.02,10MiB/s,100MiB/s,60,1,60,test",
        // Another provider's far better type is never chosen for aws.
        "other,us-west-2,z.free,0.0001,90MiB/s,900MiB/s,60,1,60,test"), "test");

    assertThat(regional.mostWanPerDollarIn("aws", "us-west-2").name()).isEqualTo("c.cheap");
    assertThat(regional.mostWanPerDollarIn("aws", "eu-west-1")).satisfies(machine -> {
      assertThat(machine.name()).isEqualTo("b.fast");
      assertThat(machine.dollarsPerHour()).isEqualTo(0.02);
    });
    // A region the catalog does not price: the provider's best anywhere (b.fast at $0.02).
    assertThat(regional.mostWanPerDollarIn("aws", "ap-south-1").region()).isEqualTo("eu-west-1");
    assertThatThrownBy(() -> regional.mostWanPerDollarIn("gcp", "us-west-2"))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("no VM type of gcp")
        .hasMessageContaining("--vm-type TYPE");
    // The shipped catalog: t2.micro, as thesis §5.1.1 finds.
    assertThat(catalog.mostWanPerDollarIn("aws", "us-west-2").name()).isEqualTo("t2.micro");
  }

  @Test
  void noTypeMeetingTheConstraintIsAClearError() {
    assertThatThrownBy(() -> catalog.mostWanPerDollar(Optional.of("thesis-model"), 20))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("internal throughput 20.0 times");
  }

  @Test
  void unknownVmTypeIsAnInvalidArgumentNamingTheChoices() {
    assertThatThrownBy(() -> catalog.find("m9.huge"))
        .isInstanceOf(RelayCpException.class)
        .hasMessageStartingWith("unknown VM type 'm9.huge'; use one of aws/t2.micro")
        .extracting(e -> ((RelayCpException) e).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void billingRoundsUpToTheGranularityAndTheMinimum() {
    MachineType hourly =
        new MachineType("x", "y", "z", 1.0, DataRate.ofMebibytesPerSecond(1),
            DataRate.ofMebibytesPerSecond(1), 0, 3600, 0, "test");
    assertThat(hourly.billedSeconds(5 * 60)).isEqualTo(3600);
    assertThat(hourly.billedSeconds(1.5 * 3600)).isEqualTo(7200);
    assertThat(hourly.dollarsFor(5.5 * 3600)).isCloseTo(6.0, within(1e-12));
    MachineType perSecond = catalog.find("t2.micro");
    assertThat(perSecond.billedSeconds(10)).isEqualTo(60);
    assertThat(perSecond.billedSeconds(60.2)).isEqualTo(61);
  }

  @Test
  void malformedRowsNameTheirLine() {
    String text =
        "provider,region,vm_type,dollars_per_hour,external,internal,boot_seconds,"
            + "billing_granularity_seconds,billing_minimum_seconds,source\n"
            + "aws,r,t,0.1,0MiB/s,10MiB/s,1,1,0,x\n";
    assertThatThrownBy(() -> RelayCatalog.parse(text, "test.csv"))
        .hasMessageStartingWith("test.csv line 2: throughput '0MiB/s' is not positive");
  }

  @Test
  void quotedFieldsMayHoldCommasAndQuotesAndCommentsNameNoLine() {
    String text = "# a comment, with a comma\n"
        + "provider,region,vm_type,dollars_per_hour,external,internal,boot_seconds,"
        + "billing_granularity_seconds,billing_minimum_seconds,source\n"
        + "\n"
        + "aws, us-east-1 ,t2.micro,0.0116,15MiB/s,90MiB/s,83,1,60,\"Table 5.4, \"\"measured\"\"\"\n"
        + "aws,r,t,0.1,15MiB/s,10MiB/s,1,1,0\n";

    assertThatThrownBy(() -> RelayCatalog.parse(text, "test.csv"))
        .hasMessage("test.csv line 5 has 9 fields, not 10; quote fields holding commas");
    MachineType micro = RelayCatalog.parse(text.substring(0, text.lastIndexOf("aws,r")), "test.csv")
        .find("t2.micro");
    assertThat(micro.region()).isEqualTo("us-east-1");
    assertThat(micro.source()).isEqualTo("Table 5.4, \"measured\"");
  }
}
