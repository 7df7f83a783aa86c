package dev.relaycp.plan;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;
import static java.util.Objects.requireNonNull;

import dev.relaycp.error.RelayCpException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A throughput in bytes per second, always positive: a zero or negative rate would make every
 * prediction infinite or negative, so it is refused where it enters. {@link #parse} accepts the
 * units of {@link DataSize} followed by {@code /s}, e.g. {@code 90MiB/s} or {@code 100MB/s}, and
 * network units in bits, {@code Mbps} and {@code Gbps} (10^6 and 10^9 bits per second).
 */
public record DataRate(double bytesPerSecond) implements Comparable<DataRate> {
  private static final Pattern TEXT =
      Pattern.compile("\\s*(-?[0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*(/\\s*s|ps)?\\s*");

  public DataRate {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "throughput " + bytesPerSecond + " B/s is not positive; give a rate above 0, e.g. 15MiB/s");
    }
  }

  public static DataRate ofBytesPerSecond(double bytesPerSecond) {
    return new DataRate(bytesPerSecond);
  }

  public static DataRate ofMebibytesPerSecond(double mebibytesPerSecond) {
    if (!(mebibytesPerSecond > 0)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "throughput " + mebibytesPerSecond + " MiB/s is not positive; give a rate above 0");
    }
    return new DataRate(mebibytesPerSecond * DataSize.MEBIBYTE);
  }

  /** Network bandwidth as clouds quote it: megabits (10^6 bits) per second. */
  public static DataRate ofMegabitsPerSecond(double megabitsPerSecond) {
    if (!(megabitsPerSecond > 0)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "throughput " + megabitsPerSecond + " Mbps is not positive; give a rate above 0");
    }
    return new DataRate(megabitsPerSecond * 1_000_000 / 8);
  }

  /** Parses {@code 90MiB/s}, {@code 100MB/s}, {@code 1.5GiB/s}, {@code 800Mbps}. */
  public static DataRate parse(String text) {
    requireNonNull(text, "text is null");
    Matcher matcher = TEXT.matcher(text);
    if (!matcher.matches()) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "cannot read throughput '" + text + "'; write a number and a unit, e.g. 90MiB/s or 100MB/s");
    }
    double number = Double.parseDouble(matcher.group(1));
    String unit = matcher.group(2);
    if (!(number > 0)) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "throughput '" + text + "' is not positive; give a rate above 0, e.g. 15MiB/s");
    }
    String lower = unit.toLowerCase(Locale.ROOT);
    if (lower.equals("mbps") || lower.equals("mbit")) {
      return ofMegabitsPerSecond(number);
    }
    if (lower.equals("gbps") || lower.equals("gbit")) {
      return ofMegabitsPerSecond(number * 1000);
    }
    if (matcher.group(3) == null) {
      throw new RelayCpException(
          INVALID_ARGUMENT,
          "throughput '" + text + "' has no '/s'; write e.g. 90MiB/s, 100MB/s or 800Mbps");
    }
    return new DataRate(number * DataSize.unitBytes(unit, text));
  }

  public double mebibytesPerSecond() {
    return bytesPerSecond / DataSize.MEBIBYTE;
  }

  /** Seconds to move {@code size} at this rate. */
  public double secondsFor(DataSize size) {
    return size.bytes() / bytesPerSecond;
  }

  public DataRate times(double factor) {
    return new DataRate(bytesPerSecond * factor);
  }

  public static DataRate min(DataRate first, DataRate second) {
    return first.bytesPerSecond <= second.bytesPerSecond ? first : second;
  }

  @Override
  public int compareTo(DataRate other) {
    return Double.compare(bytesPerSecond, other.bytesPerSecond);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.2f MiB/s", mebibytesPerSecond());
  }
}
