package dev.relaycp.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/** {@code -D key=value} after the command name, applied on top of the generic options. */
public final class HadoopOptions {
  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "Set a Hadoop or relaycp configuration property.")
  Map<String, String> properties = new LinkedHashMap<>();

  /** The configuration with these properties set; the given one is not changed. */
  public Configuration apply(Configuration base) {
    Configuration configuration = new Configuration(base);
    properties.forEach(configuration::set);
    return configuration;
  }
}
