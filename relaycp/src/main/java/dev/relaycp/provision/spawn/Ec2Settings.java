package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * How the {@code aws} backend starts relay hosts: one {@link Site} per site, and what both
 * share. Every key and default is here, read and checked once by {@link #from}; a bad value is
 * a user error naming its key. A site's key ({@code relaycp.spawn.aws.src.image}) falls back to
 * the same key without the site ({@code relaycp.spawn.aws.image}).
 *
 * @param source the source site's ({@code src}) hosts
 * @param destination the destination site's ({@code dst}) hosts
 * @param spot whether hosts are one-time spot instances (else on-demand)
 * @param instanceProfile the IAM instance profile (name or ARN) whose role may read the
 *     transfer's secret parameter; empty when the launch template gives one
 * @param port the port every spawned relay listens on
 * @param usePrivateAddress whether the other site reaches a host at its private address (a
 *     VPN or peering between the sites), else at its public one
 * @param associatePublicAddress whether a host in a given subnet is asked for a public address
 *     (through its primary network interface); false leaves it to the subnet or the launch
 *     template
 * @param relayCommand the command on the image that runs relaycp, to which the user-data adds
 *     {@code relay ...}; inserted into the script as it is
 * @param userDataTemplate a file replacing the built-in user-data template; empty for that one
 * @param parameterPrefix the SSM folder below which each transfer's secret parameter is made
 * @param startTimeout how long {@code spawn} waits for a host to run and have its address
 * @param endpoint an endpoint for EC2 and SSM instead of AWS's (a test server); empty for AWS
 */
public record Ec2Settings(Site source, Site destination, boolean spot,
    Optional<String> instanceProfile, int port, boolean usePrivateAddress,
    boolean associatePublicAddress, String relayCommand,
    Optional<Path> userDataTemplate, String parameterPrefix, Duration startTimeout,
    Optional<URI> endpoint) {

  public static final String PREFIX = "relaycp.spawn.aws.";
  public static final String REGION = "region";
  public static final String SUBNET = "subnet";
  public static final String SECURITY_GROUPS = "security-groups";
  public static final String IMAGE = "image";
  public static final String LAUNCH_TEMPLATE = "launch-template";
  public static final String INSTANCE_TYPE = "instance-type";
  public static final String KEY_NAME = "key-name";
  public static final String SPOT = PREFIX + "spot";
  public static final String INSTANCE_PROFILE = PREFIX + "instance-profile";
  public static final String PORT = PREFIX + "port";
  public static final String USE_PRIVATE_ADDRESS = PREFIX + "use-private-address";
  public static final String ASSOCIATE_PUBLIC_ADDRESS = PREFIX + "associate-public-address";
  public static final String RELAY_COMMAND = PREFIX + "relay-command";
  public static final String USER_DATA_TEMPLATE = PREFIX + "user-data-template";
  public static final String PARAMETER_PREFIX = PREFIX + "parameter-prefix";
  public static final String START_TIMEOUT = PREFIX + "start-timeout-seconds";
  public static final String ENDPOINT = PREFIX + "endpoint";

  /** The instance type value that asks for the catalog's most WAN per dollar in the region. */
  public static final String AUTO_INSTANCE_TYPE = "auto";
  public static final int DEFAULT_PORT = 7070;
  public static final String DEFAULT_RELAY_COMMAND = "hadoop jar /opt/relaycp/relaycp.jar";
  public static final String DEFAULT_PARAMETER_PREFIX = "/relaycp/transfers";
  public static final long DEFAULT_START_TIMEOUT_SECONDS = 300;

  private static final Pattern PARAMETER_PATH = Pattern.compile("(/[A-Za-z0-9_.-]+)+");

  public Ec2Settings {
    requireNonNull(source, "source is null");
    requireNonNull(destination, "destination is null");
    requireNonNull(instanceProfile, "instanceProfile is null");
    requireNonNull(relayCommand, "relayCommand is null");
    requireNonNull(userDataTemplate, "userDataTemplate is null");
    requireNonNull(parameterPrefix, "parameterPrefix is null");
    requireNonNull(startTimeout, "startTimeout is null");
    requireNonNull(endpoint, "endpoint is null");
    if (port < 1 || port > 65535) {
      throw invalid(PORT, "must be a port 1..65535", port);
    }
    if (relayCommand.isBlank()) {
      throw invalid(RELAY_COMMAND, "must name the command that runs relaycp on the image", "''");
    }
    if (!PARAMETER_PATH.matcher(parameterPrefix).matches()) {
      throw invalid(PARAMETER_PREFIX,
          "must be an SSM path such as /relaycp/transfers (letters, digits, _ . -)",
          parameterPrefix);
    }
    if (startTimeout.isNegative() || startTimeout.isZero()) {
      throw invalid(START_TIMEOUT, "must be 1 or more", startTimeout.toSeconds());
    }
  }

  /**
   * One site's hosts.
   *
   * @param name {@code src} or {@code dst}
   * @param region the AWS region they run in
   * @param subnet the VPC subnet; empty for the default VPC's (or the launch template's)
   * @param securityGroups security group ids; they must let the other site reach the port
   * @param image the AMI; empty when a launch template gives it
   * @param launchTemplate a launch template name ({@code lt-...} for an id); its settings are
   *     the base the others override
   * @param instanceType an EC2 instance type, or {@value #AUTO_INSTANCE_TYPE} until a caller
   *     resolves it with {@link Ec2Settings#withAutoInstanceTypes}
   * @param keyName an EC2 key pair for ssh; empty for none
   */
  public record Site(String name, String region, Optional<String> subnet,
      List<String> securityGroups, Optional<String> image, Optional<String> launchTemplate,
      String instanceType, Optional<String> keyName) {
    public Site {
      requireNonNull(name, "name is null");
      requireNonNull(region, "region is null");
      requireNonNull(subnet, "subnet is null");
      securityGroups = List.copyOf(requireNonNull(securityGroups, "securityGroups is null"));
      requireNonNull(image, "image is null");
      requireNonNull(launchTemplate, "launchTemplate is null");
      requireNonNull(instanceType, "instanceType is null");
      requireNonNull(keyName, "keyName is null");
      if (!SpawnSlot.SOURCE_SITE.equals(name) && !SpawnSlot.DESTINATION_SITE.equals(name)) {
        throw new IllegalArgumentException("site must be src or dst, got " + name);
      }
      if (region.isBlank()) {
        throw invalid(key(name, REGION), "must name an AWS region, e.g. us-west-2", "''");
      }
      if (image.isEmpty() && launchTemplate.isEmpty()) {
        throw invalid(key(name, IMAGE), "must name an AMI (or set " + key(name, LAUNCH_TEMPLATE)
            + ")", "nothing");
      }
      if (instanceType.isBlank()) {
        throw invalid(key(name, INSTANCE_TYPE), "must name an EC2 instance type or auto", "''");
      }
    }

    /** Whether the instance type is still {@value #AUTO_INSTANCE_TYPE}. */
    public boolean autoInstanceType() {
      return AUTO_INSTANCE_TYPE.equals(instanceType);
    }

    public Site withInstanceType(String type) {
      return new Site(name, region, subnet, securityGroups, image, launchTemplate, type,
          keyName);
    }
  }

  /** The key of {@code setting} for {@code site}: {@code relaycp.spawn.aws.src.region}. */
  public static String key(String site, String setting) {
    return PREFIX + site + "." + setting;
  }

  /** The settings in {@code configuration}; a bad or missing value names its key. */
  public static Ec2Settings from(Configuration configuration) {
    requireNonNull(configuration, "configuration is null");
    String template = configuration.getTrimmed(USER_DATA_TEMPLATE, "");
    long startSeconds = whole(configuration, START_TIMEOUT, DEFAULT_START_TIMEOUT_SECONDS);
    if (startSeconds < 1) {
      throw invalid(START_TIMEOUT, "must be 1 or more", startSeconds);
    }
    return new Ec2Settings(
        site(configuration, SpawnSlot.SOURCE_SITE),
        site(configuration, SpawnSlot.DESTINATION_SITE),
        bool(configuration, SPOT, false),
        optional(configuration.getTrimmed(INSTANCE_PROFILE, "")),
        (int) whole(configuration, PORT, DEFAULT_PORT),
        bool(configuration, USE_PRIVATE_ADDRESS, false),
        bool(configuration, ASSOCIATE_PUBLIC_ADDRESS, true),
        orDefault(configuration.getTrimmed(RELAY_COMMAND, ""), DEFAULT_RELAY_COMMAND),
        template.isEmpty() ? Optional.empty() : Optional.of(Path.of(template)),
        parameterPrefix(configuration),
        Duration.ofSeconds(startSeconds),
        endpoint(configuration));
  }

  /**
   * The regions the configuration names for its sites ({@code relaycp.spawn.aws.src.region},
   * {@code .dst.region}, else {@code relaycp.spawn.aws.region}), each once: where {@code
   * relaycp gc} looks by default. Needs no other setting.
   */
  public static List<String> configuredRegions(Configuration configuration) {
    requireNonNull(configuration, "configuration is null");
    return java.util.stream.Stream.of(SpawnSlot.SOURCE_SITE, SpawnSlot.DESTINATION_SITE)
        .map(site -> sited(configuration, site, REGION))
        .filter(region -> !region.isEmpty())
        .distinct()
        .toList();
  }

  /** The SSM folder of the secret parameters ({@value #PARAMETER_PREFIX}), checked. */
  public static String parameterPrefix(Configuration configuration) {
    String prefix = orDefault(configuration.getTrimmed(PARAMETER_PREFIX, ""),
        DEFAULT_PARAMETER_PREFIX);
    if (!PARAMETER_PATH.matcher(prefix).matches()) {
      throw invalid(PARAMETER_PREFIX,
          "must be an SSM path such as /relaycp/transfers (letters, digits, _ . -)", prefix);
    }
    return prefix;
  }

  /** The endpoint override ({@value #ENDPOINT}), checked; empty for AWS's own. */
  public static Optional<URI> endpoint(Configuration configuration) {
    String endpoint = configuration.getTrimmed(ENDPOINT, "");
    return endpoint.isEmpty() ? Optional.empty() : Optional.of(uri(endpoint));
  }

  /** The site called {@code name} ({@code src} or {@code dst}). */
  public Site site(String name) {
    return switch (name) {
      case SpawnSlot.SOURCE_SITE -> source;
      case SpawnSlot.DESTINATION_SITE -> destination;
      default -> throw new IllegalArgumentException("site must be src or dst, got " + name);
    };
  }

  /** The regions the sites run in, each once, the source's first. */
  public List<String> regions() {
    return source.region().equals(destination.region())
        ? List.of(source.region())
        : List.of(source.region(), destination.region());
  }

  /**
   * These settings with each site's {@value #AUTO_INSTANCE_TYPE} instance type replaced by
   * {@code chooseForRegion} applied to its region (the catalog's choice, made by the caller).
   */
  public Ec2Settings withAutoInstanceTypes(UnaryOperator<String> chooseForRegion) {
    requireNonNull(chooseForRegion, "chooseForRegion is null");
    return new Ec2Settings(resolve(source, chooseForRegion), resolve(destination, chooseForRegion),
        spot, instanceProfile, port, usePrivateAddress, associatePublicAddress, relayCommand,
        userDataTemplate,
        parameterPrefix, startTimeout, endpoint);
  }

  /** These settings with every site's instance type {@code type} (the driver's choice). */
  public Ec2Settings withInstanceType(String type) {
    requireNonNull(type, "type is null");
    return new Ec2Settings(source.withInstanceType(type), destination.withInstanceType(type),
        spot, instanceProfile, port, usePrivateAddress, associatePublicAddress, relayCommand,
        userDataTemplate,
        parameterPrefix, startTimeout, endpoint);
  }

  private static Site resolve(Site site, UnaryOperator<String> chooseForRegion) {
    return site.autoInstanceType()
        ? site.withInstanceType(requireNonNull(chooseForRegion.apply(site.region()),
            "chosen instance type is null"))
        : site;
  }

  private static Site site(Configuration configuration, String site) {
    String groups = sited(configuration, site, SECURITY_GROUPS);
    List<String> securityGroups = groups.isEmpty()
        ? List.of()
        : Arrays.stream(groups.split(",")).map(String::strip).filter(g -> !g.isEmpty()).toList();
    String instanceType = sited(configuration, site, INSTANCE_TYPE);
    return new Site(site,
        sited(configuration, site, REGION),
        optional(sited(configuration, site, SUBNET)),
        securityGroups,
        optional(sited(configuration, site, IMAGE)),
        optional(sited(configuration, site, LAUNCH_TEMPLATE)),
        instanceType.isEmpty() ? AUTO_INSTANCE_TYPE : instanceType,
        optional(sited(configuration, site, KEY_NAME)));
  }

  /** The site's own key, else the key without a site, else ""; an empty value is unset. */
  private static String sited(Configuration configuration, String site, String setting) {
    String own = configuration.getTrimmed(key(site, setting), "");
    return own.isEmpty() ? configuration.getTrimmed(PREFIX + setting, "") : own;
  }

  private static String orDefault(String value, String fallback) {
    return value.isEmpty() ? fallback : value;
  }

  private static Optional<String> optional(String value) {
    return value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static long whole(Configuration configuration, String key, long fallback) {
    String value = configuration.getTrimmed(key, "");
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw invalid(key, "must be a whole number", value);
    }
  }

  private static boolean bool(Configuration configuration, String key, boolean fallback) {
    String value = configuration.getTrimmed(key, "");
    if (value.isEmpty()) {
      return fallback;
    }
    if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
      throw invalid(key, "must be true or false", value);
    }
    return Boolean.parseBoolean(value);
  }

  private static URI uri(String value) {
    try {
      URI uri = new URI(value);
      if (uri.getScheme() == null || uri.getHost() == null) {
        throw invalid(ENDPOINT, "must be an absolute URL such as http://127.0.0.1:5000", value);
      }
      return uri;
    } catch (URISyntaxException e) {
      throw invalid(ENDPOINT, "must be an absolute URL such as http://127.0.0.1:5000", value);
    }
  }

  static RelayCpException invalid(String key, String rule, Object value) {
    return new RelayCpException(ErrorCode.INVALID_ARGUMENT,
        key + " " + rule + ", got " + value + "; fix it in relaycp-site.xml or -D");
  }
}
