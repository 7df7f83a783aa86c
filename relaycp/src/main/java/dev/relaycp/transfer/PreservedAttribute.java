package dev.relaycp.transfer;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a copy may keep of a source file besides its bytes, by DistCp's {@code -p} letters.
 * Checksum type ({@code c}) has no member: relaycp compares COMPOSITE_CRC checksums, which do
 * not depend on it, and writes with the destination's checksum settings.
 */
public enum PreservedAttribute {
  REPLICATION('r'),
  BLOCK_SIZE('b'),
  USER('u'),
  GROUP('g'),
  PERMISSION('p'),
  ACL('a'),
  XATTR('x'),
  TIMES('t');

  /** What relaycp keeps when no {@code --preserve} is given: rbugpt. */
  public static final Set<PreservedAttribute> DEFAULT = Set.copyOf(
      EnumSet.of(REPLICATION, BLOCK_SIZE, USER, GROUP, PERMISSION, TIMES));

  private final char letter;

  PreservedAttribute(char letter) {
    this.letter = letter;
  }

  public char letter() {
    return letter;
  }

  /**
   * The attributes DistCp's {@code -p} letters name; an empty string is {@code -p} alone,
   * which DistCp reads as rbugpct (here rbugpt: see the class comment on {@code c}).
   *
   * @throws IllegalArgumentException naming the first letter that is not one of rbugpaxt
   */
  public static Set<PreservedAttribute> fromLetters(String letters) {
    if (letters.isEmpty()) {
      return DEFAULT;
    }
    EnumSet<PreservedAttribute> attributes = EnumSet.noneOf(PreservedAttribute.class);
    for (char letter : letters.toLowerCase(Locale.ROOT).toCharArray()) {
      attributes.add(ofLetter(letter));
    }
    return Set.copyOf(attributes);
  }

  private static PreservedAttribute ofLetter(char letter) {
    for (PreservedAttribute attribute : values()) {
      if (attribute.letter == letter) {
        return attribute;
      }
    }
    throw new IllegalArgumentException("'" + letter + "' is not one of rbugpaxt");
  }
}
