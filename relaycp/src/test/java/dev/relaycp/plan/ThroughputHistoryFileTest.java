package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThroughputHistoryFileTest {
  @TempDir Path directory;

  @Test
  void recordedSamplesSurviveARoundTrip() {
    Path file = directory.resolve("nested/history.json");
    String key = ThroughputHistory.nodeKey("dn1.example", ThroughputHistory.Direction.EXTERNAL);
    ThroughputHistoryFile.record(file, key, DataRate.ofMebibytesPerSecond(15), Instant.parse("2024-01-01T00:00:00Z"));
    ThroughputHistory saved =
        ThroughputHistoryFile.record(file, key, DataRate.ofMebibytesPerSecond(15), Instant.parse("2024-01-01T01:00:00Z"));
    ThroughputHistory loaded = ThroughputHistoryFile.load(file);
    assertThat(loaded).isEqualTo(saved);
    assertThat(loaded.estimate(key).orElseThrow().samples()).isEqualTo(2);
  }

  @Test
  void recordAllAddsOneSamplePerKeyInOneWrite() {
    Path file = directory.resolve("history.json");
    String first = ThroughputHistory.nodeKey("dn1", ThroughputHistory.Direction.EXTERNAL);
    String second = ThroughputHistory.nodeKey("dn2", ThroughputHistory.Direction.EXTERNAL);
    Instant at = Instant.parse("2024-01-01T00:00:00Z");
    ThroughputHistoryFile.record(file, first, DataRate.ofMebibytesPerSecond(10), at);

    ThroughputHistoryFile.recordAll(
        file,
        Map.of(first, DataRate.ofMebibytesPerSecond(10), second, DataRate.ofMebibytesPerSecond(20)),
        at.plusSeconds(3600));

    ThroughputHistory loaded = ThroughputHistoryFile.load(file);
    assertThat(loaded.estimate(first).orElseThrow().samples()).isEqualTo(2);
    assertThat(loaded.estimate(second).orElseThrow().samples()).isEqualTo(1);
    assertThat(loaded.rate(second).orElseThrow().mebibytesPerSecond()).isEqualTo(20.0);
  }

  @Test
  void aMissingFileIsAnEmptyHistoryAndAMalformedOneAnError() throws Exception {
    assertThat(ThroughputHistoryFile.loadIfPresent(directory.resolve("none.json")).estimates()).isEmpty();
    Path bad = Files.writeString(directory.resolve("bad.json"), "{\"version\": 7}");
    assertThatThrownBy(() -> ThroughputHistoryFile.load(bad))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("is malformed")
        .hasMessageEndingWith("fix or delete it");
  }

  @Test
  void aFileThatIsNotJsonIsAUserErrorNotOneARetryCouldFix() throws Exception {
    Path corrupt = Files.writeString(directory.resolve("corrupt.json"), "{\"version\": 1, \"hosts");

    assertThatThrownBy(() -> ThroughputHistoryFile.load(corrupt))
        .isInstanceOfSatisfying(RelayCpException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
          assertThat(e.code().retryable()).isFalse();
        })
        .hasMessageContaining("is not JSON")
        .hasMessageEndingWith("fix or delete it");
  }

  @Test
  void defaultPathFollowsXdgConfigHome() {
    assertThat(ThroughputHistoryFile.defaultPath(Map.of("XDG_CONFIG_HOME", "/tmp/config")))
        .isEqualTo(Path.of("/tmp/config/relaycp/history.json"));
    assertThat(ThroughputHistoryFile.defaultPath(Map.of()))
        .isEqualTo(Path.of(System.getProperty("user.home"), ".config", "relaycp", "history.json"));
  }
  /** The file other versions of relaycp read: its field names, in order. */
  @Test
  void savedFieldNamesAreStable() throws Exception {
    Path file = directory.resolve("history.json");
    String key = ThroughputHistory.nodeKey("dn1", ThroughputHistory.Direction.EXTERNAL);
    ThroughputHistoryFile.record(file, key, DataRate.ofMebibytesPerSecond(10),
        Instant.parse("2024-01-01T00:00:00Z"));

    JsonNode root = new ObjectMapper().readTree(Files.readString(file));

    assertThat(fieldNames(root)).containsExactly(
        "version", "historyLength", "referenceIntervalSeconds", "estimates");
    assertThat(root.get("version").asInt()).isEqualTo(1);
    assertThat(fieldNames(root.get("estimates"))).containsExactly(key);
    assertThat(fieldNames(root.get("estimates").get(key))).containsExactly(
        "mean", "gamma", "samples", "lastSampleAt");
    assertThat(root.get("estimates").get(key).get("lastSampleAt").asText())
        .isEqualTo("2024-01-01T00:00:00Z");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
