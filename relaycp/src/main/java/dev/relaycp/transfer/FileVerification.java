package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

/**
 * The checksum comparison of one copied file.
 *
 * @param path the file's path below the destination root
 * @param algorithm the checksum algorithm both sides reported, e.g. COMPOSITE-CRC32C
 * @param checksum the checksum, hex
 */
public record FileVerification(
    String path, long bytes, String algorithm, String checksum, boolean verified) {
  public FileVerification {
    requireNonNull(path, "path is null");
    requireNonNull(algorithm, "algorithm is null");
    requireNonNull(checksum, "checksum is null");
  }
}
