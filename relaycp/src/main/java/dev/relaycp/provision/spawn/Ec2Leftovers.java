package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterMetadata;
import software.amazon.awssdk.services.ssm.model.ParameterStringFilter;
import software.amazon.awssdk.services.ssm.model.ResourceTypeForTagging;

/**
 * What spawned transfers left in AWS after they were over: instances tagged {@link
 * Ec2Tags#TRANSFER} that still run (or are stopped), and secret parameters below the prefix,
 * whose {@link Ec2Tags#EXPIRES} lies before a cut-off. A running transfer's driver keeps its
 * expiry ahead of now, so what it holds is spared. Something tagged by relaycp with no
 * readable expiry is taken as over: relaycp always writes one with the tag that names the
 * transfer. What {@code relaycp gc} calls; it prints nothing.
 */
public final class Ec2Leftovers {
  private static final Logger LOG = LoggerFactory.getLogger(Ec2Leftovers.class);
  private static final List<String> UNENDED_STATES =
      List.of("pending", "running", "stopping", "stopped");

  /** What a leftover is. */
  public enum Kind { INSTANCE, PARAMETER }

  /**
   * One leftover.
   *
   * @param kind an instance or a secret parameter
   * @param region where it is
   * @param id the instance id or the parameter name
   * @param transferId the transfer it belongs to ("" if untagged)
   * @param expiresAt when that transfer was over; empty if the tag is missing or unreadable
   * @param state the instance's state, "" for a parameter
   */
  public record Leftover(Kind kind, String region, String id, String transferId,
      Optional<Instant> expiresAt, String state) {
    public Leftover {
      requireNonNull(kind, "kind is null");
      requireNonNull(region, "region is null");
      requireNonNull(id, "id is null");
      requireNonNull(transferId, "transferId is null");
      requireNonNull(expiresAt, "expiresAt is null");
      requireNonNull(state, "state is null");
    }
  }

  /**
   * What became of a leftover that was to be removed.
   *
   * @param leftover the leftover
   * @param failure why it could not be removed; empty if it was
   */
  public record Removal(Leftover leftover, Optional<String> failure) {
    public Removal {
      requireNonNull(leftover, "leftover is null");
      requireNonNull(failure, "failure is null");
    }

    public boolean removed() {
      return failure.isEmpty();
    }
  }

  private final AwsClients clients;
  private final String parameterPrefix;

  private Ec2Leftovers(AwsClients clients, String parameterPrefix) {
    this.clients = requireNonNull(clients, "clients is null");
    this.parameterPrefix = requireNonNull(parameterPrefix, "parameterPrefix is null");
  }

  /** Leftovers through {@code clients} (not closed here), parameters below the prefix. */
  public static Ec2Leftovers of(AwsClients clients, String parameterPrefix) {
    return new Ec2Leftovers(clients, parameterPrefix);
  }

  /**
   * Everything in {@code regions} of transfers whose expiry lies before {@code cutOff}
   * (now, less the grace {@code relaycp gc --older-than} gives): instances first, then
   * parameters, each in region and id order. Failing to list a region is an error.
   */
  public List<Leftover> find(List<String> regions, Instant cutOff) {
    requireNonNull(regions, "regions is null");
    requireNonNull(cutOff, "cutOff is null");
    List<Leftover> found = new ArrayList<>();
    try {
      for (String region : regions) {
        found.addAll(instances(region, cutOff));
      }
      for (String region : regions) {
        found.addAll(parameters(region, cutOff));
      }
    } catch (SdkException e) {
      throw new RelayCpException(ErrorCode.IO_ERROR, "cannot list relaycp's leftovers in "
          + regions + ": " + e.getMessage() + "; the caller needs ec2:DescribeInstances,"
          + " ec2:TerminateInstances, ssm:DescribeParameters, ssm:ListTagsForResource,"
          + " ssm:DeleteParameter", e);
    }
    return found;
  }

