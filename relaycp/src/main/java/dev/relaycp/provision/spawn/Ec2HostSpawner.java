package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.provision.Uninterrupted;
import dev.relaycp.relay.RelayAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.IamInstanceProfileSpecification;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceInterruptionBehavior;
import software.amazon.awssdk.services.ec2.model.InstanceMarketOptionsRequest;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterfaceSpecification;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateSpecification;
import software.amazon.awssdk.services.ec2.model.MarketType;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.RunInstancesRequest;
import software.amazon.awssdk.services.ec2.model.ShutdownBehavior;
import software.amazon.awssdk.services.ec2.model.SpotInstanceType;
import software.amazon.awssdk.services.ec2.model.SpotMarketOptions;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;
import software.amazon.awssdk.services.ssm.model.ParameterType;
import software.amazon.awssdk.services.ssm.model.ResourceTypeForTagging;

/**
 * The {@code aws} backend: each relay host is an EC2 instance started with RunInstances in its
 * site's region, whose user-data ({@link Ec2UserData}) reads the transfer's secret from an SSM
 * SecureString parameter with the instance's role, runs {@code relaycp relay} following the
 * driver's heartbeat, and powers the machine off (which terminates it) when the relay ends.
 *
 * <p>The secret is only ever in the parameter ({@code <prefix>/<transfer>/secret}, made in each
 * region in use by {@link #open} and deleted by {@link #close}); never in user-data, tags, logs
 * or a command line. Where the relay connections run TLS, the driver's TLS key and certificate
 * (PEM) go the same way, in {@code <prefix>/<transfer>/tls-identity}, so that a relay shows
 * them instead of making a key of its own, as YARN's relays do ({@link
 * dev.relaycp.relay.TlsIdentity}). Instances and parameters carry {@link Ec2Tags} with the
 * transfer and its expiry, so that {@code relaycp gc} ({@link Ec2Leftovers}) can find what a
 * killed driver left. Thread-safe: the driver spawns several hosts at once.
 */
public final class Ec2HostSpawner implements HostSpawner {
  private static final Logger LOG = LoggerFactory.getLogger(Ec2HostSpawner.class);
  private static final Pattern TRANSFER_ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Duration POLL_PERIOD = Duration.ofSeconds(2);

  private final Ec2Settings settings;
  private final SpawnContext context;
  private final AwsClients clients;
  private final Ec2UserData userData;
  private final Clock clock;
  private final String parameterName;
  /** The TLS identity's parameter, where the driver shares one. */
  private final Optional<String> identityParameterName;
  /** Instances started and not yet released, per region: what extendExpiry re-tags. */
  private final Map<String, Set<String>> live = new ConcurrentHashMap<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Instant expiresAt;

  private Ec2HostSpawner(Ec2Settings settings, SpawnContext context, AwsClients clients,
      Ec2UserData userData, Clock clock) {
    this.settings = settings;
    this.context = context;
    this.clients = clients;
    this.userData = userData;
    this.clock = clock;
    this.parameterName = parameterName(settings.parameterPrefix(), context.transferId());
    this.identityParameterName = context.tlsIdentity().map(
        identity -> identityParameterName(settings.parameterPrefix(), context.transferId()));
    this.expiresAt = context.expiresAt();
  }

  /**
   * A spawner for one transfer, with the SDK's default credentials; it has made the secret
   * parameter in each region of {@code settings}.
   */
  public static Ec2HostSpawner open(Ec2Settings settings, SpawnContext context) {
    requireNonNull(settings, "settings is null");
    return open(settings, context, AwsClients.withDefaultCredentials(settings.endpoint()),
        Clock.systemUTC());
  }

  /**
   * As {@link #open(Ec2Settings, SpawnContext)} with the given clients, which the spawner
   * closes with itself (also when this fails).
   */
  public static Ec2HostSpawner open(Ec2Settings settings, SpawnContext context,
      AwsClients clients, Clock clock) {
    requireNonNull(settings, "settings is null");
    requireNonNull(context, "context is null");
    requireNonNull(clients, "clients is null");
    requireNonNull(clock, "clock is null");
    try {
      checkReady(settings, context);
      Ec2HostSpawner spawner = new Ec2HostSpawner(settings, context, clients,
          Ec2UserData.load(settings.userDataTemplate()), clock);
      spawner.putSecretParameters();
      return spawner;
    } catch (RuntimeException e) {
      clients.close();
      throw e;
    }
  }

