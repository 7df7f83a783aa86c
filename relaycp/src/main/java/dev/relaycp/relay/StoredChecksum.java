package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A file's checksum as the destination file system gives it for the file as stored (Hadoop's
 * {@code FileChecksum}: its algorithm's name and its bytes), which a writer relay asks for
 * right after writing a file, inside the destination's site, so that the driver need not ask
 * across the WAN.
 */
public record StoredChecksum(String algorithm, byte[] value) {
  public StoredChecksum {
    requireNonNull(algorithm, "algorithm is null");
    value = requireNonNull(value, "value is null").clone();
    if (algorithm.isEmpty()) {
      throw new IllegalArgumentException("algorithm is empty");
    }
  }

  @Override
  public byte[] value() {
    return value.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StoredChecksum that
        && algorithm.equals(that.algorithm)
        && Arrays.equals(value, that.value);
  }

  @Override
  public int hashCode() {
    return 31 * algorithm.hashCode() + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return algorithm + ":" + HexFormat.of().formatHex(value);
  }
}
