package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.config.SizeSyntax;
import dev.relaycp.error.RelayCpException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An amount of data in bytes. {@link #parse} accepts decimal units ({@code kB}, {@code MB},
 * {@code GB}, {@code TB}: powers of 10^3) and binary units ({@code KiB}, {@code MiB}, {@code GiB},
 * {@code TiB}: powers of 2^10); a bare number is bytes.
 */
public record DataSize(long bytes) implements Comparable<DataSize> {
  public static final long MEBIBYTE = 1L << 20;
  public static final long GIBIBYTE = 1L << 30;

  private static final Pattern TEXT =
      Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*");

  public DataSize {
    if (bytes < 0) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "data size " + bytes + " bytes is negative; give a size of 0 or more");
    }
  }

  public static DataSize ofBytes(long bytes) {
    return new DataSize(bytes);
  }

  public static DataSize ofMebibytes(double mebibytes) {
    return new DataSize(Math.round(mebibytes * MEBIBYTE));
  }

  public static DataSize ofGibibytes(double gibibytes) {
    return new DataSize(Math.round(gibibytes * GIBIBYTE));
  }

  /**
   * Parses text such as {@code 8GiB}, {@code 8 GB}, {@code 1.5TiB}, {@code 64m} or {@code 4096},
   * as {@link SizeSyntax} reads sizes everywhere in relaycp.
   */
  public static DataSize parse(String text) {
    requireNonNull(text, "text is null");
    if (!TEXT.matcher(text).matches()) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "cannot read data size '" + text + "'; write a number and a unit, e.g. 8GiB or 500MB");
    }
    try {
      return new DataSize(SizeSyntax.bytes(text));
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(INVALID_ARGUMENT, e.getMessage());
    }
  }

  /** Bytes in one unit; shared with {@link DataRate#parse}. */
  static long unitBytes(String unit, String text) {
    try {
      return SizeSyntax.unitBytes(unit, text);
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(INVALID_ARGUMENT, e.getMessage());
    }
  }

  public double mebibytes() {
    return (double) bytes / MEBIBYTE;
  }

  public double gibibytes() {
    return (double) bytes / GIBIBYTE;
  }

  public DataSize plus(DataSize other) {
    return new DataSize(Math.addExact(bytes, other.bytes));
  }

  @Override
  public int compareTo(DataSize other) {
    return Long.compare(bytes, other.bytes);
  }

  /** The size in the largest binary unit that keeps at least one whole unit, e.g. 8.00 GiB. */
  @Override
  public String toString() {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = bytes;
    int index = 0;
    while (value >= 1024 && index < units.length - 1) {
      value /= 1024;
      index++;
    }
    return index == 0
        ? bytes + " B"
        : String.format(Locale.ROOT, "%.2f %s", value, units[index]);
  }
}
