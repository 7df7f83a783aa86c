package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.provision.ImageClassDataArchive;
import dev.relaycp.provision.ImageClassDataArchive.ClassPath;
import dev.relaycp.provision.ImageClassDataArchive.Made;
import dev.relaycp.provision.JavaProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code relaycp relay-class-data FOLDER}: makes the class-data archive that spawned relays
 * start from, for their hosts' image ({@link ImageClassDataArchive}).
 */
@Command(
    name = "relay-class-data",
    mixinStandardHelpOptions = true,
    description = {
        "Makes a class-data archive of a relay's classes in FOLDER (relay.jsa), and beside it",
        "the java argument file that starts relaycp from it (relay.java-options), for the",
        "image of spawned relay hosts: such a relay listens on about a third less CPU. Run it where",
        "the image is built, as the relays will run: with `hadoop jar` (and",
        "HADOOP_CLIENT_SKIP_UNJAR=true) on the image's Hadoop and configuration. Then set",
        "relaycp.spawn.aws.relay-command to the command it prints."
    })
public final class RelayClassDataCommand implements Callable<Integer> {
  /** Runs the training relay: the HDFS client loaded, then relaycp's own entry point. */
  static final String TRAINING_MAIN = RelayClassDataTraining.class.getName();

  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;

  @Parameters(index = "0", paramLabel = "FOLDER",
      description = "Where the archive and the argument file go (made if missing).")
  Path folder;

  @Option(names = "--java-options", paramLabel = "OPTIONS",
      description = "The relays' JVM options, in the argument file and for the training relay"
          + " (default: relaycp.relay.java-opts, as for YARN relays).")
  String javaOptions;

  @Override
  public Integer call() throws InterruptedException {
    Configuration configuration = hadoop.apply(parent.configuration());
    String options = javaOptions != null ? javaOptions
        : RelayKeys.RELAY_JAVA_OPTS.from(configuration);
    List<String> optionList = JavaProcess.options(options);
    ClassPath classPath = ClassPath.of(ImageClassDataArchive.runningJar(),
        System.getProperty("java.class.path", ""));
    Made made;
    try {
      made = ImageClassDataArchive.make(folder, classPath, optionList, TRAINING_MAIN,
          Main.class.getName());
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.IO_ERROR, "cannot make the relays' class-data"
          + " archive in " + folder + ": " + e.getMessage()
          + "; check that the folder is writable and that the relay starts here (relaycp relay"
          + " --port 0 --secret-file FILE)", e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "made %s (%.1f MB, %d jars) in %.1f s%n", made.archive(),
        made.archiveBytes() / 1e6, made.jars().size(), made.took().toMillis() / 1000.0);
    out.println("relay command: "
        + JavaProcess.launcher() + " @" + made.javaOptions());
    return ExitCodes.OK;
  }
}
