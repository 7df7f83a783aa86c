package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.plan.AutoPairs;
import dev.relaycp.plan.DataSize;
import dev.relaycp.plan.MachineType;
import dev.relaycp.plan.Pricing;
import dev.relaycp.plan.RelayCatalog;
import dev.relaycp.plan.SpawnBill;
import dev.relaycp.provision.YarnRelaySettings;
import dev.relaycp.provision.spawn.CommandHostSpawner;
import dev.relaycp.provision.spawn.Ec2HostSpawner;
import dev.relaycp.provision.spawn.HostSpawner;
import dev.relaycp.provision.spawn.SpawnContext;
import dev.relaycp.provision.spawn.SpawnSlot;
import dev.relaycp.provision.spawn.SpawnedRelays;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.RouteSource;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of relays relaycp spawns for a copy ({@code --spawn N} pairs through a backend),
 * their checks, and the summary of what was spawned and what it cost.
 */
public final class SpawnOptions {
  /** Where and how the aws backend starts hosts. */
  @Mixin AwsSpawnOptions aws;


  @Option(names = "--spawn", paramLabel = "N",
      description = "Spawn N relay pairs for this copy through --spawn-backend, beside the"
          + " datanode relays (--relays); each pair joins as a route once both relays answer,"
          + " and every spawned host is released at the end. With --pairs auto the planner"
          + " chooses N.")
  Integer spawn;

  @Option(names = "--spawn-backend", paramLabel = "aws|exec",
      description = "What starts the spawned hosts: exec (--spawn-command; the default when it"
          + " is given) or aws (EC2 instances).")
  String backend;

  @Option(names = "--spawn-command", paramLabel = "CMD",
      description = "exec backend: a shell command that starts one relay and prints its"
          + " host:port; {site} (src|dst), {slot} and {transfer} are replaced, and"
          + " RELAYCP_SECRET_FILE and RELAYCP_DRIVER_HEARTBEAT are in its environment.")
  String spawnCommand;

  @Option(names = "--release-command", paramLabel = "CMD",
      description = "exec backend: a shell command that stops one spawned relay ({address},"
          + " {handle}, {site}, {slot}, {transfer} replaced); without it the spawn command is"
          + " ended instead.")
  String releaseCommand;

  @Option(names = "--spawn-timeout", paramLabel = "DURATION", defaultValue = "5m",
      description = "How long a spawned host has to answer before it is released and replaced"
          + " once (e.g. 90s, 5m; default ${DEFAULT-VALUE}).")
  String spawnTimeout;

  @Option(names = "--pretest",
      description = "Spawn twice the pairs, measure each with a timed send"
          + " (relaycp.spawn.pretest-bytes, default 16MiB), keep the fastest and release the"
          + " rest at once.")
  boolean pretest;

  /** Whether any spawn option asks for spawned relays. */
  boolean spawning() {
    return spawn != null || backend != null || spawnCommand != null;
  }

