package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Relay settings as one environment variable's value, in base64, an alphabet no shell quotes or
 * expands, for the launch script YARN writes around a container's environment. It carries
 * settings only, never the secret.
 *
 * <p>Under the base64 the settings are length-prefixed strings, not Hadoop configuration XML:
 * the driver encodes them on its way to the first container request, and writing XML through
 * the JDK's transformer took about 0.25 s of a driver's start there
 * (bench/results/2026-11-28-yarn-start-path/). The driver and its relays run the same jar, so
 * the format needs no version beyond a marker that tells garbage apart.
 * <pre>
 * +-------------+-------------+-----------------------------+-----------------------------+
 * | magic (int) | count (int) | key 0 (modified UTF-8, u16  | value 0 (same)  ... count   |
 * | 0x52435053  |             | length first)               |                 pairs       |
 * +-------------+-------------+-----------------------------+-----------------------------+
 * </pre>
 */
public final class RelaySettingsVariable {
  /** The variable a relay container's settings are in. */
  public static final String NAME = "RELAYCP_RELAY_SETTINGS";
  /** "RCPS": what every encoded value starts with. */
  private static final int MAGIC = 0x52435053;
  private RelaySettingsVariable() {}

  /** {@code properties} as the variable's value. */
  public static String encode(Map<String, String> properties) {
    requireNonNull(properties, "properties is null");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(properties.size());
      for (Map.Entry<String, String> property : properties.entrySet()) {
        out.writeUTF(requireNonNull(property.getKey(), "a property's key is null"));
        out.writeUTF(requireNonNull(property.getValue(),
            () -> "property " + property.getKey() + " has no value"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("encoding the relay settings failed (a key or value"
          + " longer than 64 KiB?)", e);
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  /** The properties in {@code value}, in the order they were encoded. */
  static Map<String, String> decode(String value) throws IOException {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(value.strip());
    } catch (IllegalArgumentException e) {
      throw new IOException("not base64: " + e.getMessage(), e);
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      if (bytes.length < 8 || in.readInt() != MAGIC) {
        throw new IOException("not relay settings encoded by relaycp");
      }
      int count = in.readInt();
      if (count < 0 || count > bytes.length) {
        throw new IOException("a count of " + count + " settings in " + bytes.length + " bytes");
      }
      Map<String, String> properties = new LinkedHashMap<>();
      for (int i = 0; i < count; i++) {
        properties.put(in.readUTF(), in.readUTF());
      }
      if (in.available() > 0) {
        throw new IOException(in.available() + " bytes after the last setting");
      }
      return properties;
    }
  }

  /** Sets every property in {@code value} (from variable {@code name}) on {@code target}. */
  public static void apply(String value, String name, Configuration target) {
    requireNonNull(name, "name is null");
    requireNonNull(target, "target is null");
    if (value == null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "environment variable " + name
          + " is not set; relaycp sets it for the relays it starts as YARN containers");
    }
    Map<String, String> properties;
    try {
      properties = decode(value);
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "environment variable " + name
          + " does not hold relay settings as relaycp writes them (" + e.getMessage()
          + "); a relay container runs the jar of the driver that started it", e);
    }
    properties.forEach(target::set);
  }
}
