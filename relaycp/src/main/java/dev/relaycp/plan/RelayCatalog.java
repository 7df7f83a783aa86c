package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static dev.relaycp.error.ErrorCode.IO_ERROR;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * The machine types relaycp can spawn as relays, read from {@code conf/relay-catalog.csv} (its
 * header comment documents the columns). Reading the file is the only input/output; the rest
 * is pure.
 */
public record RelayCatalog(List<MachineType> machines) {
  public static final String FILE_NAME = "relay-catalog.csv";
  /** Environment variable naming relaycp's configuration directory. */
  public static final String CONF_DIRECTORY_VARIABLE = "RELAYCP_CONF_DIR";

  /** RFC 4180 with {@code #} comment lines and blank lines skipped, fields trimmed. */
  private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder()
      .setCommentMarker('#')
      .setIgnoreEmptyLines(true)
      .setIgnoreSurroundingSpaces(true)
      .setTrim(true)
      .build();
  private static final List<String> HEADER =
      List.of(
          "provider", "region", "vm_type", "dollars_per_hour", "external", "internal",
          "boot_seconds", "billing_granularity_seconds", "billing_minimum_seconds", "source");

  public RelayCatalog {
    requireNonNull(machines, "machines is null");
    machines = List.copyOf(machines);
  }

  /** Reads a catalog file. */
  public static RelayCatalog load(Path file) {
    requireNonNull(file, "file is null");
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (IOException e) {
      throw new RelayCpException(
          IO_ERROR, "cannot read relay catalog " + file + ": " + e.getMessage() + "; check the path", e);
    }
  }

  /**
   * The catalog at {@code $RELAYCP_CONF_DIR/relay-catalog.csv}, else {@code
   * conf/relay-catalog.csv} under the working directory, else {@code /relay-catalog.csv} on the
   * class path.
   */
  public static RelayCatalog loadDefault(Map<String, String> environment) {
    String directory = environment.get(CONF_DIRECTORY_VARIABLE);
    if (directory != null && !directory.isBlank()) {
      return load(Path.of(directory, FILE_NAME));
    }
    Path local = Path.of("conf", FILE_NAME);
    if (Files.isRegularFile(local)) {
      return load(local);
    }
    try (InputStream stream = RelayCatalog.class.getResourceAsStream("/" + FILE_NAME)) {
      if (stream == null) {
        throw new RelayCpException(
            INVALID_ARGUMENT,
            "no relay catalog found; set " + CONF_DIRECTORY_VARIABLE + " or pass --catalog FILE");
      }
      return parse(new String(stream.readAllBytes(), StandardCharsets.UTF_8), "classpath:/" + FILE_NAME);
    } catch (IOException e) {
      throw new RelayCpException(IO_ERROR, "cannot read the bundled relay catalog: " + e.getMessage(), e);
    }
  }

  /** Parses catalog text; {@code origin} names it in error messages. */
  public static RelayCatalog parse(String text, String origin) {
    requireNonNull(text, "text is null");
    requireNonNull(origin, "origin is null");
    List<MachineType> machines = new ArrayList<>();
    boolean headerSeen = false;
    try (CSVParser parser = CSVParser.parse(text, FORMAT)) {
      for (CSVRecord record : parser) {
        List<String> fields = record.toList();
        String where = origin + " line " + parser.getCurrentLineNumber();
        if (!headerSeen) {
          if (!fields.equals(HEADER)) {
            throw new RelayCpException(
                INVALID_ARGUMENT, where + ": the header must be " + String.join(",", HEADER));
          }
          headerSeen = true;
          continue;
        }
        if (fields.size() != HEADER.size()) {
          throw new RelayCpException(INVALID_ARGUMENT, where + " has " + fields.size()
              + " fields, not " + HEADER.size() + "; quote fields holding commas");
        }
        machines.add(machine(fields, where));
      }
    } catch (IOException | UncheckedIOException e) {
      throw new RelayCpException(
          INVALID_ARGUMENT, origin + " is not CSV: " + e.getMessage() + "; see conf/" + FILE_NAME, e);
    }
    if (!headerSeen) {
      throw new RelayCpException(INVALID_ARGUMENT, origin + " has no header line; see conf/" + FILE_NAME);
    }
    return new RelayCatalog(machines);
  }

