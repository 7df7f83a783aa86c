package dev.relaycp.config;

import static java.util.Objects.requireNonNull;

import org.apache.hadoop.conf.Configuration;

/**
 * A setting that is a number of bytes, written as {@link SizeSyntax} reads sizes: {@code
 * 1048576}, {@code 64m} or {@code 64MiB} (binary), {@code 500MB} (decimal).
 *
 * @param key the configuration key
 * @param defaultBytes the value when the key is not set
 * @param least the smallest value allowed
 */
public record SizeSetting(String key, long defaultBytes, long least) {
  public SizeSetting {
    requireNonNull(key, "key is null");
    if (defaultBytes < least) {
      throw new IllegalArgumentException(key + ": default " + defaultBytes + " is below " + least);
    }
  }

  /** The value in {@code configuration}; a bad one is INVALID_ARGUMENT naming the key. */
  public long from(Configuration configuration) {
    String text = requireNonNull(configuration, "configuration is null").getTrimmed(key);
    if (text == null || text.isEmpty()) {
      return defaultBytes;
    }
    long value;
    try {
      value = SizeSyntax.bytes(text);
    } catch (IllegalArgumentException e) {
      throw WholeNumberSetting.invalid(key,
          "must be a size in bytes such as 1048576, 64m or 64MiB (" + SizeSyntax.UNITS + ")",
          text);
    }
    if (value < least) {
      throw WholeNumberSetting.invalid(key, "must be " + least + " bytes or more", text);
    }
    return value;
  }
}