  /** The secret parameter's name for {@code transferId}. */
  public static String parameterName(String prefix, String transferId) {
    return prefix + "/" + transferId + "/secret";
  }

  /** The name of the parameter holding the driver's TLS identity for {@code transferId}. */
  public static String identityParameterName(String prefix, String transferId) {
    return prefix + "/" + transferId + "/tls-identity";
  }

  /** The transfer's parameters: the secret's, then the TLS identity's if any. */
  private List<String> parameterNames() {
    List<String> names = new ArrayList<>(List.of(parameterName));
    identityParameterName.ifPresent(names::add);
    return names;
  }

  @Override
  public String backend() {
    return "aws";
  }

  @Override
  public SpawnedHost spawn(SpawnSlot slot) {
    requireNonNull(slot, "slot is null");
    if (closed.get()) {
      throw new IllegalStateException("spawn after close");
    }
    Ec2Settings.Site site = settings.site(slot.site());
    Ec2Client ec2 = clients.ec2(site.region());
    String launch = clientToken();
    String instanceId;
    try {
      instanceId = ec2.runInstances(runRequest(slot, site, launch)).instances().get(0)
          .instanceId();
    } catch (SdkException e) {
      // EC2 may have started the instance although no answer came back (the connection broke,
      // the call timed out, Ctrl-C interrupted it): whatever carries this launch's tag ends.
      Uninterrupted.run(() -> terminateLaunch(site.region(), slot, launch));
      throw launchFailure(slot, site, e);
    }
    live.computeIfAbsent(site.region(), region -> ConcurrentHashMap.newKeySet()).add(instanceId);
    LOG.info("Started {} for {} of transfer {} in {} ({})", instanceId, slot,
        slot.transferId(), site.region(), site.instanceType());
    try {
      String address = awaitAddress(ec2, instanceId, slot);
      return new SpawnedHost(slot, RelayAddress.of(address, settings.port()), instanceId,
          site.instanceType());
    } catch (RuntimeException e) {
      terminate(site.region(), instanceId);
      throw e instanceof RelayCpException
          ? e
          : new RelayCpException(ErrorCode.RELAY_START_FAILED, "relay host " + instanceId
              + " for " + slot + " did not start: " + e.getMessage(), e);
    }
  }

  @Override
  public void release(SpawnedHost host) {
    requireNonNull(host, "host is null");
    terminate(settings.site(host.slot().site()).region(), host.handle());
  }

  @Override
  public void extendExpiry(Instant expiresAt) {
    requireNonNull(expiresAt, "expiresAt is null");
    this.expiresAt = expiresAt;
    String value = expiresAt.toString();
    for (Map.Entry<String, Set<String>> region : live.entrySet()) {
      List<String> instances = new ArrayList<>(region.getValue());
      if (instances.isEmpty()) {
        continue;
      }
      try {
        clients.ec2(region.getKey()).createTags(request -> request.resources(instances)
            .tags(tag(Ec2Tags.EXPIRES, value)));
      } catch (RuntimeException e) {
        LOG.warn("Cannot move the expiry of {} in {} to {}: {}", instances, region.getKey(),
            value, e.getMessage());
      }
    }
    for (String region : settings.regions()) {
      for (String name : parameterNames()) {
        try {
          clients.ssm(region).addTagsToResource(request -> request
              .resourceType(ResourceTypeForTagging.PARAMETER).resourceId(name)
              .tags(ssmTag(Ec2Tags.EXPIRES, value)));
        } catch (RuntimeException e) {
          LOG.warn("Cannot move the expiry of {} in {} to {}: {}", name, region, value,
              e.getMessage());
        }
      }
    }
  }

