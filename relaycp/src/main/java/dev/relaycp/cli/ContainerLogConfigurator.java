package dev.relaycp.cli;

import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import org.apache.log4j.ConsoleAppender;
import org.apache.log4j.FileAppender;
import org.apache.log4j.Level;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.helpers.LogLog;
import org.apache.log4j.spi.Configurator;
import org.apache.log4j.spi.LoggerRepository;

/**
 * How a relay container's log4j starts: every message at INFO and above into the one file its
 * configuration URL names ({@code -Dlog4j.configuration=file:<container log folder>/syslog}),
 * in the layout of YARN's own {@code container-log4j.properties}, set up in code. The JVM
 * names it with {@code -Dlog4j.configuratorClass}; a log4j that is not version 1 reads neither
 * property.
 *
 * <p>Why not YARN's properties file: log4j found it by searching the cluster's class path (it
 * is in the NodeManager's jar, past most others), and its {@code PropertyConfigurator} set each
 * appender's options through {@code java.beans} introspection. The two took 143 of the 1,680
 * CPU-ms sampled in a relay container's first 6 s, before it could announce itself
 * (bench/results/2026-11-28-yarn-start-path/), and every copy starts a relay on every datanode
 * of both clusters.
 */
public final class ContainerLogConfigurator implements Configurator {
  /** The layout of YARN's container logs. */
  static final String LAYOUT = "%d{ISO8601} %p [%t] %c: %m%n";
  /** The file appender's name. */
  static final String APPENDER = "relay-container";

  @Override
  public void doConfigure(URL url, LoggerRepository repository) {
    Path file;
    try {
      if (!"file".equals(url.getProtocol())) {
        throw new IllegalArgumentException("not a file: URL");
      }
      file = Path.of(url.toURI());
    } catch (URISyntaxException | IllegalArgumentException e) {
      // log4j's own way to report a configuration it cannot use, on standard error.
      LogLog.error("relaycp: a relay container logs to a file: URL, not " + url
          + "; logging to standard error instead", e);
      toStandardError(repository);
      return;
    }
    FileAppender appender = new FileAppender();
    appender.setName(APPENDER);
    appender.setFile(file.toString());
    appender.setAppend(true);
    appender.setLayout(new PatternLayout(LAYOUT));
    appender.activateOptions();
    repository.getRootLogger().addAppender(appender);
    repository.getRootLogger().setLevel(Level.INFO);
  }

  /** A configuration given as a stream names no file: the log goes to standard error. */
  @Override
  public void doConfigure(InputStream configuration, LoggerRepository repository) {
    toStandardError(repository);
  }

  private static void toStandardError(LoggerRepository repository) {
    repository.getRootLogger().addAppender(
        new ConsoleAppender(new PatternLayout(LAYOUT), ConsoleAppender.SYSTEM_ERR));
    repository.getRootLogger().setLevel(Level.INFO);
  }
}
