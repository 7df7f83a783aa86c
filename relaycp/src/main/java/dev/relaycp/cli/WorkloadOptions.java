package dev.relaycp.cli;

import static dev.relaycp.error.ErrorCode.INVALID_ARGUMENT;

import dev.relaycp.error.RelayCpException;
import dev.relaycp.plan.DataSize;
import dev.relaycp.plan.Workload;
import picocli.CommandLine.Option;

/** {@code plan --what-if}'s files: {@code --size} and {@code --files}, or {@code --file-sizes}. */
public final class WorkloadOptions {
  @Option(names = "--size", paramLabel = "SIZE", description = "Total bytes to copy, e.g. 8GiB or 500GB.")
  String size;

  @Option(names = "--files", paramLabel = "N",
      description = "Number of equal files sharing --size (default: 1).")
  Long files;

  @Option(names = "--file-sizes", paramLabel = "HISTOGRAM",
      description = "Files as COUNTxSIZE groups instead of --size/--files, e.g. 2x10GiB,1000x1MiB.")
  String fileSizes;

  /** Whether any of these options was given. */
  public boolean given() {
    return size != null || files != null || fileSizes != null;
  }

  /** The files described; a missing or doubly given description is INVALID_ARGUMENT. */
  public Workload workload() {
    if (fileSizes != null) {
      if (size != null) {
        throw new RelayCpException(
            INVALID_ARGUMENT, "give either --size (with --files) or --file-sizes, not both");
      }
      return Workload.ofHistogram(fileSizes);
    }
    if (size == null) {
      throw new RelayCpException(
          INVALID_ARGUMENT, "--what-if needs --size (e.g. --size 8GiB) or --file-sizes");
    }
    return Workload.equalFiles(DataSize.parse(size), files == null ? 1 : files);
  }
}
