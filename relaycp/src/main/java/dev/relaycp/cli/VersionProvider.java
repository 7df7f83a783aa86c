package dev.relaycp.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.apache.hadoop.util.VersionInfo;
import picocli.CommandLine.IVersionProvider;

/**
 * relaycp's version and the Hadoop it runs with. The version comes from a resource the build
 * fills in, not from the jar manifest: {@code hadoop jar} loads classes from the unpacked jar,
 * where no manifest describes their package.
 */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"relaycp " + version(), "Hadoop " + VersionInfo.getVersion()};
  }

  /** The build's version, or "(development build)" where no build filled it in. */
  public static String version() {
    Properties properties = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      return "(development build)";
    }
    String version = properties.getProperty("version", "");
    return version.isEmpty() || version.startsWith("$") ? "(development build)" : version;
  }
}
