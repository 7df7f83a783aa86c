package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The EC2 and SSM clients of each region one command talks to, made on first use and closed
 * together. They share one HTTP client (the JDK's URL connection: relaycp brings no second
 * Netty) and one credentials provider: by default the SDK's chain (environment, system
 * properties {@code aws.accessKeyId}/{@code aws.secretAccessKey}, profile, instance role).
 */
public final class AwsClients implements AutoCloseable {
  private final Optional<URI> endpoint;
  private final AwsCredentialsProvider credentials;
  private final SdkHttpClient http = UrlConnectionHttpClient.create();
  private final Map<String, Ec2Client> ec2 = new ConcurrentHashMap<>();
  private final Map<String, SsmClient> ssm = new ConcurrentHashMap<>();

  private AwsClients(Optional<URI> endpoint, AwsCredentialsProvider credentials) {
    this.endpoint = requireNonNull(endpoint, "endpoint is null");
    this.credentials = requireNonNull(credentials, "credentials is null");
  }

  /** Clients of AWS (or of {@code endpoint}) with the SDK's default credentials chain. */
  public static AwsClients withDefaultCredentials(Optional<URI> endpoint) {
    return new AwsClients(endpoint, DefaultCredentialsProvider.builder().build());
  }

  /** Clients with the given credentials (a test server's fixed keys). */
  public static AwsClients of(Optional<URI> endpoint, AwsCredentialsProvider credentials) {
    return new AwsClients(endpoint, credentials);
  }

  public Ec2Client ec2(String region) {
    return client(ec2, region, Ec2Client::builder);
  }

  public SsmClient ssm(String region) {
    return client(ssm, region, SsmClient::builder);
  }

  /** {@code region}'s client from {@code cache}, built on first use with the shared parts. */
  private <C, B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>> C client(
      Map<String, C> cache, String region, Supplier<B> newBuilder) {
    requireNonNull(region, "region is null");
    return cache.computeIfAbsent(region, name -> {
      B builder = newBuilder.get().region(Region.of(name)).httpClient(http)
          .credentialsProvider(credentials);
      endpoint.ifPresent(builder::endpointOverride);
      return builder.build();
    });
  }

  @Override
  public void close() {
    ec2.values().forEach(Ec2Client::close);
    ssm.values().forEach(SsmClient::close);
    http.close();
  }
}
