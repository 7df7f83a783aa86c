package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.provision.spawn.AwsClients;
import dev.relaycp.provision.spawn.Ec2Leftovers.Leftover;
import dev.relaycp.provision.spawn.Ec2Leftovers.Removal;
import dev.relaycp.provision.spawn.Ec2Leftovers;
import dev.relaycp.provision.spawn.Ec2Settings;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code relaycp gc}: ends what spawned transfers that are over left running in AWS. */
@Command(
    name = "gc",
    mixinStandardHelpOptions = true,
    description = {
        "Terminates the relay instances and deletes the secret parameters that spawned",
        "transfers left in AWS (a killed driver's), those whose relaycp:expires tag lies",
        "before now less --older-than. A running transfer keeps its expiry ahead of now, so",
        "what it holds is spared. Prints one line per resource."
    })
public final class GcCommand implements Callable<Integer> {
  private static final Pattern AGE = Pattern.compile("(\\d+)\\s*([smhd]?)");

  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;

  @Option(names = "--older-than", paramLabel = "DURATION", defaultValue = "0",
      description = "Spare transfers that ended less than this long ago: 90s, 30m, 12h, 2d, or"
          + " ISO-8601 (PT1H). Default: ${DEFAULT-VALUE}, everything past its expiry.")
  String olderThan;

  @Option(names = "--dry-run", description = "List what would be removed; remove nothing.")
  boolean dryRun;

  @Option(names = "--region", split = ",", paramLabel = "REGION",
      description = "AWS regions to look in (repeat or separate with commas). Default: those of"
          + " relaycp.spawn.aws.src.region and .dst.region (or relaycp.spawn.aws.region).")
  List<String> regions = new ArrayList<>();

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  Clock clock = Clock.systemUTC();

  @Override
  /*
   * No AWS SDK type may appear in this class, even in a catch clause: picocli reflects on
   * every command's methods, and the relay jar YARN containers run has no SDK.
   */
  public Integer call() throws Exception {
    Duration age = parseAge(olderThan);
    Configuration configuration = hadoop.apply(parent.configuration());
    List<String> where = regions.isEmpty()
        ? Ec2Settings.configuredRegions(configuration)
        : regions.stream().map(String::strip).filter(region -> !region.isEmpty()).distinct()
            .toList();
    if (where.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "name the regions to look in with"
          + " --region R (or set relaycp.spawn.aws.src.region and .dst.region)");
    }
    Instant cutOff = clock.instant().minus(age);
    List<Leftover> found;
    List<Removal> removals;
    try (AwsClients clients = AwsClients.withDefaultCredentials(
        Ec2Settings.endpoint(configuration))) {
      Ec2Leftovers leftovers = Ec2Leftovers.of(clients,
          Ec2Settings.parameterPrefix(configuration));
      found = leftovers.find(where, cutOff);
      removals = dryRun ? List.of() : leftovers.remove(found);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(CopySummary.jsonMapper().writerWithDefaultPrettyPrinter()
          .writeValueAsString(toJson(where, cutOff, found, removals)));
    } else {
      if (found.isEmpty()) {
        out.println("nothing to remove in " + String.join(", ", where) + " (cut-off " + cutOff
            + ")");
      }
      for (int index = 0; index < found.size(); index++) {
        out.println(line(found.get(index), action(index, removals)));
      }
    }
    out.flush();
    return removals.stream().allMatch(Removal::removed) ? ExitCodes.OK : ExitCodes.EXTERNAL;
  }

  /** What was done to the {@code index}-th leftover: its removal, or nothing in a dry run. */
  private String action(int index, List<Removal> removals) {
    if (dryRun) {
      return "would remove";
    }
    Removal removal = removals.get(index);
    return removal.removed()
        ? (removal.leftover().kind() == Ec2Leftovers.Kind.INSTANCE ? "terminated" : "deleted")
        : "failed: " + removal.failure().orElse("");
  }

  private static String line(Leftover leftover, String action) {
    return String.format(Locale.ROOT, "%-9s %-9s %-10s %s transfer=%s expires=%s%s", action,
        leftover.kind().name().toLowerCase(Locale.ROOT), leftover.region(), leftover.id(),
        leftover.transferId().isEmpty() ? "?" : leftover.transferId(),
        leftover.expiresAt().map(Instant::toString).orElse("?"),
        leftover.state().isEmpty() ? "" : " state=" + leftover.state());
  }

  private Map<String, Object> toJson(List<String> where, Instant cutOff, List<Leftover> found,
      List<Removal> removals) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("dryRun", dryRun);
    json.put("regions", where);
    json.put("cutOff", cutOff.toString());
    List<Map<String, Object>> resources = new ArrayList<>();
    for (int index = 0; index < found.size(); index++) {
      Leftover leftover = found.get(index);
      Map<String, Object> resource = new LinkedHashMap<>();
      resource.put("kind", leftover.kind().name().toLowerCase(Locale.ROOT));
      resource.put("region", leftover.region());
      resource.put("id", leftover.id());
      resource.put("transferId", leftover.transferId());
      resource.put("expiresAt", leftover.expiresAt().map(Instant::toString).orElse(null));
      if (!leftover.state().isEmpty()) {
        resource.put("state", leftover.state());
      }
      Optional<Removal> removal = dryRun ? Optional.empty() : Optional.of(removals.get(index));
      resource.put("removed", removal.map(Removal::removed).orElse(false));
      removal.flatMap(Removal::failure).ifPresent(failure -> resource.put("failure", failure));
      resources.add(resource);
    }
    json.put("resources", resources);
    return json;
  }

  /** {@code 0}, {@code 90s}, {@code 30m}, {@code 12h}, {@code 2d} (no unit: seconds), or ISO. */
  static Duration parseAge(String text) {
    String value = text.strip();
    Matcher matcher = AGE.matcher(value.toLowerCase(Locale.ROOT));
    if (matcher.matches()) {
      long amount = Long.parseLong(matcher.group(1));
      return switch (matcher.group(2)) {
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        case "d" -> Duration.ofDays(amount);
        default -> Duration.ofSeconds(amount);
      };
    }
    try {
      Duration duration = Duration.parse(value);
      if (!duration.isNegative()) {
        return duration;
      }
    } catch (DateTimeParseException e) {
      // Reported below with the accepted forms.
    }
    throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--older-than " + text
        + " is not a duration of 0 or more; write e.g. 90s, 30m, 12h, 2d or PT1H");
  }
}
