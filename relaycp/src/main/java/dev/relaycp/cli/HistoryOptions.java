package dev.relaycp.cli;

import dev.relaycp.plan.ThroughputHistory;
import dev.relaycp.plan.ThroughputHistoryFile;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/** {@code --history FILE} and {@code --no-history}: where measured rates are kept. */
public final class HistoryOptions {
  @Option(names = "--history", paramLabel = "FILE",
      description = "The throughput history of measured rates (default: relaycp.history.file,"
          + " else ~/.config/relaycp/history.json).")
  Path history;

  @Option(names = "--no-history",
      description = "Neither read nor record measured rates (recording: also"
          + " relaycp.history.enabled=false).")
  boolean noHistory;

  /** The history file: {@code --history}, else the configured or the default one. */
  public Path file(Configuration configuration) {
    return HistoryFile.path(history, configuration, System.getenv());
  }

  /** Whether measured rates are to be recorded. */
  public boolean recording(Configuration configuration) {
    return HistoryFile.recording(noHistory, configuration);
  }

  /** The measured rates, or none with {@code --no-history}. */
  public ThroughputHistory read(Configuration configuration) {
    return noHistory ? ThroughputHistory.empty()
        : ThroughputHistoryFile.loadIfPresent(file(configuration));
  }
}
