package dev.relaycp.config;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import org.apache.hadoop.conf.Configuration;

/**
 * A setting that is a whole number from {@code least} to {@code most}.
 *
 * @param key the configuration key
 * @param defaultValue the value when the key is not set
 * @param least the smallest value allowed
 * @param most the largest value allowed
 */
public record WholeNumberSetting(String key, long defaultValue, long least, long most) {
  public WholeNumberSetting {
    requireNonNull(key, "key is null");
    if (defaultValue < least || defaultValue > most) {
      throw new IllegalArgumentException(
          key + ": default " + defaultValue + " is outside " + least + ".." + most);
    }
  }

  /** A setting with no upper bound. */
  public WholeNumberSetting(String key, long defaultValue, long least) {
    this(key, defaultValue, least, Long.MAX_VALUE);
  }

  /** The value in {@code configuration}; a bad one is INVALID_ARGUMENT naming the key. */
  public long from(Configuration configuration) {
    String text = requireNonNull(configuration, "configuration is null").getTrimmed(key);
    if (text == null || text.isEmpty()) {
      return defaultValue;
    }
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw invalid(key, "must be a whole number", text);
    }
    if (value < least || value > most) {
      throw invalid(key, most == Long.MAX_VALUE ? "must be " + least + " or more"
          : "must be " + least + " to " + most, text);
    }
    return value;
  }

  /** {@link #from} for settings whose {@link #most} fits an int. */
  public int intFrom(Configuration configuration) {
    return Math.toIntExact(from(configuration));
  }

  static RelayCpException invalid(String key, String rule, String value) {
    return new RelayCpException(ErrorCode.INVALID_ARGUMENT,
        key + " " + rule + ", got '" + value + "'; fix it in relaycp-site.xml or -D");
  }
}
