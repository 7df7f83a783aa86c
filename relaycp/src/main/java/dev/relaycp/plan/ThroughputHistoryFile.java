package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static dev.relaycp.error.ErrorCode.IO_ERROR;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Reads and writes a {@link ThroughputHistory} as JSON, by default at {@code
 * $XDG_CONFIG_HOME/relaycp/history.json} or {@code ~/.config/relaycp/history.json}. A write goes
 * to a temporary file that is then moved over the old one, so a crash never leaves half a file.
 */
public final class ThroughputHistoryFile {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
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
      Document document = MAPPER.treeToValue(root, Document.class);
      if (document.version() == null || document.version() != VERSION) {
        throw new IllegalArgumentException("version " + document.version() + " is not " + VERSION);
      }
      int historyLength = Objects.requireNonNullElse(
          document.historyLength(), ThroughputHistory.DEFAULT_HISTORY_LENGTH);
      Map<String, WeightedOnlineEstimate> estimates = new TreeMap<>();
      Objects.requireNonNullElse(document.estimates(), Map.<String, Estimate>of()).forEach(
          (key, estimate) -> estimates.put(key, new WeightedOnlineEstimate(
              requireNonNull(estimate.mean(), "mean is missing"),
              requireNonNull(estimate.gamma(), "gamma is missing"),
              requireNonNull(estimate.samples(), "samples is missing"),
              Instant.parse(requireNonNull(estimate.lastSampleAt(), "lastSampleAt is missing")),
              historyLength)));
      return new ThroughputHistory(estimates, historyLength, Duration.ofSeconds(
          Objects.requireNonNullElse(document.referenceIntervalSeconds(),
              ThroughputHistory.DEFAULT_REFERENCE_INTERVAL.toSeconds())));
    } catch (JsonProcessingException | RuntimeException e) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "throughput history " + file + " is malformed (" + e.getMessage() + "); fix or delete it", e);
    }
  }

  public static void save(Path file, ThroughputHistory history) {
    requireNonNull(file, "file is null");
    requireNonNull(history, "history is null");
    Map<String, Estimate> estimates = new TreeMap<>();
    history.estimates().forEach((key, estimate) -> estimates.put(key, new Estimate(
        estimate.mean(), estimate.gamma(), estimate.samples(), estimate.lastSampleAt().toString())));
    Document document = new Document(VERSION, history.historyLength(),
        history.referenceInterval().toSeconds(), estimates);
    try {
      Path directory = file.toAbsolutePath().getParent();
      Files.createDirectories(directory);
      Path temporary = Files.createTempFile(directory, "history", ".json.tmp");
      Files.writeString(temporary, MAPPER.writeValueAsString(document), StandardCharsets.UTF_8);
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new RelayCpException(
          IO_ERROR, "cannot write throughput history " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The file as JSON: its components' names and order are the fields'. A field missing from a
   * file read is null; {@code historyLength} and {@code referenceIntervalSeconds} then take
   * their defaults.
   */
  record Document(Integer version, Integer historyLength, Long referenceIntervalSeconds,
      Map<String, Estimate> estimates) {}

  /** One key's estimate; {@code lastSampleAt} is an ISO-8601 instant. */
  record Estimate(Double mean, Double gamma, Long samples, String lastSampleAt) {}

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
