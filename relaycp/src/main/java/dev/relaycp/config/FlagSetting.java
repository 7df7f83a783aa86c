package dev.relaycp.config;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * A setting that is {@code true} or {@code false}.
 *
 * @param key the configuration key
 * @param defaultValue the value when the key is not set
 */
public record FlagSetting(String key, boolean defaultValue) {
  public FlagSetting {
    requireNonNull(key, "key is null");
  }

  /** The value in {@code configuration}; anything but true or false is INVALID_ARGUMENT. */
  public boolean from(Configuration configuration) {
    String text = requireNonNull(configuration, "configuration is null").getTrimmed(key);
    if (text == null || text.isEmpty()) {
      return defaultValue;
    }
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw WholeNumberSetting.invalid(key, "must be true or false", text);
    };
  }
}
