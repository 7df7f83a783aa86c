package dev.relaycp.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.RelayCpException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class RelayKeysTest {
  /** Each setting of RelayKeys by key, with its default written as the XML writes it. */
  private static Map<String, String> keysWithDefaults() throws IllegalAccessException {
    Map<String, String> defaults = new TreeMap<>();
    for (Field field : RelayKeys.class.getFields()) {
      if (!Modifier.isStatic(field.getModifiers())) {
        continue;
      }
      Object setting = field.get(null);
      if (setting instanceof WholeNumberSetting whole) {
        defaults.put(whole.key(), Long.toString(whole.defaultValue()));
      } else if (setting instanceof SizeSetting size) {
        defaults.put(size.key(), Long.toString(size.defaultBytes()));
      } else if (setting instanceof TextSetting text) {
        defaults.put(text.key(), text.defaultValue());
      } else if (setting instanceof DecimalSetting decimal) {
        defaults.put(decimal.key(), decimal.defaultValue() == Math.rint(decimal.defaultValue())
            ? Long.toString((long) decimal.defaultValue()) : Double.toString(decimal.defaultValue()));
      } else if (setting instanceof FlagSetting flag) {
        defaults.put(flag.key(), Boolean.toString(flag.defaultValue()));
      }
    }
    return defaults;
  }

  /** The relaycp.* properties of relaycp-default.xml, empty ones too, sizes as bytes. */
  private static Map<String, String> documented() throws Exception {
    Document document;
    try (InputStream xml = RelayKeys.class.getClassLoader()
        .getResourceAsStream(RelayKeys.DEFAULT_RESOURCE)) {
      document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml);
    }
    NodeList properties = document.getElementsByTagName("property");
    Map<String, String> documented = new TreeMap<>();
    for (int i = 0; i < properties.getLength(); i++) {
      Element property = (Element) properties.item(i);
      String key = property.getElementsByTagName("name").item(0).getTextContent().strip();
      String value = property.getElementsByTagName("value").item(0).getTextContent().strip();
      // The aws backend's keys are named in provision.spawn.Ec2Settings (a site may override each).
      if (key.startsWith("relaycp.") && !key.startsWith("relaycp.spawn.aws.")) {
        documented.put(key, key.endsWith("-bytes") || key.endsWith("-limit")
            || key.endsWith("-per-route") && key.contains("bytes")
            ? Long.toString(SizeSyntax.bytes(value)) : value);
      }
    }
    return documented;
  }

  @Test
  void theDefaultResourceDocumentsEveryKeyWithItsDefaultAndNoOther() throws Exception {
    assertThat(documented()).isEqualTo(keysWithDefaults());
    assertThat(keysWithDefaults()).hasSize(37);
  }

  @Test
  void aConfigurationReadsTheDefaultsFromTheJar() {
    RelayKeys.addDefaultResources();

    Configuration configuration = new Configuration();

    assertThat(configuration.get(RelayKeys.YARN_QUEUE.key())).isEqualTo("default");
    assertThat(RelayKeys.COPY_BYTES_IN_FLIGHT_PER_ROUTE.from(configuration)).isEqualTo(128L << 20);
  }

  @Test
  void sizesReadAlikeInSettingsAndOptions() {
    assertThat(SizeSyntax.bytes("64m")).isEqualTo(64L << 20);
    assertThat(SizeSyntax.bytes("64MiB")).isEqualTo(64L << 20);
    assertThat(SizeSyntax.bytes("64 MB")).isEqualTo(64_000_000L);
    assertThat(SizeSyntax.bytes("1.5k")).isEqualTo(1536L);
    assertThat(SizeSyntax.bytes("4096")).isEqualTo(4096L);
    Configuration configuration = new Configuration(false);
    configuration.set(RelayKeys.BYTES_PER_SECOND_LIMIT.key(), "100MiB");
    assertThat(RelayKeys.BYTES_PER_SECOND_LIMIT.from(configuration)).isEqualTo(100L << 20);
  }

  @Test
  void aBadSizeOrFlagNamesItsKey() {
    Configuration configuration = new Configuration(false);
    configuration.set(RelayKeys.BYTES_PER_SECOND_LIMIT.key(), "fast");
    configuration.set(RelayKeys.HISTORY_ENABLED.key(), "yes");

    assertThatThrownBy(() -> RelayKeys.BYTES_PER_SECOND_LIMIT.from(configuration))
        .isInstanceOf(RelayCpException.class)
        .hasMessageStartingWith("relaycp.relay.bytes-per-second-limit must be a size in bytes");
    assertThatThrownBy(() -> RelayKeys.HISTORY_ENABLED.from(configuration))
        .isInstanceOf(RelayCpException.class)
        .hasMessage("relaycp.history.enabled must be true or false, got 'yes'; fix it in"
            + " relaycp-site.xml or -D");
  }
}
