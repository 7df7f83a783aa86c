package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HostFlowTest {
  private static final double MB = 1e6;

  /** The cases flow.py's tests share (bench/lab.d/tests/test_flow.py): both must agree. */
  static Stream<JsonNode> sharedCases() throws Exception {
    try (InputStream in = HostFlowTest.class.getResourceAsStream("host-flow-cases.json")) {
      List<JsonNode> cases = new ArrayList<>();
      new ObjectMapper().readTree(in).get("cases").forEach(cases::add);
      return cases.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sharedCases")
  void theLimitAndWhatBoundsItAgreeWithTheLabReport(JsonNode shared) {
    DataRate external = DataRate.ofBytesPerSecond(shared.get("v_e").asDouble() * MB);
    DataRate internal = DataRate.ofBytesPerSecond(shared.get("v_i").asDouble() * MB);
    int sourceNodes = shared.get("src_datanodes").asInt();
    Placement placement = shared.get("placement").isTextual()
        ? Placement.even(sourceNodes, 1) : placement(shared.get("placement"));
    Site source = new Site(sourceNodes, external, internal, 1, placement);
    Site destination = new Site(shared.get("dst_datanodes").asInt(), external, internal,
        shared.get("replication").asInt());

    HostFlow.Limit limit = HostFlow.limit(new HostFlow.Hosts(source, destination, placement,
        shared.get("spawned").asInt(), machine(external, internal), 1));

    assertThat(limit.rate().bytesPerSecond() / MB)
        .isCloseTo(shared.get("rate").asDouble(), within(shared.get("rate").asDouble() * 1e-6));
    if (!shared.get("bound_by").isNull()) {
      List<String> bound = new ArrayList<>();
      shared.get("bound_by").forEach(link -> bound.add(link.asText()));
      assertThat(limit.boundBy()).isEqualTo(bound);
    }
  }

  @Test
  void compressionLetsTheWanCarryMoreFileBytesButNotTheLinks() {
    DataRate external = DataRate.ofBytesPerSecond(5 * MB);
    DataRate internal = DataRate.ofBytesPerSecond(12 * MB);
    Site source = new Site(3, external, internal, 1);
    Site destination = new Site(3, external, internal, 1);

    double plain = HostFlow.limit(new HostFlow.Hosts(source, destination, source.placement(), 0,
        machine(external, internal), 1)).rate().bytesPerSecond() / MB;
    double compressed = HostFlow.limit(new HostFlow.Hosts(source, destination,
        source.placement(), 0, machine(external, internal), 2)).rate().bytesPerSecond() / MB;
    double squeezed = HostFlow.limit(new HostFlow.Hosts(source, destination,
        source.placement(), 0, machine(external, internal), 4)).rate().bytesPerSecond() / MB;

    assertThat(plain).isCloseTo(15, within(1e-6));
    assertThat(compressed).isCloseTo(30, within(1e-6));
    // Four times 15 is more than the hosts' links take, 3 x 12, counted in file bytes.
    assertThat(squeezed).isCloseTo(36, within(1e-6));
  }

  @Test
  void aPlacementNamingADatanodeTheSiteLacksIsRefused() {
    DataRate rate = DataRate.ofBytesPerSecond(MB);
    Site source = new Site(2, rate, rate, 1);

    assertThatThrownBy(() -> new HostFlow.Hosts(source, source,
            Placement.ofBytesPerNode(List.of(1L, 1L, 1L)), 0, machine(rate, rate), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("datanode 2");
  }

  private static Placement placement(JsonNode groups) {
    List<Placement.Group> parsed = new ArrayList<>();
    for (JsonNode group : groups) {
      List<Integer> holders = new ArrayList<>();
      group.get("holders").forEach(holder -> holders.add(holder.asInt()));
      parsed.add(new Placement.Group(holders, group.get("share").asDouble()));
    }
    return new Placement(parsed);
  }

  private static MachineType machine(DataRate external, DataRate internal) {
    return new MachineType("what-if", "any", "node-like", 0.1, external, internal, 30, 1, 60,
        "test");
  }
}
