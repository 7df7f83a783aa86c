package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.plan.ThroughputHistoryFile;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Where the throughput history lives and whether commands add to it: {@code --history FILE},
 * else the {@value #FILE_KEY} property, else {@code $XDG_CONFIG_HOME/relaycp/history.json} or
 * {@code ~/.config/relaycp/history.json}. {@code --no-history} or {@value #ENABLED_KEY}{@code
 * =false} stops {@code copy} and {@code probe} from recording.
 */
final class HistoryFile {
  static final String FILE_KEY = RelayKeys.HISTORY_FILE.key();
  static final String ENABLED_KEY = RelayKeys.HISTORY_ENABLED.key();

  private HistoryFile() {}

  static Path path(Path option, Configuration configuration, Map<String, String> environment) {
    if (option != null) {
      return option;
    }
    String configured = RelayKeys.HISTORY_FILE.from(configuration);
    return configured.isEmpty()
        ? ThroughputHistoryFile.defaultPath(environment)
        : Path.of(configured);
  }

  static boolean recording(boolean noHistoryFlag, Configuration configuration) {
    return !noHistoryFlag && RelayKeys.HISTORY_ENABLED.from(configuration);
  }
}