  /** Deletes the secret parameters and closes the clients; hosts are released before. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      for (String region : settings.regions()) {
        deleteParameters(region);
      }
      live.forEach((region, instances) -> {
        if (!instances.isEmpty()) {
          LOG.warn("Closing with relay hosts not released in {}: {}; relaycp gc ends them"
              + " after {}", region, instances, expiresAt);
        }
      });
    } finally {
      clients.close();
    }
  }

  private RunInstancesRequest runRequest(SpawnSlot slot, Ec2Settings.Site site, String launch) {
    String heartbeat = context.heartbeats().get(slot.site());
    if (heartbeat == null) {
      throw new RelayCpException(ErrorCode.INTERNAL_ERROR, "no driver heartbeat for site "
          + slot.site() + " in the spawn context; a relay host must follow its driver");
    }
    String script = userData.renderBase64(Ec2UserData.values(site.region(), parameterName,
        identityParameterName.orElse(""), settings.port(), heartbeat,
        context.driverTimeout().toSeconds(), slot,
        settings.relayCommand()));
    RunInstancesRequest.Builder request = RunInstancesRequest.builder()
        .minCount(1)
        .maxCount(1)
        .instanceType(site.instanceType())
        .userData(script)
        .instanceInitiatedShutdownBehavior(ShutdownBehavior.TERMINATE)
        // Idempotent when the SDK retries; a new token for each launch, also of one slot.
        .clientToken(launch)
        .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.INSTANCE)
            .tags(tag(Ec2Tags.TRANSFER, slot.transferId()),
                tag(Ec2Tags.LAUNCH, launch),
                tag(Ec2Tags.EXPIRES, expiresAt.toString()),
                tag(Ec2Tags.SITE, slot.site()),
                tag(Ec2Tags.SLOT, Integer.toString(slot.slot())),
                tag(Ec2Tags.NAME, "relaycp " + slot + " " + slot.transferId()))
            .build());
    site.image().ifPresent(request::imageId);
    site.launchTemplate().ifPresent(template -> request.launchTemplate(
        template.startsWith("lt-")
            ? LaunchTemplateSpecification.builder().launchTemplateId(template).build()
            : LaunchTemplateSpecification.builder().launchTemplateName(template).build()));
    site.keyName().ifPresent(request::keyName);
    settings.instanceProfile().ifPresent(profile -> request.iamInstanceProfile(
        profile.startsWith("arn:")
            ? IamInstanceProfileSpecification.builder().arn(profile).build()
            : IamInstanceProfileSpecification.builder().name(profile).build()));
    if (settings.spot()) {
      request.instanceMarketOptions(InstanceMarketOptionsRequest.builder()
          .marketType(MarketType.SPOT)
          .spotOptions(SpotMarketOptions.builder().spotInstanceType(SpotInstanceType.ONE_TIME)
              .instanceInterruptionBehavior(InstanceInterruptionBehavior.TERMINATE).build())
          .build());
    }
    if (!settings.usePrivateAddress() && settings.associatePublicAddress()
        && site.subnet().isPresent()) {
      // A public address is asked for whatever the subnet's default, through the primary
      // network interface (which then carries the subnet and groups).
      request.networkInterfaces(InstanceNetworkInterfaceSpecification.builder()
          .deviceIndex(0)
          .subnetId(site.subnet().get())
          .groups(site.securityGroups())
          .associatePublicIpAddress(true)
          .deleteOnTermination(true)
          .build());
    } else {
      site.subnet().ifPresent(request::subnetId);
      if (!site.securityGroups().isEmpty()) {
        request.securityGroupIds(site.securityGroups());
      }
    }
    return request.build();
  }

  /** A token of its own for each launch (64 characters at most, as EC2 takes). */
  private static String clientToken() {
    return "relaycp-" + UUID.randomUUID();
  }