  /**
   * Terminates the instances and deletes the parameters; one that cannot be removed is
   * reported, not thrown, so the rest are still tried.
   */
  public List<Removal> remove(List<Leftover> leftovers) {
    requireNonNull(leftovers, "leftovers is null");
    List<Removal> removals = new ArrayList<>();
    for (Leftover leftover : leftovers) {
      try {
        if (leftover.kind() == Kind.INSTANCE) {
          clients.ec2(leftover.region()).terminateInstances(request -> request
              .instanceIds(leftover.id()));
        } else {
          clients.ssm(leftover.region()).deleteParameter(request -> request
              .name(leftover.id()));
        }
        LOG.info("Removed {} {} in {} (transfer {})", leftover.kind(), leftover.id(),
            leftover.region(), leftover.transferId());
        removals.add(new Removal(leftover, Optional.empty()));
      } catch (SdkException e) {
        LOG.warn("Cannot remove {} {} in {}: {}", leftover.kind(), leftover.id(),
            leftover.region(), e.getMessage());
        removals.add(new Removal(leftover, Optional.of(oneLine(e))));
      }
    }
    return removals;
  }

  private List<Leftover> instances(String region, Instant cutOff) {
    List<Leftover> found = new ArrayList<>();
    clients.ec2(region).describeInstancesPaginator(request -> request.filters(
            Filter.builder().name("tag-key").values(Ec2Tags.TRANSFER).build(),
            Filter.builder().name("instance-state-name").values(UNENDED_STATES).build()))
        .reservations()
        .forEach(reservation -> {
          for (Instance instance : reservation.instances()) {
            Map<String, String> tags = instance.tags().stream()
                .collect(Collectors.toMap(Tag::key, Tag::value, (first, second) -> first));
            Optional<Instant> expiry = Ec2Tags.expiry(tags.get(Ec2Tags.EXPIRES));
            if (over(expiry, cutOff)) {
              found.add(new Leftover(Kind.INSTANCE, region, instance.instanceId(),
                  tags.getOrDefault(Ec2Tags.TRANSFER, ""), expiry,
                  instance.state().nameAsString()));
            }
          }
        });
    found.sort(Comparator.comparing(Leftover::id));
    return found;
  }

  private List<Leftover> parameters(String region, Instant cutOff) {
    SsmClient ssm = clients.ssm(region);
    List<Leftover> found = new ArrayList<>();
    List<ParameterMetadata> parameters = new ArrayList<>();
    ssm.describeParametersPaginator(request -> request.parameterFilters(
            ParameterStringFilter.builder().key("Name").option("BeginsWith")
                .values(parameterPrefix + "/").build()))
        .forEach(page -> parameters.addAll(page.parameters()));
    for (ParameterMetadata parameter : parameters) {
      Map<String, String> tags;
      try {
        tags = ssm.listTagsForResource(request -> request
                .resourceType(ResourceTypeForTagging.PARAMETER)
                .resourceId(parameter.name()))
            .tagList().stream()
            .collect(Collectors.toMap(tag -> tag.key(), tag -> tag.value(),
                (first, second) -> first));
      } catch (AwsServiceException e) {
        if (e.awsErrorDetails() != null
            && "InvalidResourceId".equals(e.awsErrorDetails().errorCode())) {
          continue; // deleted since it was listed
        }
        throw e;
      }
      if (!tags.containsKey(Ec2Tags.TRANSFER)) {
        continue; // not relaycp's, though below its prefix
      }
      Optional<Instant> expiry = Ec2Tags.expiry(tags.get(Ec2Tags.EXPIRES));
      if (over(expiry, cutOff)) {
        found.add(new Leftover(Kind.PARAMETER, region, parameter.name(),
            tags.get(Ec2Tags.TRANSFER), expiry, ""));
      }
    }
    found.sort(Comparator.comparing(Leftover::id));
    return found;
  }

  private static boolean over(Optional<Instant> expiry, Instant cutOff) {
    return expiry.map(at -> at.isBefore(cutOff)).orElse(true);
  }

  private static String oneLine(SdkException e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return message.replace('\n', ' ');
  }
}
