package dev.relaycp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.provision.YarnRelaySettings;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class YarnDemoTest {
  @BeforeAll
  static void defaults() {
    // As relaycp's Main does: every configuration then holds relaycp-default.xml's values.
    RelayKeys.addDefaultResources();
  }

  @Test
  void theDemosContainersAreSmallWhereOnlyRelaycpsDefaultsSpeak() {
    Configuration configuration = new Configuration();
    assertThat(configuration.get(YarnRelaySettings.MEMORY_MB)).as("the default's value")
        .isEqualTo("1024");

    YarnRelaySettings settings =
        YarnRelaySettings.from(YarnDemo.withSmallContainers(configuration), Map.of());

    assertThat(settings.memoryMegabytes()).isEqualTo(256);
    assertThat(settings.javaOptions()).isEqualTo("-Xmx192m -XX:TieredStopAtLevel=1");
    assertThat(settings.classDataArchive()).isFalse();
  }

  @Test
  void whatTheUserChoseStays() {
    Configuration configuration = new Configuration();
    configuration.set(YarnRelaySettings.MEMORY_MB, "2048");
    configuration.set(YarnRelaySettings.JAVA_OPTS, "-Xmx1g");
    configuration.set(YarnRelaySettings.CLASS_DATA_ARCHIVE, "true");

    YarnRelaySettings settings =
        YarnRelaySettings.from(YarnDemo.withSmallContainers(configuration), Map.of());

    assertThat(settings.memoryMegabytes()).isEqualTo(2048);
    assertThat(settings.javaOptions()).isEqualTo("-Xmx1g");
    assertThat(settings.classDataArchive()).isTrue();
  }
}