  /** Polls until the instance runs and has the address the other site reaches it at. */
  private String awaitAddress(Ec2Client ec2, String instanceId, SpawnSlot slot) {
    Instant deadline = clock.instant().plus(settings.startTimeout());
    String last = "no state yet";
    while (true) {
      Optional<Instance> instance = describe(ec2, instanceId);
      if (instance.isPresent()) {
        InstanceStateName state = instance.get().state().name();
        String address = settings.usePrivateAddress()
            ? instance.get().privateIpAddress()
            : instance.get().publicIpAddress();
        if (state == InstanceStateName.RUNNING && address != null && !address.isBlank()) {
          return address;
        }
        if (state == InstanceStateName.SHUTTING_DOWN || state == InstanceStateName.TERMINATED
            || state == InstanceStateName.STOPPING || state == InstanceStateName.STOPPED) {
          throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "relay host " + instanceId
              + " for " + slot + " went " + state + " while starting: "
              + Optional.ofNullable(instance.get().stateReason())
                  .map(reason -> reason.message()).orElse("no reason given"));
        }
        last = state + (address == null ? ", no " + addressKind() + " address" : "");
      }
      if (!clock.instant().isBefore(deadline)) {
        throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "relay host " + instanceId
            + " for " + slot + " was not running with a " + addressKind() + " address after "
            + settings.startTimeout().toSeconds() + " s (" + last + "); raise "
            + Ec2Settings.START_TIMEOUT + (settings.usePrivateAddress() ? ""
                : ", or check that its subnet gives public addresses"));
      }
      pause(Duration.ofMillis(Math.min(POLL_PERIOD.toMillis(),
          Math.max(1, Duration.between(clock.instant(), deadline).toMillis()))));
    }
  }

  /**
   * The instance as EC2 describes it; empty while EC2 does not know it yet (its API is
   * eventually consistent: an instance just started may be "not found" for a moment).
   */
  private static Optional<Instance> describe(Ec2Client ec2, String instanceId) {
    try {
      return ec2.describeInstances(request -> request.instanceIds(instanceId))
          .reservations().stream()
          .flatMap(reservation -> reservation.instances().stream())
          .findFirst();
    } catch (AwsServiceException e) {
      if ("InvalidInstanceID.NotFound".equals(errorCode(e))) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private String addressKind() {
    return settings.usePrivateAddress() ? "private" : "public";
  }

  /**
   * Terminates every instance tagged with {@code launch} that is not already ending: what a
   * RunInstances call that failed on its way back started. Never throws; what it cannot end
   * is left to relaycp gc, and logged.
   */
  private void terminateLaunch(String region, SpawnSlot slot, String launch) {
    List<String> started;
    try {
      started = clients.ec2(region).describeInstances(request -> request.filters(
              Filter.builder().name("tag:" + Ec2Tags.LAUNCH).values(launch).build(),
              Filter.builder().name("instance-state-name")
                  .values("pending", "running", "stopping", "stopped").build()))
          .reservations().stream()
          .flatMap(reservation -> reservation.instances().stream())
          .map(Instance::instanceId)
          .toList();
    } catch (RuntimeException e) {
      LOG.warn("Cannot look for a relay host the failed launch of {} may have started in {}:"
          + " {}; relaycp gc ends it after {}", slot, region, e.getMessage(), expiresAt);
      return;
    }
    for (String instanceId : started) {
      LOG.warn("The launch of {} failed, but started {} in {}; terminating it", slot,
          instanceId, region);
      terminateNow(region, instanceId);
    }
  }

  /** Terminates the instance, also from an interrupted thread ({@link Uninterrupted}). */
  private void terminate(String region, String instanceId) {
    Uninterrupted.run(() -> terminateNow(region, instanceId));
  }

  private void terminateNow(String region, String instanceId) {
    try {
      clients.ec2(region).terminateInstances(request -> request.instanceIds(instanceId));
      LOG.info("Terminated relay host {} in {}", instanceId, region);
    } catch (AwsServiceException e) {
      if ("InvalidInstanceID.NotFound".equals(errorCode(e))) {
        LOG.info("Relay host {} in {} is already gone", instanceId, region);
      } else {
        LOG.warn("Cannot terminate relay host {} in {}: {}; relaycp gc ends it after {}",
            instanceId, region, e.getMessage(), expiresAt);
      }
    } catch (RuntimeException e) {
      // Never thrown from release: whatever keeps the host alive is left to relaycp gc.
      LOG.warn("Cannot terminate relay host {} in {}: {}; relaycp gc ends it after {}",
          instanceId, region, e.getMessage(), expiresAt);
    }
    Set<String> instances = live.get(region);
    if (instances != null) {
      instances.remove(instanceId);
    }
  }

  private void putSecretParameters() {
    byte[] secret;
    try (var out = new java.io.ByteArrayOutputStream()) {
      context.secret().writeTo(out);
      secret = out.toByteArray();
    } catch (java.io.IOException e) {
      throw new IllegalStateException("writing to memory failed", e);
    }
    Map<String, String> values = new LinkedHashMap<>();
    values.put(parameterName, new String(secret, StandardCharsets.UTF_8).strip());
    identityParameterName.ifPresent(
        name -> values.put(name, context.tlsIdentity().orElseThrow().pem()));
    List<String> made = new ArrayList<>();
    for (String region : settings.regions()) {
      // Counted before its puts, so that a failure deletes whichever of them this region got.
      made.add(region);
      for (Map.Entry<String, String> parameter : values.entrySet()) {
        try {
          clients.ssm(region).putParameter(request -> request
              .name(parameter.getKey())
              .type(ParameterType.SECURE_STRING)
              .value(parameter.getValue())
              .description(parameter.getKey().equals(parameterName)
                  ? "relaycp transfer secret; deleted when the transfer ends"
                  : "relaycp relays' TLS key and certificate; deleted when the transfer ends")
              .tags(ssmTag(Ec2Tags.TRANSFER, context.transferId()),
                  ssmTag(Ec2Tags.EXPIRES, expiresAt.toString())));
        } catch (SdkException e) {
          made.forEach(this::deleteParameters);
          // The SDK's message names the parameter and the refusal, never the value.
          throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "cannot make the transfer's"
              + " secret parameter " + parameter.getKey() + " in " + region + ": "
              + e.getMessage() + "; the driver needs ssm:PutParameter on it", e);
        }
      }
    }
  }

  /** Deletes the region's parameters, also from an interrupted thread ({@link Uninterrupted}). */
  private void deleteParameters(String region) {
    Uninterrupted.run(() -> deleteParametersNow(region));
  }

  private void deleteParametersNow(String region) {
    for (String name : parameterNames()) {
      try {
        clients.ssm(region).deleteParameter(request -> request.name(name));
        LOG.info("Deleted the secret parameter {} in {}", name, region);
      } catch (AwsServiceException e) {
        if (!"ParameterNotFound".equals(errorCode(e))) {
          LOG.warn("Cannot delete the secret parameter {} in {}: {}; relaycp gc deletes it",
              name, region, e.getMessage());
        }
      } catch (RuntimeException e) {
        LOG.warn("Cannot delete the secret parameter {} in {}: {}; relaycp gc deletes it",
            name, region, e.getMessage());
      }
    }
  }

  private RelayCpException launchFailure(SpawnSlot slot, Ec2Settings.Site site,
      SdkException e) {
    String code = e instanceof AwsServiceException service ? errorCode(service) : "";
    boolean refused = code.startsWith("Invalid") || code.equals("MissingParameter")
        || code.equals("UnsupportedOperation") || code.equals("Unsupported");
    String message = "EC2 in " + site.region() + " refused to start a relay host for " + slot
        + ": " + e.getMessage();
    return refused
        ? new RelayCpException(ErrorCode.INVALID_ARGUMENT, message + "; check "
            + Ec2Settings.PREFIX + site.name() + ".* (image, subnet, security-groups,"
            + " instance-type)", e)
        : new RelayCpException(ErrorCode.RELAY_START_FAILED, message, e);
  }

  private static String errorCode(AwsServiceException e) {
    return e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null
        ? "" : e.awsErrorDetails().errorCode();
  }

  private static void checkReady(Ec2Settings settings, SpawnContext context) {
    if (!TRANSFER_ID.matcher(context.transferId()).matches()) {
      throw new IllegalArgumentException("transferId must be 1..64 of letters, digits, _ . -"
          + " (it names an SSM parameter and a client token), got " + context.transferId());
    }
    for (Ec2Settings.Site site : List.of(settings.source(), settings.destination())) {
      if (site.autoInstanceType()) {
        throw new IllegalArgumentException("the instance type of " + site.name() + " is still "
            + Ec2Settings.AUTO_INSTANCE_TYPE + "; resolve it with withAutoInstanceTypes");
      }
    }
  }

  private static Tag tag(String key, String value) {
    return Tag.builder().key(key).value(value).build();
  }

  private static software.amazon.awssdk.services.ssm.model.Tag ssmTag(String key, String value) {
    return software.amazon.awssdk.services.ssm.model.Tag.builder().key(key).value(value).build();
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "interrupted while waiting for a relay"
          + " host to start", e);
    }
  }
}
