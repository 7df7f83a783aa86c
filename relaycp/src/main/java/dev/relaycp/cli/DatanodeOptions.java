package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.util.OptionalInt;
import picocli.CommandLine.Option;

/** {@code --src-datanodes N} and {@code --dst-datanodes N}: each cluster's datanode count. */
public final class DatanodeOptions {
  @Option(names = {"--src-datanodes", "--source-nodes"}, paramLabel = "N",
      description = "Datanodes of the source cluster, each running a relay (plan --what-if: 1;"
          + " else the NameNode's report, else the datanodes holding the source's blocks).")
  Integer source;

  @Option(names = {"--dst-datanodes", "--destination-nodes"}, paramLabel = "N",
      description = "Datanodes of the destination cluster (plan --what-if: 1; else the"
          + " NameNode's report, which needs the HDFS superuser).")
  Integer destination;

  /** Whether either count was given. */
  public boolean given() {
    return source != null || destination != null;
  }

  /** The source's count, if given; one below 1 is INVALID_ARGUMENT. */
  public OptionalInt source() {
    return checked(source);
  }

  /** The destination's count, if given; one below 1 is INVALID_ARGUMENT. */
  public OptionalInt destination() {
    return checked(destination);
  }

  private static OptionalInt checked(Integer count) {
    if (count == null) {
      return OptionalInt.empty();
    }
    if (count < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--src-datanodes and --dst-datanodes must be 1 or more, got " + count);
    }
    return OptionalInt.of(count);
  }
}
