import dev.relaycp.provision.ContainerSecret;
import dev.relaycp.provision.RelaySettingsVariable;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What relaycp's YarnSite hands a relay container, made outside YARN for
 * relay_start_cpu.sh: writes the container's credentials (a fresh transfer secret and this
 * process's TLS identity, as a driver shares them) to the token file named first, for
 * HADOOP_TOKEN_FILE_LOCATION, and prints the value of RELAYCP_RELAY_SETTINGS for the KEY=VALUE
 * settings that follow. Run as a single-file program with the relay jar and Hadoop on the
 * class path:
 *
 *   java -cp RELAY_JAR:HADOOP_JARS bench/lab.d/ContainerLaunch.java TOKEN_FILE [KEY=VALUE ...]
 */
public final class ContainerLaunch {
  private ContainerLaunch() {}

  public static void main(String[] arguments) throws Exception {
    if (arguments.length < 1) {
      System.err.println("usage: ContainerLaunch TOKEN_FILE [KEY=VALUE ...]");
      System.exit(2);
    }
    ByteBuffer credentials = ContainerSecret.credentialsWith(TransferSecret.generate(),
        RelayTls.identityToShare(), new byte[0]);
    try (FileChannel out = FileChannel.open(Path.of(arguments[0]), StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      out.write(credentials);
    }
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 1; i < arguments.length; i++) {
      int equals = arguments[i].indexOf('=');
      if (equals < 1) {
        System.err.println("not KEY=VALUE: " + arguments[i]);
        System.exit(2);
      }
      settings.put(arguments[i].substring(0, equals), arguments[i].substring(equals + 1));
    }
    System.out.println(RelaySettingsVariable.encode(settings));
  }
}