  /**
   * The machine type called {@code name} ({@code t2.small}) or {@code provider/name}
   * ({@code thesis-model/t2.small}); a bare name that several providers share means the first
   * in the file.
   */
  public MachineType find(String name) {
    requireNonNull(name, "name is null");
    int slash = name.indexOf('/');
    Optional<MachineType> found =
        machines.stream()
            .filter(
                machine ->
                    slash < 0
                        ? machine.name().equals(name)
                        : machine.provider().equals(name.substring(0, slash))
                            && machine.name().equals(name.substring(slash + 1)))
            .findFirst();
    return found.orElseThrow(
        () ->
            new RelayCpException(
                INVALID_ARGUMENT,
                "unknown VM type '"
                    + name
                    + "'; use one of "
                    + machines.stream()
                        .map(machine -> machine.provider() + "/" + machine.name())
                        .collect(Collectors.joining(", "))
                    + " or add it to conf/"
                    + FILE_NAME));
  }

  /**
   * The type that buys the most WAN throughput per dollar (thesis §4.3.1, §5.1.1), among those
   * of {@code provider} (any if empty) whose internal rate is at least {@code
   * minimumInternalToExternal} times their WAN rate, so that a relay can be fed as fast as it
   * sends. Ties go to the faster WAN.
   */
  public MachineType mostWanPerDollar(Optional<String> provider, double minimumInternalToExternal) {
    requireNonNull(provider, "provider is null");
    return machines.stream()
        .filter(machine -> provider.map(machine.provider()::equals).orElse(true))
        .filter(
            machine ->
                machine.internal().bytesPerSecond()
                    >= minimumInternalToExternal * machine.external().bytesPerSecond())
        .max(
            Comparator.comparingDouble(MachineType::externalMebibytesPerSecondPerDollarHour)
                .thenComparing(MachineType::external))
        .orElseThrow(
            () ->
                new RelayCpException(
                    INVALID_ARGUMENT,
                    String.format(
                        Locale.ROOT,
                        "no VM type%s in the catalog has internal throughput %.1f times its WAN"
                            + " throughput; add one to conf/%s or name one with --vm-type",
                        provider.map(name -> " of " + name).orElse(""),
                        minimumInternalToExternal,
                        FILE_NAME)));
  }

  /**
   * The type {@code --vm-type auto} spawns in {@code region}: of {@code provider}'s types priced
   * there, the one that buys the most WAN throughput per dollar among those that can be fed as
   * fast as they send (internal rate at least the WAN rate); ties go to the faster WAN. If the
   * catalog prices none of the provider's types in that region, the choice is made among the
   * provider's types of every region (their ranking is taken to carry over).
   */
  public MachineType mostWanPerDollarIn(String provider, String region) {
    requireNonNull(provider, "provider is null");
    requireNonNull(region, "region is null");
    List<MachineType> ofProvider = machines.stream()
        .filter(machine -> machine.provider().equals(provider))
        .toList();
    List<MachineType> inRegion = ofProvider.stream()
        .filter(machine -> machine.region().equals(region))
        .toList();
    return (inRegion.isEmpty() ? ofProvider : inRegion).stream()
        .filter(machine -> machine.internal().bytesPerSecond()
            >= machine.external().bytesPerSecond())
        .max(Comparator.comparingDouble(MachineType::externalMebibytesPerSecondPerDollarHour)
            .thenComparing(MachineType::external))
        .orElseThrow(() -> new RelayCpException(INVALID_ARGUMENT, "the catalog has no VM type"
            + " of " + provider + " that a relay can use for --vm-type auto in " + region
            + "; add one to conf/" + FILE_NAME + " or name one with --vm-type TYPE"));
  }

  private static MachineType machine(List<String> fields, String where) {
    try {
      return new MachineType(
          fields.get(0), fields.get(1), fields.get(2), Double.parseDouble(fields.get(3)),
          DataRate.parse(fields.get(4)), DataRate.parse(fields.get(5)),
          Double.parseDouble(fields.get(6)), Double.parseDouble(fields.get(7)),
          Double.parseDouble(fields.get(8)), fields.get(9));
    } catch (NumberFormatException | RelayCpException e) {
      throw new RelayCpException(INVALID_ARGUMENT, where + ": " + e.getMessage(), e);
    }
  }
}
