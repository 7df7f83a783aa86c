package dev.relaycp.config;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way relaycp reads a number of bytes, in settings and options alike: a number
 * (fractions allowed) and an optional unit, in any case: none or {@code B} for bytes; {@code
 * k}, {@code m}, {@code g}, {@code t} for powers of 1024, as Hadoop reads sizes in its own
 * files ({@code 64m} is 64 MiB); {@code KiB}, {@code MiB}, {@code GiB}, {@code TiB} likewise;
 * {@code kB}, {@code MB}, {@code GB}, {@code TB} for powers of 1000.
 */
public final class SizeSyntax {
  private static final Pattern TEXT =
      Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*");
  /** What every error message offers as the fix. */
  public static final String UNITS = "use B, k, m, g, t or KiB, MiB, GiB, TiB (powers of 1024)"
      + " or kB, MB, GB, TB (powers of 1000)";

  private SizeSyntax() {}

  /**
   * The bytes {@code text} stands for, rounded to a whole byte.
   *
   * @throws IllegalArgumentException if it is not a size or is larger than a long
   */
  public static long bytes(String text) {
    requireNonNull(text, "text is null");
    Matcher matcher = TEXT.matcher(text);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a size; write a number and a unit, e.g. 8GiB, 500MB or 64m");
    }
    BigDecimal bytes = new BigDecimal(matcher.group(1))
        .multiply(BigDecimal.valueOf(unitBytes(matcher.group(2), text)));
    try {
      return bytes.setScale(0, RoundingMode.HALF_UP).longValueExact();
    } catch (ArithmeticException tooLarge) {
      throw new IllegalArgumentException("'" + text + "' is too large; give at most 8EiB");
    }
  }

  /**
   * Bytes in one {@code unit} (see the class comment); {@code text} is what it came from.
   *
   * @throws IllegalArgumentException if {@code unit} is not one of them
   */
  public static long unitBytes(String unit, String text) {
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "", "b" -> 1;
      case "k", "kib" -> 1L << 10;
      case "m", "mib" -> 1L << 20;
      case "g", "gib" -> 1L << 30;
      case "t", "tib" -> 1L << 40;
      case "kb" -> 1_000L;
      case "mb" -> 1_000_000L;
      case "gb" -> 1_000_000_000L;
      case "tb" -> 1_000_000_000_000L;
      default -> throw new IllegalArgumentException(
          "unknown unit '" + unit + "' in '" + text + "'; " + UNITS);
    };
  }
}
