package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static dev.relaycp.error.ErrorCode.IO_ERROR;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads and writes a {@link ThroughputHistory} as JSON, by default at {@code
 * $XDG_CONFIG_HOME/relaycp/history.json} or {@code ~/.config/relaycp/history.json}. A write goes
 * to a temporary file that is then moved over the old one, so a crash never leaves half a file.
 */
public final class ThroughputHistoryFile {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final int VERSION = 1;

  private ThroughputHistoryFile() {}

  public static Path defaultPath(Map<String, String> environment) {
    String configHome = environment.get("XDG_CONFIG_HOME");
    Path base =
        configHome != null && !configHome.isBlank()
            ? Path.of(configHome)
            : Path.of(System.getProperty("user.home"), ".config");
    return base.resolve("relaycp").resolve("history.json");
  }

  /** The history in {@code file}, or an empty one if there is no such file. */
  public static ThroughputHistory loadIfPresent(Path file) {
    requireNonNull(file, "file is null");
    return Files.exists(file) ? load(file) : ThroughputHistory.empty();
  }

  public static ThroughputHistory load(Path file) {
    requireNonNull(file, "file is null");
    JsonNode root;
    try {
      root = MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw new RelayCpException(INVALID_ARGUMENT, "throughput history " + file
          + " is not JSON (" + e.getOriginalMessage() + "); fix or delete it", e);
    } catch (IOException e) {
      throw new RelayCpException(
          IO_ERROR, "cannot read throughput history " + file + ": " + e.getMessage() + "; fix or delete it", e);
    }
    try {
      if (root.path("version").asInt() != VERSION) {
        throw new IllegalArgumentException("version " + root.path("version") + " is not " + VERSION);
      }
      Map<String, WeightedOnlineEstimate> estimates = new TreeMap<>();
      int historyLength = root.path("historyLength").asInt(ThroughputHistory.DEFAULT_HISTORY_LENGTH);
      Iterator<Map.Entry<String, JsonNode>> fields = root.path("estimates").fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        JsonNode value = field.getValue();
        estimates.put(
            field.getKey(),
            new WeightedOnlineEstimate(
                value.get("mean").asDouble(), value.get("gamma").asDouble(), value.get("samples").asLong(),
                Instant.parse(value.get("lastSampleAt").asText()), historyLength));
      }
      return new ThroughputHistory(
          estimates,
          historyLength,
          Duration.ofSeconds(
              root.path("referenceIntervalSeconds")
                  .asLong(ThroughputHistory.DEFAULT_REFERENCE_INTERVAL.toSeconds())));
    } catch (RuntimeException e) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "throughput history " + file + " is malformed (" + e.getMessage() + "); fix or delete it", e);
    }
  }

  public static void save(Path file, ThroughputHistory history) {
    requireNonNull(file, "file is null");
    requireNonNull(history, "history is null");
    ObjectNode root = MAPPER.createObjectNode();
    root.put("version", VERSION);
    root.put("historyLength", history.historyLength());
    root.put("referenceIntervalSeconds", history.referenceInterval().toSeconds());
    ObjectNode estimates = root.putObject("estimates");
    new TreeMap<>(history.estimates())
        .forEach(
            (key, estimate) -> {
              ObjectNode node = estimates.putObject(key);
              node.put("mean", estimate.mean());
              node.put("gamma", estimate.gamma());
              node.put("samples", estimate.samples());
              node.put("lastSampleAt", estimate.lastSampleAt().toString());
            });
    try {
      Path directory = file.toAbsolutePath().getParent();
      Files.createDirectories(directory);
      Path temporary = Files.createTempFile(directory, "history", ".json.tmp");
      Files.writeString(temporary, MAPPER.writeValueAsString(root), StandardCharsets.UTF_8);
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new RelayCpException(
          IO_ERROR, "cannot write throughput history " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Adds one measured sample to the history in {@code file} and saves it: what the copy driver
   * calls for each node and relay rate it observed. Not safe against a concurrent writer of the
   * same file; the later save wins.
   */
  public static ThroughputHistory record(Path file, String key, DataRate sample, Instant at) {
    return recordAll(file, Map.of(key, sample), at);
  }

  /**
   * Adds one sample per key, all measured at {@code at}, with one read and one write of the
   * file. Same concurrency caveat as {@link #record}.
   */
  public static ThroughputHistory recordAll(Path file, Map<String, DataRate> samples, Instant at) {
    requireNonNull(file, "file is null");
    requireNonNull(samples, "samples is null");
    requireNonNull(at, "at is null");
    ThroughputHistory updated = loadIfPresent(file);
    for (Map.Entry<String, DataRate> sample : new TreeMap<>(samples).entrySet()) {
      updated = updated.record(sample.getKey(), sample.getValue(), at);
    }
    save(file, updated);
    return updated;
  }
}
