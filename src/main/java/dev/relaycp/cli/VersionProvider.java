package dev.relaycp.cli;

import org.apache.hadoop.util.VersionInfo;
import picocli.CommandLine.IVersionProvider;

/** relaycp's version (from the jar manifest) and the Hadoop it runs with. */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = VersionProvider.class.getPackage().getImplementationVersion();
    return new String[] {
        "relaycp " + (version == null ? "(development build)" : version),
        "Hadoop " + VersionInfo.getVersion()
    };
  }
}
