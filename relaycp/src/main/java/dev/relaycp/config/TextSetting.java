package dev.relaycp.config;

import static java.util.Objects.requireNonNull;

import org.apache.hadoop.conf.Configuration;

/**
 * A setting that is text, surrounding white space trimmed.
 *
 * @param key the configuration key
 * @param defaultValue the value when the key is not set (may be empty)
 */
public record TextSetting(String key, String defaultValue) {
  public TextSetting {
    requireNonNull(key, "key is null");
    requireNonNull(defaultValue, "defaultValue is null");
  }

  /** The value in {@code configuration}, or the default when the key is not set. */
  public String from(Configuration configuration) {
    return requireNonNull(configuration, "configuration is null").getTrimmed(key, defaultValue);
  }
}
