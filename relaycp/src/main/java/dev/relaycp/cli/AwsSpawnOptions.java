package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import dev.relaycp.plan.RelayCatalog;
import dev.relaycp.provision.spawn.Ec2Settings;
import dev.relaycp.provision.spawn.SpawnSlot;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/**
 * The options of the {@code aws} spawn backend ({@code copy --spawn N --spawn-backend aws}).
 * Each sets one {@code relaycp.spawn.aws.*} key over the configuration's; {@link #settings}
 * reads them all into {@link Ec2Settings}, checked there, with {@code --vm-type auto} resolved
 * from the relay catalog.
 */
public final class AwsSpawnOptions {
  @Option(names = "--src-region", paramLabel = "REGION",
      description = "AWS region of the source site's spawned relays (relaycp.spawn.aws.src.region).")
  String sourceRegion;

  @Option(names = "--dst-region", paramLabel = "REGION",
      description = "AWS region of the destination site's spawned relays.")
  String destinationRegion;

  @Option(names = "--src-subnet", paramLabel = "SUBNET",
      description = "VPC subnet of the source site's spawned relays (default: the default VPC's).")
  String sourceSubnet;

  @Option(names = "--dst-subnet", paramLabel = "SUBNET",
      description = "VPC subnet of the destination site's spawned relays.")
  String destinationSubnet;

  @Option(names = "--src-security-group", split = ",", paramLabel = "SG",
      description = "Security group(s) of the source site's spawned relays; they must let the"
          + " destination site's relays and the driver reach the relay port.")
  List<String> sourceSecurityGroups = new ArrayList<>();

  @Option(names = "--dst-security-group", split = ",", paramLabel = "SG",
      description = "Security group(s) of the destination site's spawned relays.")
  List<String> destinationSecurityGroups = new ArrayList<>();

  @Option(names = "--image", paramLabel = "AMI",
      description = "AMI of every spawned relay: Java 17, the relaycp jar and the clusters'"
          + " Hadoop client configuration (see the README).")
  String image;

  @Option(names = "--src-image", paramLabel = "AMI", description = "AMI of the source site's relays.")
  String sourceImage;

  @Option(names = "--dst-image", paramLabel = "AMI",
      description = "AMI of the destination site's relays.")
  String destinationImage;

  @Option(names = "--launch-template", paramLabel = "NAME|lt-ID",
      description = "An EC2 launch template for both sites; the other options override it.")
  String launchTemplate;

  @Option(names = "--vm-type", paramLabel = "auto|TYPE",
      description = "EC2 instance type of the spawned relays; auto (the default) takes the"
          + " catalog's most WAN per dollar in each site's region.")
  String vmType;

  @Option(names = "--spot", description = "Spawn one-time spot instances instead of on-demand.")
  boolean spot;

  @Option(names = "--instance-profile", paramLabel = "NAME|ARN",
      description = "IAM instance profile of the spawned relays; its role must be allowed"
          + " ssm:GetParameter on the transfer's secret (see the README).")
  String instanceProfile;

  /** {@code base} with these options' keys set; {@code base} is not changed. */
  public Configuration apply(Configuration base) {
    Configuration configuration = new Configuration(requireNonNull(base, "base is null"));
    String source = SpawnSlot.SOURCE_SITE;
    String destination = SpawnSlot.DESTINATION_SITE;
    set(configuration, Ec2Settings.key(source, Ec2Settings.REGION), sourceRegion);
    set(configuration, Ec2Settings.key(destination, Ec2Settings.REGION), destinationRegion);
    set(configuration, Ec2Settings.key(source, Ec2Settings.SUBNET), sourceSubnet);
    set(configuration, Ec2Settings.key(destination, Ec2Settings.SUBNET), destinationSubnet);
    if (!sourceSecurityGroups.isEmpty()) {
      set(configuration, Ec2Settings.key(source, Ec2Settings.SECURITY_GROUPS),
          String.join(",", sourceSecurityGroups));
    }
    if (!destinationSecurityGroups.isEmpty()) {
      set(configuration, Ec2Settings.key(destination, Ec2Settings.SECURITY_GROUPS),
          String.join(",", destinationSecurityGroups));
    }
    // An option for both sites sets each site's key, over the configuration's per-site keys;
    // a site's own option then overrides it.
    set(configuration, Ec2Settings.key(source, Ec2Settings.IMAGE), image);
    set(configuration, Ec2Settings.key(destination, Ec2Settings.IMAGE), image);
    set(configuration, Ec2Settings.key(source, Ec2Settings.IMAGE), sourceImage);
    set(configuration, Ec2Settings.key(destination, Ec2Settings.IMAGE), destinationImage);
    set(configuration, Ec2Settings.key(source, Ec2Settings.LAUNCH_TEMPLATE), launchTemplate);
    set(configuration, Ec2Settings.key(destination, Ec2Settings.LAUNCH_TEMPLATE), launchTemplate);
    set(configuration, Ec2Settings.key(source, Ec2Settings.INSTANCE_TYPE), vmType);
    set(configuration, Ec2Settings.key(destination, Ec2Settings.INSTANCE_TYPE), vmType);
    if (spot) {
      configuration.setBoolean(Ec2Settings.SPOT, true);
    }
    set(configuration, Ec2Settings.INSTANCE_PROFILE, instanceProfile);
    return configuration;
  }

  /**
   * The aws backend's settings: {@code configuration}'s keys with these options over them,
   * each site's {@code auto} instance type replaced by {@link
   * RelayCatalog#mostWanPerDollarIn} for {@code aws} in its region.
   */
  public Ec2Settings settings(Configuration configuration, RelayCatalog catalog) {
    requireNonNull(catalog, "catalog is null");
    return Ec2Settings.from(apply(configuration))
        .withAutoInstanceTypes(region -> catalog.mostWanPerDollarIn("aws", region).name());
  }

  private static void set(Configuration configuration, String key, String value) {
    if (value != null) {
      configuration.set(key, value.strip());
    }
  }
}
