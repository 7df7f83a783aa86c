package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class PortRangeTest {
  private static Optional<PortRange> parse(String value) {
    Configuration configuration = new Configuration(false);
    configuration.set(RelayKeys.RELAY_PORT_RANGE.key(), value);
    return PortRange.from(configuration);
  }

  @Test
  void aRangeIsFirstToLastOrOnePortAndEmptyIsAnyPort() {
    assertThat(parse("50100-50199")).contains(new PortRange(50100, 50199));
    assertThat(parse(" 50100 - 50101 ")).contains(new PortRange(50100, 50101));
    assertThat(parse("7070")).contains(new PortRange(7070, 7070));
    assertThat(parse("7070").orElseThrow().size()).isEqualTo(1);
    assertThat(parse("")).isEmpty();
    assertThat(PortRange.from(new Configuration(false))).isEmpty();
    assertThat(new PortRange(50100, 50199).contains(50199)).isTrue();
    assertThat(new PortRange(50100, 50199).contains(50200)).isFalse();
  }

  @Test
  void anythingElseIsAUserErrorNamingTheKeyAndTheForm() {
    for (String bad : new String[] {"abc", "50199-50100", "0-10", "1-65536", "1-2-3", "-5",
        "50100-"}) {
      assertThatThrownBy(() -> parse(bad)).as(bad)
          .isInstanceOfSatisfying(RelayCpException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessage("relaycp.relay.port-range must be FIRST-LAST (ports 1 to 65535, e.g."
              + " 50100-50199) or one port, got '" + bad + "'");
    }
  }
}