  /** Checks these options against each other; {@code auto}: --pairs auto chooses N. */
  void check(boolean auto) {
    if (!spawning()) {
      if (pretest || releaseCommand != null) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--pretest and --release-command"
            + " steer spawned relays; add --spawn N (or --pairs auto) and a backend");
      }
      return;
    }
    if (spawn != null && auto) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--spawn N and --pairs auto both choose the spawned pairs; give one of them");
    }
    if (spawn == null && !auto) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "spawned relays need a count: --spawn N, or --pairs auto for the planner's");
    }
    if (spawn != null && spawn < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--spawn must be 1 or more, got " + spawn);
    }
    String chosen = backend();
    if (!chosen.equals("exec") && !chosen.equals("aws")) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "unknown --spawn-backend '" + backend + "'; use exec or aws");
    }
    if (chosen.equals("exec") && spawnCommand == null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--spawn-backend exec needs"
          + " --spawn-command, a command that starts a relay and prints its host:port");
    }
    if (chosen.equals("aws") && (spawnCommand != null || releaseCommand != null)) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--spawn-command and"
          + " --release-command are for --spawn-backend exec; drop them or use exec");
    }
    timeout();
  }

  String backend() {
    if (backend != null) {
      return backend.toLowerCase(Locale.ROOT);
    }
    return spawnCommand != null ? "exec" : "aws";
  }

  Duration timeout() {
    return duration(spawnTimeout, "--spawn-timeout");
  }

  /** Parses {@code 90}, {@code 90s}, {@code 5m}, {@code 1h} or an ISO-8601 {@code PT5M}. */
  static Duration duration(String text, String option) {
    String trimmed = text.strip().toLowerCase(Locale.ROOT);
    try {
      Duration parsed;
      if (trimmed.startsWith("pt") || trimmed.startsWith("p")) {
        parsed = Duration.parse(trimmed.toUpperCase(Locale.ROOT));
      } else if (trimmed.endsWith("ms")) {
        parsed = Duration.ofMillis(Long.parseLong(trimmed.substring(0, trimmed.length() - 2)));
      } else if (trimmed.endsWith("s")) {
        parsed = Duration.ofSeconds(Long.parseLong(trimmed.substring(0, trimmed.length() - 1)));
      } else if (trimmed.endsWith("m")) {
        parsed = Duration.ofMinutes(Long.parseLong(trimmed.substring(0, trimmed.length() - 1)));
      } else if (trimmed.endsWith("h")) {
        parsed = Duration.ofHours(Long.parseLong(trimmed.substring(0, trimmed.length() - 1)));
      } else {
        parsed = Duration.ofSeconds(Long.parseLong(trimmed));
      }
      if (parsed.isNegative() || parsed.isZero()) {
        throw new NumberFormatException("not positive");
      }
      return parsed;
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, option + " '" + text
          + "' is not a positive duration; write e.g. 90s, 5m or 1h");
    }
  }

  /**
   * The copy's relays: {@code base}'s (if any) with {@code pairs} spawned pairs joining them,
   * pre-tested with --pretest or when {@code pretest} (the planner's advice). The heartbeats
   * the spawned relays follow live on each site's cluster, opened through {@code opener}.
   */
  Function<Supplier<Optional<RouteSource>>, SpawnedRelays> starter(int pairs,
      Configuration configuration, FileSystemOpener opener,
      URI source, URI destination, TransferSecret secret, Path secretFile, boolean pretest) {
    YarnRelaySettings yarn = YarnRelaySettings.from(configuration, Map.of());
    SpawnedRelays.Launch launch = new SpawnedRelays.Launch(pairs, timeout(),
        pretest || this.pretest,
        RelayKeys.SPAWN_PRETEST_BYTES.from(configuration),
        yarn.stagingDirectory(), Duration.ofSeconds(yarn.driverTimeoutSeconds()), source,
        destination);
    return base -> SpawnedRelays.launch(launch,
        context -> spawner(context, launch.spawnTimeout(), configuration),
        opener, base, secret, secretFile);
  }

  private HostSpawner spawner(SpawnContext context, Duration timeout,
      Configuration configuration) {
    return switch (backend()) {
      case "exec" -> CommandHostSpawner.of(spawnCommand, Optional.ofNullable(releaseCommand),
          context, timeout);
      case "aws" -> Ec2HostSpawner.open(
          aws.settings(configuration, RelayCatalog.loadDefault(System.getenv())), context);
      default -> throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "unknown --spawn-backend '" + backend + "'; use exec or aws");
    };
  }

  /**
   * A spawned host's price: its machine type's in the relay catalog (the aws backend names
   * it), else relaycp.spawn.dollars-per-hour (hosts an exec command starts).
   */
  private static double dollarsPerHour(String machineType, RelayCatalog catalog,
      double otherwise) {
    if (machineType.isEmpty()) {
      return otherwise;
    }
    return catalog.machines().stream()
        .filter(machine -> machine.name().equals(machineType))
        .mapToDouble(MachineType::dollarsPerHour)
        .min()
        .orElse(otherwise);
  }

  /**
   * What the planner needs of the spawned relays for --pairs auto: the aws backend's machine
   * type from the catalog; for exec hosts, their boot time (relaycp.spawn.boot-seconds) and price.
   */
  AutoPairs.Spawning planned(Configuration configuration, boolean besideDatanodeRelays) {
    double bootSeconds = RelayKeys.SPAWN_BOOT_SECONDS.from(configuration);
    double dollarsPerHour = RelayKeys.SPAWN_DOLLARS_PER_HOUR.from(configuration);
    Optional<MachineType> machine = Optional.empty();
    if (backend().equals("aws")) {
      RelayCatalog catalog = RelayCatalog.loadDefault(System.getenv());
      String type = aws.settings(configuration, catalog).site(SpawnSlot.SOURCE_SITE)
          .instanceType();
      machine = catalog.machines().stream()
          .filter(row -> row.name().equals(type))
          .min(Comparator.comparingDouble(MachineType::dollarsPerHour));
    }
    return new AutoPairs.Spawning(machine, bootSeconds, dollarsPerHour, besideDatanodeRelays);
  }

  /** The JSON summary's {@code spawned} and {@code cost} parts. */
  static Map<String, Object> summary(SpawnedRelays relays, long bytes,
      Configuration configuration, Optional<Double> predictedDollars) {
    double dollarsPerHour = RelayKeys.SPAWN_DOLLARS_PER_HOUR.from(configuration);
    RelayCatalog catalog = relays.backend().equals("aws")
        ? RelayCatalog.loadDefault(System.getenv()) : new RelayCatalog(List.of());
    Pricing pricing = new Pricing(
        RelayKeys.COST_EGRESS_DOLLARS_PER_GIB.from(configuration), 0);
    List<SpawnBill.HostRun> runs = new ArrayList<>();
    List<Map<String, Object>> hosts = new ArrayList<>();
    for (SpawnedRelays.HostRecord host : relays.hosts()) {
      String machineType = host.host().map(started -> started.machineType()).orElse("");
      runs.add(new SpawnBill.HostRun(host.slot().site(), machineType,
          dollarsPerHour(machineType, catalog, dollarsPerHour),
          host.host().isPresent() ? host.runSeconds() : 0));
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("site", host.slot().site());
      entry.put("slot", host.slot().slot());
      entry.put("address", host.host().map(started -> started.address().toString()).orElse(null));
      entry.put("handle", host.host().map(started -> started.handle()).orElse(null));
      entry.put("machineType", machineType);
      entry.put("outcome", host.outcome().name().toLowerCase(Locale.ROOT));
      entry.put("runSeconds", host.runSeconds());
      entry.put("answeredSeconds", host.answeredSeconds().isPresent()
          ? host.answeredSeconds().getAsDouble() : null);
      entry.put("pretestMbPerSecond", host.pretestMegabytesPerSecond().isPresent()
          ? host.pretestMegabytesPerSecond().getAsDouble() : null);
      entry.put("released", host.released());
      host.failure().ifPresent(failure -> entry.put("failure", failure));
      hosts.add(entry);
    }
    SpawnBill bill = SpawnBill.of(runs.stream()
        .filter(run -> run.runSeconds() > 0).toList(), bytes, pricing);
    Map<String, Object> spawned = new LinkedHashMap<>();
    spawned.put("backend", relays.backend());
    spawned.put("pretest", relays.pretested());
    spawned.put("startedByRelaycp", true);
    spawned.put("allReleased",
        relays.hosts().stream().allMatch(SpawnedRelays.HostRecord::released));
    spawned.put("hosts", hosts);
    Map<String, Object> cost = new LinkedHashMap<>();
    cost.put("spawnedHostSeconds", bill.hosts().stream()
        .mapToDouble(SpawnBill.HostCharge::billedSeconds).sum());
    cost.put("spawnedHostDollars", bill.hostDollars());
    cost.put("egressBytes", bill.egressBytes());
    cost.put("egressDollars", bill.egressDollars());
    cost.put("dollars", bill.dollars());
    predictedDollars.ifPresent(dollars -> cost.put("predictedDollars", dollars));
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("spawned", spawned);
    summary.put("cost", cost);
    return summary;
  }
}
