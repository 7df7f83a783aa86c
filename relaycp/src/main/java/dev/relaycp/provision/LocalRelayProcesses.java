package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TlsIdentity;
import dev.relaycp.transfer.Route;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relay daemons started as child JVM processes on this machine for one copy: the embedded
 * default, the demo and the tests. Each pair is a reader and a writer relay on loopback.
 * Children keep their standard input open to this process and stop when it closes, so a
 * driver that dies, however it dies, leaves no relay behind.
 */
public final class LocalRelayProcesses implements RelayProvisioner {
  private static final Logger LOG = LoggerFactory.getLogger(LocalRelayProcesses.class);
  /** The line a relay prints once it listens; the port is read from it. */
  public static final Pattern LISTENING = Pattern.compile("relaycp relay listening on (\\S+)");
  private static final long START_TIMEOUT_SECONDS = 60;

  private final List<Process> processes;
  private final List<Route> routes;

  private LocalRelayProcesses(List<Process> processes, List<Route> routes) {
    this.processes = processes;
    this.routes = List.copyOf(routes);
  }

  /**
   * Starts {@code pairs} reader/writer pairs sharing {@code secretFile}, with the Hadoop
   * properties {@code properties} and the extra relay options {@code relayOptions}; each shows
   * {@code tlsIdentity} if given (the driver's, {@code --tls-identity-file}) instead of making
   * a TLS key of its own. The identity's file is removed once every relay listens.
   */
  public static LocalRelayProcesses start(int pairs, Path secretFile,
      Map<String, String> properties, List<String> relayOptions,
      Optional<TlsIdentity> tlsIdentity) {
    if (pairs < 1) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--local-relays must be 1 or more, got " + pairs);
    }
    requireNonNull(secretFile, "secretFile is null");
    requireNonNull(tlsIdentity, "tlsIdentity is null");
    List<Process> processes = new ArrayList<>();
    List<CompletableFuture<RelayAddress>> addresses = new ArrayList<>();
    Optional<TlsIdentityFile> identityFile = Optional.empty();
    try {
      List<String> options = new ArrayList<>(relayOptions);
      if (tlsIdentity.isPresent()) {
        identityFile =
            Optional.of(TlsIdentityFile.write(tlsIdentity.get(), ErrorCode.INTERNAL_ERROR));
        options.addAll(List.of("--tls-identity-file", identityFile.get().path().toString()));
      }
      for (int index = 0; index < 2 * pairs; index++) {
        Process process = launch(secretFile, properties, options);
        processes.add(process);
        addresses.add(listeningAddress(process));
      }
      List<Route> routes = new ArrayList<>();
      for (int pair = 0; pair < pairs; pair++) {
        routes.add(new Route(pair, await(addresses.get(2 * pair)),
            await(addresses.get(2 * pair + 1))));
      }
      LOG.info("Started {} local relay pairs: {}", pairs, routes);
      return new LocalRelayProcesses(processes, routes);
    } catch (RuntimeException e) {
      processes.forEach(LocalRelayProcesses::stop);
      throw e;
    } finally {
      identityFile.ifPresent(TlsIdentityFile::close);
    }
  }

  private static Process launch(Path secretFile, Map<String, String> properties,
      List<String> relayOptions) {
    List<String> command = new ArrayList<>();
    command.add(JavaProcess.launcher());
    command.add("-Xmx512m");
    // Options given for relays' JVMs (a later -Xmx wins over the one above).
    String javaOptions = properties.get(RelayKeys.RELAY_JAVA_OPTS.key());
    if (javaOptions != null) {
      command.addAll(JavaProcess.options(javaOptions));
    }
    command.add("-cp");
    command.add(classPath());
    command.add("dev.relaycp.cli.Main");
    properties.forEach((key, value) -> {
      command.add("-D");
      command.add(key + "=" + value);
    });
    command.add("relay");
    command.add("--bind");
    command.add("127.0.0.1");
    command.add("--port");
    command.add("0");
    command.add("--secret-file");
    command.add(secretFile.toString());
    command.add("--stop-on-stdin-eof");
    command.addAll(relayOptions);
    try {
      return new ProcessBuilder(command)
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.INTERNAL_ERROR,
          "cannot start a local relay process: " + e.getMessage(), e);
    }
  }

  /** This JVM's class path, plus the relaycp jar itself when run by {@code hadoop jar}. */
  static String classPath() {
    String classPath = System.getProperty("java.class.path");
    try {
      String own = Paths.get(LocalRelayProcesses.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI()).toString();
      if (!List.of(classPath.split(File.pathSeparator)).contains(own)) {
        classPath = own + File.pathSeparator + classPath;
      }
    } catch (URISyntaxException | RuntimeException e) {
      LOG.debug("Cannot locate relaycp's own code source", e);
    }
    return classPath;
  }

  private static CompletableFuture<RelayAddress> listeningAddress(Process process) {
    CompletableFuture<RelayAddress> address = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          Matcher matcher = LISTENING.matcher(line);
          if (matcher.find() && !address.isDone()) {
            address.complete(RelayAddress.parse(matcher.group(1)));
          }
        }
      } catch (IOException | RuntimeException e) {
        address.completeExceptionally(e);
      }
      address.completeExceptionally(new IOException(
          "local relay exited before it listened (see its messages above)"));
    }, "local-relay-output");
    reader.setDaemon(true);
    reader.start();
    return address;
  }

  private static RelayAddress await(CompletableFuture<RelayAddress> address) {
    try {
      return address.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      throw new RelayCpException(ErrorCode.INTERNAL_ERROR,
          "a local relay did not start: " + cause.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "interrupted starting local relays", e);
    }
  }

  @Override
  public List<Route> routes() {
    return routes;
  }

  /** The relay processes, reader then writer for each pair; tests kill one to see it survive. */
  public List<Process> processes() {
    return List.copyOf(processes);
  }

  @Override
  public String provisioner() {
    return "local";
  }

  /** Every relay here runs from this process's own class path. */
  @Override
  public boolean runsThisBuild(Route route) {
    return true;
  }

  @Override
  public Map<String, Integer> relaysStarted() {
    return Map.of("src", routes.size(), "dst", routes.size());
  }

  @Override
  public void close() {
    processes.forEach(LocalRelayProcesses::stop);
  }

  private static void stop(Process process) {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      LOG.debug("Closing a relay's input failed", e);
    }
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
