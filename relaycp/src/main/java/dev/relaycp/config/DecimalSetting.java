package dev.relaycp.config;

import static java.util.Objects.requireNonNull;

import org.apache.hadoop.conf.Configuration;

/**
 * A setting that is a decimal number of at least {@code least}: seconds, dollars.
 *
 * @param key the configuration key
 * @param defaultValue the value when the key is not set
 * @param least the smallest value allowed
 */
public record DecimalSetting(String key, double defaultValue, double least) {
  public DecimalSetting {
    requireNonNull(key, "key is null");
    if (!(defaultValue >= least)) {
      throw new IllegalArgumentException(key + ": default " + defaultValue + " is below " + least);
    }
  }

  /** The value in {@code configuration}; a bad one is INVALID_ARGUMENT naming the key. */
  public double from(Configuration configuration) {
    String text = requireNonNull(configuration, "configuration is null").getTrimmed(key);
    if (text == null || text.isEmpty()) {
      return defaultValue;
    }
    double value;
    try {
      value = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw WholeNumberSetting.invalid(key, "must be a number", text);
    }
    if (!Double.isFinite(value) || value < least) {
      throw WholeNumberSetting.invalid(key, "must be a number of at least " + least, text);
    }
    return value;
  }
}
