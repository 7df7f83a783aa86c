package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Relay settings as one environment variable's value: Hadoop configuration XML in base64, an
 * alphabet no shell quotes or expands, for the launch script YARN writes around a container's
 * environment. It carries settings only, never the secret.
 */
public final class RelaySettingsVariable {
  /** The variable a relay container's settings are in. */
  public static final String NAME = "RELAYCP_RELAY_SETTINGS";
  private RelaySettingsVariable() {}

  /** {@code properties} as the variable's value. */
  public static String encode(Map<String, String> properties) {
    requireNonNull(properties, "properties is null");
    Configuration settings = new Configuration(false);
    properties.forEach(settings::set);
    ByteArrayOutputStream xml = new ByteArrayOutputStream();
    try {
      settings.writeXml(xml);
    } catch (IOException e) {
      throw new UncheckedIOException("writing an in-memory configuration failed", e);
    }
    return Base64.getEncoder().encodeToString(xml.toByteArray());
  }

  /** Sets every property in {@code value} (from variable {@code name}) on {@code target}. */
  public static void apply(String value, String name, Configuration target) {
    requireNonNull(name, "name is null");
    requireNonNull(target, "target is null");
    if (value == null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "environment variable " + name
          + " is not set; relaycp sets it for the relays it starts as YARN containers");
    }
    Configuration settings = new Configuration(false);
    try {
      settings.addResource(new ByteArrayInputStream(Base64.getDecoder().decode(value.strip())),
          name);
      settings.size();
    } catch (RuntimeException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "environment variable " + name
          + " does not hold base64 Hadoop configuration XML: " + e.getMessage(), e);
    }
    for (Map.Entry<String, String> property : settings) {
      target.set(property.getKey(), property.getValue());
    }
  }
}
