package dev.relaycp.provision.spawn;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.iam.IamClient;

/**
 * moto's server (EC2 and SSM emulated on one port) for the aws backend's tests: started from
 * the virtualenv {@code src/test/moto/ensure-venv.sh} makes ({@code target/moto-venv}) on a
 * free loopback port, stopped by its process after. Without the venv the tests are skipped
 * with the reason printed, unless {@code RELAYCP_MOTO_REQUIRED=true} (set by {@code .ci/run}),
 * which makes its absence a failure.
 */
public final class MotoServer implements AutoCloseable {
  public static final String SOURCE_REGION = "us-west-2";
  public static final String DESTINATION_REGION = "eu-west-1";
  /** Any id does while moto does not check images. */
  public static final String INSTANCE_PROFILE = "relaycp-relay";
  public static final String IMAGE = "ami-0123456789abcdef0";
  static final String REQUIRED_VARIABLE = "RELAYCP_MOTO_REQUIRED";
  public static final String ACCESS_KEY = "testing";
  public static final String SECRET_KEY = "testing";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final URI endpoint;
  private final Path log;

  private MotoServer(Process process, URI endpoint, Path log) {
    this.process = process;
    this.endpoint = endpoint;
    this.log = log;
  }

  /** A running server, or the test is skipped (or failed, when moto is required). */
  public static MotoServer start() throws IOException, InterruptedException {
    Path venv = Path.of(System.getProperty("relaycp.moto.venv", "target/moto-venv"));
    Path server = venv.resolve("bin/moto_server");
    if (!Files.isExecutable(server)) {
      String reason = "moto's server is not at " + server.toAbsolutePath()
          + "; run relaycp/src/test/moto/ensure-venv.sh to test the aws backend";
      if (Boolean.parseBoolean(System.getenv(REQUIRED_VARIABLE))) {
        fail(reason + " (" + REQUIRED_VARIABLE + " is true)");
      }
      System.err.println("SKIPPED: " + reason);
      assumeTrue(false, reason);
    }
    // The SDK's default credentials chain (what relaycp gc uses) finds these first.
    System.setProperty("aws.accessKeyId", ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", SECRET_KEY);
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path log = Files.createTempFile("relaycp-moto-", ".log");
    ProcessBuilder builder = new ProcessBuilder(server.toString(), "-H", "127.0.0.1",
        "-p", Integer.toString(port))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
    builder.environment().put("AWS_SECRET_ACCESS_KEY", SECRET_KEY);
    Process process = builder.start();
    MotoServer moto = new MotoServer(process, URI.create("http://127.0.0.1:" + port), log);
    moto.awaitAnswer();
    return moto;
  }

  public URI endpoint() {
    return endpoint;
  }

  /** Clients of this server with its fixed keys. */
  public AwsClients clients() {
    return clients(endpoint);
  }

  /** Clients with this server's fixed keys that call {@code through}, a hop in front of it. */
  public AwsClients clients(URI through) {
    return AwsClients.of(Optional.of(through), credentials());
  }

  private static StaticCredentialsProvider credentials() {
    return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
  }

  /** Forgets every resource (moto's reset), so each test starts from an empty account. */
  public void reset() throws IOException {
    HttpURLConnection connection =
        (HttpURLConnection) endpoint.resolve("/moto-api/reset").toURL().openConnection();
    connection.setRequestMethod("POST");
    int status = connection.getResponseCode();
    connection.disconnect();
    if (status != 200) {
      throw new IOException("moto's reset answered " + status);
    }
  }

  /**
   * After {@link #reset}: a VPC, a subnet that gives no public addresses of itself (in
   * 127.77.0.0/16, so an address a test connects to stays on this machine) and a
   * security group in each of {@link #SOURCE_REGION} and {@link #DESTINATION_REGION}, and a
   * configuration whose {@code relaycp.spawn.aws.*} keys spawn there through this server
   * ({@code t2.micro} at the source, {@code t2.small} at the destination).
   */
  public Configuration spawnConfiguration() {
    Configuration configuration = new Configuration(false);
    try (AwsClients clients = clients()) {
      for (String site : List.of(SpawnSlot.SOURCE_SITE, SpawnSlot.DESTINATION_SITE)) {
        String region = site.equals(SpawnSlot.SOURCE_SITE) ? SOURCE_REGION : DESTINATION_REGION;
        Ec2Client ec2 = clients.ec2(region);
        String vpc = ec2.createVpc(request -> request.cidrBlock("127.77.0.0/16")).vpc().vpcId();
        String subnet = ec2.createSubnet(request -> request.vpcId(vpc)
            .cidrBlock("127.77.1.0/24").availabilityZone(region + "a")).subnet().subnetId();
        String group = ec2.createSecurityGroup(request -> request.vpcId(vpc)
            .groupName("relaycp-relays").description("relaycp relays")).groupId();
        configuration.set(Ec2Settings.key(site, Ec2Settings.REGION), region);
        configuration.set(Ec2Settings.key(site, Ec2Settings.SUBNET), subnet);
        configuration.set(Ec2Settings.key(site, Ec2Settings.SECURITY_GROUPS), group);
        configuration.set(Ec2Settings.key(site, Ec2Settings.INSTANCE_TYPE),
            site.equals(SpawnSlot.SOURCE_SITE) ? "t2.micro" : "t2.small");
      }
    }
    try (IamClient iam = IamClient.builder().region(Region.AWS_GLOBAL)
        .endpointOverride(endpoint).httpClient(UrlConnectionHttpClient.create())
        .credentialsProvider(credentials()).build()) {
      iam.createInstanceProfile(request -> request.instanceProfileName(INSTANCE_PROFILE));
    }
    configuration.set(Ec2Settings.PREFIX + Ec2Settings.IMAGE, IMAGE);
    configuration.set(Ec2Settings.INSTANCE_PROFILE, INSTANCE_PROFILE);
    configuration.set(Ec2Settings.ENDPOINT, endpoint.toString());
    configuration.set(Ec2Settings.START_TIMEOUT, "30");
    return configuration;
  }

  private void awaitAnswer() throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IOException("moto_server exited with " + process.exitValue() + ": "
            + Files.readString(log));
      }
      try {
        HttpURLConnection connection =
            (HttpURLConnection) endpoint.resolve("/moto-api/").toURL().openConnection();
        connection.setConnectTimeout(1_000);
        int status = connection.getResponseCode();
        connection.disconnect();
        if (status == 200) {
          return;
        }
      } catch (IOException notYet) {
        // Not listening yet: poll again until the deadline.
      }
      Thread.sleep(200);
    }
    close();
    throw new IOException("moto_server did not answer on " + endpoint + " within "
        + START_TIMEOUT.toSeconds() + " s: " + Files.readString(log));
  }

  @Override
  public void close() throws InterruptedException, IOException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    Files.deleteIfExists(log);
  }
}
