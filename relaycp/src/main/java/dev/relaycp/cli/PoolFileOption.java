package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ReplacedFile;
import org.apache.hadoop.conf.Configuration;

/** The pool file of {@code relay-pool --pool-file} and {@code copy --relay-pool}. */
final class PoolFileOption {
  private PoolFileOption() {}

  /**
   * The file {@code value} names: a path on this machine, or a Hadoop URI (hdfs://...) opened
   * with {@code configuration}; INVALID_ARGUMENT naming {@code option} where it is neither.
   */
  static ReplacedFile resolve(String value, String option, Configuration configuration) {
    try {
      return ReplacedFile.at(value, configuration);
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, option + " " + value + ": "
          + e.getMessage() + "; name a path on this machine or a whole URI such as"
          + " hdfs://nn:8020/user/me/relays.pool", e);
    }
  }
}
