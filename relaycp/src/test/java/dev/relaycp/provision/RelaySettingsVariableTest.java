package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.RelayCpException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class RelaySettingsVariableTest {
  @Test
  void settingsWithCharactersAShellWouldReadSurviveTheTrip() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("relaycp.relay.parallel-streams", "4");
    properties.put("dfs.client.socket-timeout", "60000");
    properties.put("odd.value", "a \"quoted\" $HOME `date` & <x>");

    String value = RelaySettingsVariable.encode(properties);
    Configuration target = new Configuration(false);
    target.set("relaycp.relay.parallel-streams", "16");
    RelaySettingsVariable.apply(value, "RELAYCP_RELAY_SETTINGS", target);

    assertThat(value).matches("[A-Za-z0-9+/=]+");
    assertThat(target.get("relaycp.relay.parallel-streams")).isEqualTo("4");
    assertThat(target.get("dfs.client.socket-timeout")).isEqualTo("60000");
    assertThat(target.get("odd.value")).isEqualTo("a \"quoted\" $HOME `date` & <x>");
  }

  @Test
  void aMissingOrGarbledVariableIsABadInputNamingIt() {
    Configuration target = new Configuration(false);

    assertThatThrownBy(() -> RelaySettingsVariable.apply(null, "SETTINGS", target))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("SETTINGS is not set");
    assertThatThrownBy(() -> RelaySettingsVariable.apply("not base64!", "SETTINGS", target))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("SETTINGS does not hold");
    String otherBase64 = Base64.getEncoder().encodeToString(
        "<configuration></configuration>".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> RelaySettingsVariable.apply(otherBase64, "SETTINGS", target))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("SETTINGS does not hold relay settings as relaycp writes them");
    String whole = RelaySettingsVariable.encode(Map.of("a.key", "a value"));
    byte[] cut = Arrays.copyOf(Base64.getDecoder().decode(whole), 12);
    assertThatThrownBy(() -> RelaySettingsVariable.apply(
        Base64.getEncoder().encodeToString(cut), "SETTINGS", target))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("SETTINGS does not hold");
    assertThat(target.get("a.key")).isNull();
  }

  @Test
  void noSettingsAreNoSettings() {
    Configuration target = new Configuration(false);

    RelaySettingsVariable.apply(RelaySettingsVariable.encode(Map.of()), "SETTINGS", target);

    assertThat(target.size()).isZero();
  }
}
